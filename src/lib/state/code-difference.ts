/**
 * `code_sha256` is the protocol version together with `prompts_sha256` (`core/prompts/hashes.ts`),
 * so a run made with other prompts always differs in both. When the saved run's code hash is what
 * this protocol version makes of its own prompts hash, the protocol is the same: the Run page then
 * says only that the prompts differ, not also that another protocol version made the run.
 */
import { codeSha256Of } from '$lib/core/prompts/hashes';
import type { Manifest } from '$lib/core/records';
import type { ManifestDifference } from '$lib/core/store/resume';

/** `differences` without a `code_sha256` one that the prompts alone explain. */
export async function onlyWhatDiffers(
	saved: Pick<Manifest, 'code_sha256' | 'prompts_sha256'>,
	differences: ManifestDifference[]
): Promise<ManifestDifference[]> {
	const fields = new Set(differences.map((d) => d.field));
	if (!fields.has('code_sha256') || !fields.has('prompts_sha256')) return differences;
	const sameProtocol = (await codeSha256Of(saved.prompts_sha256)) === saved.code_sha256;
	return sameProtocol ? differences.filter((d) => d.field !== 'code_sha256') : differences;
}
