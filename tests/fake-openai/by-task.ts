/**
 * The hook for a task-aware fake: a `TaskScript` tells which prompt task a request serves and
 * answers per task, so an end-to-end run of every stage can go through real HTTP. Which prompt
 * is which depends on the prompt pack, so the script itself belongs to the engine's tests; this
 * module only routes.
 */
import type { Task } from '../../src/lib/core/model/types';
import type { FakeRequest, Handler, Reply } from './server';

export interface TaskScript {
	/** The task of a request (usually from its prompt), or null when it cannot tell. */
	detect(request: FakeRequest): Task | null;
	/** The reply for each task; a task without one gets a loud 501. */
	responders: Partial<Record<Task, Handler>>;
}

/** A handler that routes each request to the responder of its task. */
export function byTask(script: TaskScript): Handler {
	return (request) => {
		const task = script.detect(request);
		if (!task) return refuse(`could not tell the task of prompt "${request.prompt.slice(0, 80)}…"`);
		const responder = script.responders[task];
		if (!responder) return refuse(`no responder for task ${task}`);
		return responder(request);
	};
}

function refuse(message: string): Reply {
	return {
		status: 501,
		body: { error: { message: `fake-openai: ${message}`, type: 'fake_script' } }
	};
}

/** True for a value shaped like a {@link TaskScript} (a script module may export either). */
export function isTaskScript(value: unknown): value is TaskScript {
	const v = value as Partial<TaskScript> | null;
	return (
		typeof v?.detect === 'function' && typeof v.responders === 'object' && v.responders !== null
	);
}
