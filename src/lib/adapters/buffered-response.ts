/**
 * A `Response` whose body is already in memory, for `node-fetch.ts`: its answers are read into
 * one buffer before the SDK sees them. A standard `Response` made from that buffer wraps it in a
 * web stream (and a structured-clone transferable) only for the SDK to read it back through a
 * stream reader, which cost about a third of the transport's CPU per call (PERFORMANCE.md, "CLI
 * `run` end to end"). Here `text()` and `json()` decode the buffer directly, as `Response` does
 * (UTF-8, a leading BOM dropped, bad bytes replaced), and a body is still read once only.
 * Anything else of the body (`body`, `formData()`, `clone()`) is answered by a standard
 * `Response` made from the same bytes on first use, so it works the same, only slower.
 */

const decoder = new TextDecoder();

export class BufferedResponse implements Response {
	readonly status: number;
	readonly statusText: string;
	readonly headers: Headers;
	readonly ok: boolean;
	readonly redirected = false;
	readonly type: ResponseType = 'default';
	readonly url = '';
	readonly #bytes: Uint8Array<ArrayBuffer> | null;
	#used = false;
	/** The standard `Response` of the same bytes, once something only it answers was asked. */
	#standard: Response | null = null;

	/** `bytes` null for a response without a body (a 204, say). */
	constructor(
		bytes: Uint8Array<ArrayBuffer> | null,
		init: { status: number; statusText?: string; headers?: HeadersInit }
	) {
		this.#bytes = bytes;
		this.status = init.status;
		this.statusText = init.statusText ?? '';
		// Headers made for this response are its own; anything else is copied, as `Response` does.
		this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
		this.ok = init.status >= 200 && init.status <= 299;
	}

	get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
		return this.#bytes === null ? null : this.#asStandard().body;
	}

	get bodyUsed(): boolean {
		return this.#used || (this.#standard?.bodyUsed ?? false);
	}

	async text(): Promise<string> {
		if (this.#standard) return this.#standard.text();
		return this.#bytes === null ? '' : decoder.decode(this.#take());
	}

	async json(): Promise<unknown> {
		if (this.#standard) return this.#standard.json();
		return JSON.parse(this.#bytes === null ? '' : decoder.decode(this.#take()));
	}

	async bytes(): Promise<Uint8Array<ArrayBuffer>> {
		if (this.#standard) return this.#standard.bytes();
		return this.#bytes === null ? new Uint8Array(0) : this.#take().slice();
	}

	async arrayBuffer(): Promise<ArrayBuffer> {
		return (await this.bytes()).buffer;
	}

	async blob(): Promise<Blob> {
		if (this.#standard) return this.#standard.blob();
		return new Blob(this.#bytes === null ? [] : [this.#take()], {
			type: this.headers.get('content-type') ?? ''
		});
	}

	formData(): Promise<FormData> {
		return this.#asStandard().formData();
	}

	clone(): Response {
		return this.#asStandard().clone();
	}

	/** The bytes, once: a second read fails as it does on a `Response`. */
	#take(): Uint8Array<ArrayBuffer> {
		if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
		this.#used = true;
		return this.#bytes!;
	}

	#asStandard(): Response {
		if (!this.#standard) {
			if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
			this.#standard = new Response(this.#bytes, {
				status: this.status,
				statusText: this.statusText,
				headers: this.headers
			});
		}
		return this.#standard;
	}
}

// A `Response` to `instanceof`, as `fetch`'s answers are, without running `Response`'s
// constructor (its checks and body set-up cost as much again as the rest of a response): every
// member of `Response` is this class's own, so none of the prototype's is ever reached.
Object.setPrototypeOf(BufferedResponse.prototype, Response.prototype);
