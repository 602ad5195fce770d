/**
 * A provider round's uploads (`POST /files`), so that a kill at any point leaves no upload the
 * saved state does not name (docs/BATCH.md, "What is saved, and a restart"): each input file's
 * content hash is saved before its upload and its file id after. A send that a kill cut short is
 * made again with what it saved (`earlier`): an upload of the same content is reused (by its
 * saved id, or found at the provider by the name it was uploaded under, which carries the
 * hash); one of other content (the round's requests computed otherwise) is deleted.
 */
import { toFile } from 'openai';
import type OpenAI from 'openai';
import { sha256Hex } from '../hash';
import type { BatchRoundFile } from './store';

/** What the uploads need of the provider sender: its Files API and its rules for a call. */
export interface Uploader {
	/** The Files API of the endpoint a file goes to. */
	files(file: BatchRoundFile): OpenAI['files'];
	/** One call under the sender's retry policy, failing with the step named. */
	retrying<T>(step: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
	/** A provider's id as kept (bounded), or refused naming the step. */
	providerId(id: unknown, step: string): string;
}

/** Files listed when looking for an upload a kill left unnamed (the latest first). */
const LISTED_FILES = 1000;

/** The group of files of one endpoint and model (its files are cut from one group of requests). */
export function groupOf(file: BatchRoundFile): string {
	return `${file.endpoint}\0${file.model}`;
}

/**
 * The name a file is uploaded under: its round file name, flat, with the first 16 hex of its
 * content's SHA-256, so an upload a kill left unnamed in the saved state is found again by it
 * (and never taken for another run's file of the same round and model).
 */
export function uploadName(file: BatchRoundFile): string {
	const flat = file.name.replace('/', '-').replace(/\.jsonl$/, '');
	return `${flat}-${(file.sha256 ?? '').slice(0, 16)}.jsonl`;
}

/**
 * Uploads the round's files (`texts` by file name, emptied as each goes) and returns them with
 * their `sha256` and `file_id`; `onFiles` is told the files before each upload (the new one
 * with its hash only) and after it (with its id).
 */
export async function uploadRound(
	files: readonly BatchRoundFile[],
	texts: Map<string, string[]>,
	earlier: readonly BatchRoundFile[],
	up: Uploader,
	signal?: AbortSignal,
	onFiles?: (files: BatchRoundFile[]) => Promise<void>
): Promise<BatchRoundFile[]> {
	const sent: BatchRoundFile[] = [];
	const before = new Map(earlier.map((f) => [f.name, f]));
	for (const file of files) {
		signal?.throwIfAborted();
		const bytes = new TextEncoder().encode(texts.get(file.name)!.join(''));
		texts.delete(file.name);
		const named = { ...file, sha256: await sha256Hex(bytes) };
		const prior = before.get(file.name);
		before.delete(file.name);
		const same = prior?.sha256 === named.sha256 ? prior : undefined;
		if (prior && !same) await discard(prior, up, signal);
		let id = same?.file_id ?? (same ? await findUpload(named, up, signal) : null);
		if (!id) {
			await onFiles?.([...sent, named].map((f) => ({ ...f })));
			const uploaded = await up.retrying(
				'POST /files',
				async () =>
					up.files(file).create({
						file: await toFile(bytes, uploadName(named)),
						purpose: 'batch'
					}),
				signal
			);
			id = up.providerId(uploaded.id, 'POST /files');
		}
		sent.push({ ...named, file_id: id });
		await onFiles?.(sent.map((f) => ({ ...f })));
	}
	for (const prior of before.values()) await discard(prior, up, signal);
	return sent;
}

/**
 * The id of an upload a send cut short may have made (a kill while `POST /files` was out): the
 * provider's batch file of that name and size among the latest 1,000, or null.
 */
async function findUpload(
	file: BatchRoundFile,
	up: Uploader,
	signal?: AbortSignal
): Promise<string | null> {
	const name = uploadName(file);
	return up.retrying(
		'GET /files',
		async () => {
			let seen = 0;
			for await (const f of up.files(file).list({ purpose: 'batch', limit: 100 })) {
				if (f.filename === name && f.bytes === file.bytes) return up.providerId(f.id, 'GET /files');
				if (++seen >= LISTED_FILES) break;
			}
			return null;
		},
		signal
	);
}

/**
 * Deletes an upload of a send cut short that the round no longer uses, by its saved id or, when
 * the kill came before its id was saved, as {@link findUpload} finds it. One the provider does
 * not delete now stays there unused (it costs nothing); the run goes on.
 */
async function discard(file: BatchRoundFile, up: Uploader, signal?: AbortSignal): Promise<void> {
	try {
		const id = file.file_id ?? (file.sha256 ? await findUpload(file, up, signal) : null);
		if (id) await up.retrying('DELETE /files/{id}', () => up.files(file).delete(id), signal);
	} catch (e) {
		if (signal?.aborted) throw e;
	}
}
