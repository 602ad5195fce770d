/**
 * A `Response` whose body is already in memory, for `node-fetch.ts`: its answers are read into
 * one buffer before the SDK sees them. A standard `Response` made from that buffer wraps it in a
 * web stream (and a structured-clone transferable) only for the SDK to read it back through a
 * stream reader, which cost about a third of the transport's CPU per call (PERFORMANCE.md, "CLI
 * `run` end to end"). Here `text()` and `json()` decode the buffer directly, as `Response` does
 * (UTF-8, a leading BOM dropped, bad bytes replaced), and a body is still read once only.
 * It is a `Response` (made without a body; status and headers are its own); anything else of
 * the body (`body`, `formData()`, `clone()`) is answered by a standard `Response` made from the
 * same bytes on first use, so it works the same, only slower.
 */

const decoder = new TextDecoder();

export class BufferedResponse extends Response {
	readonly #bytes: Uint8Array<ArrayBuffer> | null;
	#used = false;
	/** The standard `Response` of the same bytes, once something only it answers was asked. */
	#standard: Response | null = null;

	/** `bytes` null for a response without a body (a 204, say). */
	constructor(bytes: Uint8Array<ArrayBuffer> | null, init: ResponseInit) {
		super(null, init);
		this.#bytes = bytes;
	}

	override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
		return this.#bytes === null ? null : this.#asStandard().body;
	}

	override get bodyUsed(): boolean {
		return this.#used || (this.#standard?.bodyUsed ?? false);
	}

	override async text(): Promise<string> {
		if (this.#standard) return this.#standard.text();
		return this.#bytes === null ? '' : decoder.decode(this.#take());
	}

	override async json(): Promise<unknown> {
		if (this.#standard) return this.#standard.json();
		return JSON.parse(this.#bytes === null ? '' : decoder.decode(this.#take()));
	}

	override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
		if (this.#standard) return this.#standard.bytes();
		return this.#bytes === null ? new Uint8Array(0) : this.#take().slice();
	}

	override async arrayBuffer(): Promise<ArrayBuffer> {
		return (await this.bytes()).buffer;
	}

	override async blob(): Promise<Blob> {
		if (this.#standard) return this.#standard.blob();
		return new Blob(this.#bytes === null ? [] : [this.#take()], {
			type: this.headers.get('content-type') ?? ''
		});
	}

	override formData(): Promise<FormData> {
		return this.#asStandard().formData();
	}

	override clone(): Response {
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
