/**
 * Fault rows that both matrices run as they stand: under the stage commands
 * (fault-matrix.spec.ts) and under `run` (run-faults.spec.ts).
 */
import { after, callsBetween, type Endpoint, type Fault } from './harness';

/** Retry at once: a row must not wait on the provider's pace. */
export const FAST_RETRY = { 'Retry-After': '0' };
/** An answer cut off by max_tokens. */
export const CUT_OFF = '根据您提供的情况，我认为';

/** What a shared row's fault and repair reach. */
export interface RowEndpoint {
	endpoint: Endpoint;
}

export interface SharedRow {
	fault: string;
	expect: 'same records' | 'stop, then rerun';
	inject: (ctl: RowEndpoint) => Fault;
	flags?: string[];
	says?: RegExp[];
	repair?: (ctl: RowEndpoint) => Promise<void>;
}

export const RETRIES_EXHAUSTED: SharedRow = {
	fault: '429 storm longer than --retries',
	expect: 'stop, then rerun',
	inject: () => callsBetween(20, 80, () => ({ status: 429, headers: FAST_RETRY })),
	flags: ['--retries', '1'],
	says: [/429 Too Many Requests/]
};

export const TRUNCATED: SharedRow = {
	fault: 'truncated output (finish_reason "length")',
	expect: 'same records',
	inject: () => callsBetween(3, 9, () => ({ content: CUT_OFF, finish_reason: 'length' })),
	says: [/cut off at max_tokens 8192/]
};

export const OUTAGES: SharedRow[] = [
	{
		fault: 'outage mid-run: 503 for everything after 25 calls',
		expect: 'stop, then rerun',
		inject: () => after(25, { status: 503 }),
		flags: ['--retries', '1'],
		says: [/503 Service Unavailable/]
	},
	{
		fault: 'outage mid-run: the provider goes away after 25 calls',
		expect: 'stop, then rerun',
		inject:
			({ endpoint }) =>
			(_req, { call }) => {
				if (call !== 25) return undefined;
				void endpoint.stop();
				return { hangup: true };
			},
		flags: ['--retries', '1'],
		says: [/Connection error|connection failed|ECONNREFUSED/],
		repair: ({ endpoint }) => endpoint.restart()
	}
];
