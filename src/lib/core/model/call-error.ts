/**
 * The `ModelCallError` a finally failed call throws, the same whichever client made the call
 * (interactive or batch): the message a researcher reads, its code for the browser, the
 * attempts for the call log; the key redacted everywhere.
 */
import { ModelCallError } from '../errors';
import { redactSaid } from '../said';
import { redactKeys } from '../text/redact';
import { english } from '../voice';
import { failureSaid, type ClientFailure, type FailureContext } from './failure-message';
import type { AttemptTrace, ChatRequest } from './types';

export function callError(
	f: ClientFailure,
	context: FailureContext,
	request: Pick<ChatRequest, 'caseNumber' | 'role' | 'task'>,
	trace: AttemptTrace[],
	apiKey: string
): ModelCallError {
	// Said once; its English is the message, both redacted (a provider may echo the key).
	const said = redactSaid(failureSaid(f, context), apiKey);
	const message = redactKeys(english(said), [apiKey]);
	return new ModelCallError(message, {
		kind: f.kind,
		status: f.status,
		caseNumber: request.caseNumber,
		role: request.role,
		task: request.task,
		rawOutput: f.rawOutput === undefined ? undefined : redactKeys(f.rawOutput, [apiKey]),
		attempts: trace,
		said: [said]
	});
}
