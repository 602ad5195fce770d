/**
 * The Files and Batches APIs of the fake server (`/v1/files`, `/v1/batches`), as OpenAI and the
 * providers with the same API answer them: an uploaded JSONL input file, a batch made of it that
 * runs each line through the server's chat handler after a delay, and output and error files in
 * the Batch API's line format. Failed requests (a status reply of 400 or more, or a fault) go to
 * the error file; an expired batch answers only part of its lines and lists the rest as
 * `batch_expired`; a cancelled one stops.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ContentReply, Handler, Reply } from './server';

/** Replies no HTTP body can carry: a batch lists them as failed requests. */
const FAULTS = ['hang', 'hangup', 'malformed', 'dropMidBody', 'giant', 'giantError', 'redirect'];

/** How the fake batches behave. */
export interface FakeBatchOptions {
	/** Time from create to a finished batch, or per batch (0-based, in creation order). @default 30 */
	delayMs?: number | ((batchIndex: number) => number);
	/** Batches (0-based, in creation order) that expire, answering only their first half. */
	expire?: (batchIndex: number) => boolean;
	/**
	 * A redirect answered instead of a Files or Batches route (`path` as requested, without the
	 * query): its status and `Location`; undefined answers the route.
	 */
	redirect?: (route: {
		method: string;
		path: string;
	}) => { status: number; location: string } | undefined;
	/** The status a batch reads as when polled (a provider's own words, or hostile ones). */
	shownStatus?: (status: BatchStatus, batchIndex: number) => string;
	/** Batches (0-based) that fail at validation with these `errors.data`, answering nothing. */
	failWith?: (
		batchIndex: number
	) => { code: string; message: string; line: number | null }[] | undefined;
}

export interface FakeBatchLine {
	batchId: string;
	customId: string;
	body: Record<string, unknown>;
}

interface StoredFile {
	id: string;
	filename: string;
	purpose: string;
	bytes: Buffer;
	created_at: number;
}

type BatchStatus =
	| 'validating'
	| 'failed'
	| 'in_progress'
	| 'finalizing'
	| 'completed'
	| 'expired'
	| 'cancelling'
	| 'cancelled';

interface StoredBatch {
	id: string;
	object: 'batch';
	endpoint: string;
	input_file_id: string;
	completion_window: string;
	status: BatchStatus;
	output_file_id: string | null;
	error_file_id: string | null;
	created_at: number;
	completed_at: number | null;
	expired_at: number | null;
	cancelled_at: number | null;
	errors: { object: 'list'; data: { code: string; message: string; line: number | null }[] } | null;
	request_counts: { total: number; completed: number; failed: number };
	metadata: Record<string, string> | null;
}

/** What the server needs to answer one batch-API request. */
export interface BatchRoute {
	method: string;
	path: string;
	body: Buffer;
	headers: IncomingHttpHeaders;
}

export type BatchReply = {
	status: number;
	json?: unknown;
	bytes?: Buffer;
	headers?: Record<string, string>;
};

export class FakeBatches {
	readonly files = new Map<string, StoredFile>();
	readonly batches = new Map<string, StoredBatch>();
	/** Every line a batch ran through the handler, in order. */
	readonly lines: FakeBatchLine[] = [];
	/** Every file deleted (`DELETE /files/{id}`), in order. */
	readonly deleted: string[] = [];
	/** The batch of every `POST /batches/{id}/cancel`, in order. */
	readonly cancels: string[] = [];
	readonly #handler: Handler;
	readonly #options: FakeBatchOptions;
	readonly #nextCall: () => number;
	readonly #timers = new Set<NodeJS.Timeout>();
	#fileCount = 0;

	constructor(handler: Handler, options: FakeBatchOptions, nextCall: () => number) {
		this.#handler = handler;
		this.#options = options;
		this.#nextCall = nextCall;
	}

	/** True when `path` is one of the Files or Batches routes. */
	static handles(path: string): boolean {
		return /\/(files|batches)(\/|$)/.test(path);
	}

	async route({ method, path, body, headers }: BatchRoute): Promise<BatchReply> {
		const parts = path.slice(path.search(/\/(files|batches)(\/|$)/) + 1).split('/');
		const [kind, id, action] = parts;
		const moved = this.#options.redirect?.({ method, path });
		if (moved) return { status: moved.status, json: {}, headers: { location: moved.location } };
		if (kind === 'files') {
			if (method === 'POST' && !id) return this.#upload(body, headers);
			if (method === 'GET' && !id) return this.#listFiles();
			const file = id ? this.files.get(id) : undefined;
			if (!file) return notFound(`No such file: ${id}`);
			if (method === 'GET' && action === 'content') return { status: 200, bytes: file.bytes };
			if (method === 'GET' && !action) return { status: 200, json: fileObject(file) };
			if (method === 'DELETE' && !action) {
				this.files.delete(file.id);
				this.deleted.push(file.id);
				return { status: 200, json: { id: file.id, object: 'file', deleted: true } };
			}
		}
		if (kind === 'batches') {
			if (method === 'POST' && !id) return this.#create(body);
			if (method === 'GET' && !id) return this.#list();
			const batch = id ? this.batches.get(id) : undefined;
			if (!batch) return notFound(`No such batch: ${id}`);
			if (method === 'GET' && !action) return { status: 200, json: this.#shown(batch) };
			if (method === 'POST' && action === 'cancel') return this.#cancel(batch);
		}
		return notFound(`No route for ${method} ${path}.`);
	}

	#shown(batch: StoredBatch): StoredBatch {
		const shown = this.#options.shownStatus;
		const index = [...this.batches.keys()].indexOf(batch.id);
		return shown ? { ...batch, status: shown(batch.status, index) as BatchStatus } : batch;
	}

	close(): void {
		for (const timer of this.#timers) clearTimeout(timer);
	}

	/** `GET /files`: every file, newest first, in one page. */
	#listFiles(): BatchReply {
		const data = [...this.files.values()].reverse().map(fileObject);
		return {
			status: 200,
			json: {
				object: 'list',
				data,
				first_id: data[0]?.id ?? null,
				last_id: data.at(-1)?.id ?? null,
				has_more: false
			}
		};
	}

	/** `GET /batches`: every batch, newest first, in one page. */
	#list(): BatchReply {
		const data = [...this.batches.values()].reverse();
		return {
			status: 200,
			json: {
				object: 'list',
				data,
				first_id: data[0]?.id ?? null,
				last_id: data.at(-1)?.id ?? null,
				has_more: false
			}
		};
	}

	async #upload(body: Buffer, headers: IncomingHttpHeaders): Promise<BatchReply> {
		const form = await new Request('http://fake/upload', {
			method: 'POST',
			headers: { 'content-type': String(headers['content-type'] ?? '') },
			body: new Uint8Array(body)
		})
			.formData()
			.catch(() => null);
		const file = form?.get('file');
		if (!form || !(file instanceof Blob))
			return badRequest('Expected a multipart form with a file.');
		const stored = this.#store(
			Buffer.from(await file.arrayBuffer()),
			'name' in file ? String(file.name) : 'upload.jsonl',
			String(form.get('purpose') ?? 'batch')
		);
		return { status: 200, json: fileObject(stored) };
	}

	#store(bytes: Buffer, filename: string, purpose: string): StoredFile {
		const file = { id: `file-${++this.#fileCount}`, filename, purpose, bytes, created_at: now() };
		this.files.set(file.id, file);
		return file;
	}

	#create(body: Buffer): BatchReply {
		let request: Record<string, unknown>;
		try {
			request = JSON.parse(body.toString('utf8'));
		} catch {
			return badRequest('We could not parse the JSON body of your request.');
		}
		const input = this.files.get(String(request.input_file_id));
		if (!input) return badRequest(`No such file: ${String(request.input_file_id)}`);
		const index = this.batches.size;
		const batch: StoredBatch = {
			id: `batch_${index + 1}`,
			object: 'batch',
			endpoint: String(request.endpoint ?? ''),
			input_file_id: input.id,
			completion_window: String(request.completion_window ?? ''),
			status: 'in_progress',
			output_file_id: null,
			error_file_id: null,
			created_at: now(),
			completed_at: null,
			expired_at: null,
			cancelled_at: null,
			errors: null,
			request_counts: { total: 0, completed: 0, failed: 0 },
			metadata: (request.metadata as Record<string, string>) ?? null
		};
		this.batches.set(batch.id, batch);
		const timer = setTimeout(
			() => {
				this.#timers.delete(timer);
				const errors = this.#options.failWith?.(index);
				if (errors) {
					batch.status = 'failed';
					batch.errors = { object: 'list', data: errors };
					return;
				}
				void this.#run(batch, input, this.#options.expire?.(index) ?? false);
			},
			delayOf(this.#options.delayMs, index)
		);
		this.#timers.add(timer);
		return { status: 200, json: batch };
	}

	#cancel(batch: StoredBatch): BatchReply {
		this.cancels.push(batch.id);
		if (batch.status === 'in_progress' || batch.status === 'validating') {
			batch.status = 'cancelled';
			batch.cancelled_at = now();
		}
		return { status: 200, json: batch };
	}

	async #run(batch: StoredBatch, input: StoredFile, expire: boolean): Promise<void> {
		if (batch.status !== 'in_progress') return;
		const text = input.bytes.toString('utf8');
		const rows = text.split('\n').filter((line) => line.trim() !== '');
		const requests: { custom_id: string; body: Record<string, unknown> }[] = [];
		for (const [i, row] of rows.entries()) {
			try {
				const line = JSON.parse(row);
				if (typeof line.custom_id !== 'string' || typeof line.body !== 'object') throw new Error();
				requests.push(line);
			} catch {
				return this.#fail(batch, i + 1, 'invalid_json_line', 'This line is not a batch request.');
			}
		}
		batch.request_counts.total = requests.length;
		const answered = expire ? Math.floor(requests.length / 2) : requests.length;
		const output: string[] = [];
		const errors: string[] = [];
		for (const [i, request] of requests.entries()) {
			if (i >= answered) {
				errors.push(
					errorLine(
						request.custom_id,
						'batch_expired',
						'This request could not be executed before the completion window expired.'
					)
				);
				batch.request_counts.failed++;
				continue;
			}
			this.lines.push({ batchId: batch.id, customId: request.custom_id, body: request.body });
			const reply = await this.#answer(request.body);
			const line = JSON.stringify({
				id: `batch_req_${this.lines.length}`,
				custom_id: request.custom_id,
				response: reply && {
					status_code: reply.status,
					request_id: `req_${this.lines.length}`,
					body: reply.json
				},
				error: reply
					? null
					: { code: 'server_error', message: 'The request could not be answered.' }
			});
			if (reply && reply.status < 400) {
				output.push(line);
				batch.request_counts.completed++;
			} else {
				errors.push(line);
				batch.request_counts.failed++;
			}
		}
		if (batch.status !== 'in_progress') return;
		if (output.length)
			batch.output_file_id = this.#store(jsonl(output), 'output.jsonl', 'batch_output').id;
		if (errors.length)
			batch.error_file_id = this.#store(jsonl(errors), 'errors.jsonl', 'batch_output').id;
		batch.status = expire ? 'expired' : 'completed';
		if (expire) batch.expired_at = now();
		else batch.completed_at = now();
	}

	#fail(batch: StoredBatch, line: number, code: string, message: string): void {
		batch.status = 'failed';
		batch.errors = { object: 'list', data: [{ code, message, line }] };
	}

	/** The chat handler's reply as a status and body; null for a fault no body can carry. */
	async #answer(body: Record<string, unknown>): Promise<{ status: number; json: unknown } | null> {
		const model = String(body.model ?? '');
		let reply: Reply;
		try {
			reply = await this.#handler({
				model,
				prompt: lastUserContent(body.messages),
				body,
				headers: {},
				callIndex: this.#nextCall()
			});
		} catch (e) {
			return {
				status: 500,
				json: { error: { message: `fake server handler threw: ${(e as Error).message}` } }
			};
		}
		if ('status' in reply) {
			return {
				status: reply.status,
				json: reply.body ?? {
					error: { message: `fake status ${reply.status}`, type: 'fake_error', code: null }
				}
			};
		}
		if (FAULTS.some((fault) => fault in reply)) return null;
		const content = 'content' in reply ? reply : { content: 'OK' };
		return { status: 200, json: completionBody(model, content) };
		return null;
	}
}

/** A chat completion's JSON body, as the fake server answers one. */
export function completionBody(model: string, content: ContentReply) {
	const message: Record<string, unknown> = { role: 'assistant', content: content.content };
	if (content.tool_calls !== undefined) message.tool_calls = content.tool_calls;
	if (content.reasoning_content !== undefined)
		message.reasoning_content = content.reasoning_content;
	if (content.reasoning !== undefined) message.reasoning = content.reasoning;
	return {
		id: 'chatcmpl-fake',
		object: 'chat.completion',
		created: 0,
		model,
		choices: [{ index: 0, message, finish_reason: content.finish_reason ?? 'stop' }],
		usage: content.usage
			? {
					...content.usage,
					total_tokens: content.usage.prompt_tokens + content.usage.completion_tokens
				}
			: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
	};
}

export function lastUserContent(messages: unknown): string {
	if (!Array.isArray(messages)) return '';
	const users = messages.filter((m) => m?.role === 'user');
	const content = users.at(-1)?.content;
	return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

function fileObject(file: StoredFile) {
	return {
		id: file.id,
		object: 'file',
		bytes: file.bytes.length,
		created_at: file.created_at,
		filename: file.filename,
		purpose: file.purpose,
		status: 'processed'
	};
}

function errorLine(customId: string, code: string, message: string): string {
	return JSON.stringify({
		id: null,
		custom_id: customId,
		response: null,
		error: { code, message }
	});
}

const jsonl = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8');
const now = () => Math.floor(Date.now() / 1000);
const notFound = (message: string): BatchReply => ({
	status: 404,
	json: { error: { message, type: 'invalid_request_error', param: null, code: 'not_found' } }
});
const badRequest = (message: string): BatchReply => ({
	status: 400,
	json: { error: { message, type: 'invalid_request_error', param: null, code: null } }
});

function delayOf(delay: FakeBatchOptions['delayMs'], index: number): number {
	return typeof delay === 'function' ? delay(index) : (delay ?? 30);
}
