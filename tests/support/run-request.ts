/**
 * The browser run request's fixed parts for the run worker's specs: the models and endpoints of
 * every role, and the client spec a real (not simulated) run sends with `key`.
 */
import { DEFAULT_PROMPT_PACK } from '../../src/lib/core/prompts';
import { DEFAULT_SETTINGS } from '../../src/lib/core/records';
import type { RunRequest } from '../../src/lib/adapters/workers/run-controller';

export const MODELS = { evaluated: 'eval-model', user: 'user-model', judge: 'judge-model' };
export const ENDPOINTS = {
	evaluated: 'http://e.test/v1',
	user: 'http://u.test/v1',
	judge: 'http://j.test/v1'
};

/** The client spec of a run at {@link ENDPOINTS} with `key` for every role. */
export function clientSpecWith(key: string): NonNullable<RunRequest['clientSpec']> {
	return {
		simulated: false,
		endpoints: {
			evaluated: { baseURL: ENDPOINTS.evaluated, apiKey: key, model: MODELS.evaluated },
			user: { baseURL: ENDPOINTS.user, apiKey: key, model: MODELS.user },
			judge: { baseURL: ENDPOINTS.judge, apiKey: key, model: MODELS.judge }
		},
		settings: DEFAULT_SETTINGS,
		concurrency: 2,
		pack: DEFAULT_PROMPT_PACK
	};
}
