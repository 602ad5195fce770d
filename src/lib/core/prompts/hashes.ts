/** The hashes a manifest carries to tell whether two runs used the same protocol and prompts. */
import { sha256Canonical } from '../hash';
import type { PromptPack } from './pack';

/**
 * Version of the stage logic (PROTOCOL.md §4: budgets, rounds, which prompt serves which step).
 * Bump it when a change would make old records incomparable with new ones.
 */
export const PROTOCOL_VERSION = 'lexpilot-workbench-protocol-1';

/** SHA-256 of the pack's canonical JSON (name, version and every template). */
export function promptsSha256(pack: PromptPack): Promise<string> {
	return sha256Canonical(pack);
}

/** `code_sha256` of the manifest: the protocol version together with the prompt pack. */
export async function codeSha256(pack: PromptPack): Promise<string> {
	return codeSha256Of(await promptsSha256(pack));
}

/** `code_sha256` of this protocol version with a pack of `prompts_sha256`. */
export function codeSha256Of(prompts_sha256: string): Promise<string> {
	return sha256Canonical({ protocol_version: PROTOCOL_VERSION, prompts_sha256 });
}
