/**
 * The Results page's statistics worker: bootstrap intervals and paired comparisons off the main
 * thread, so 5 runs × 432 cases × 2,000 resamples never freeze the page.
 */
import { handleStatsRequest, type StatsRequest } from './stats-protocol';

self.onmessage = (event: MessageEvent<StatsRequest>) => {
	self.postMessage(handleStatsRequest(event.data));
};
