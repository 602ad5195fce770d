import type { PromptPack } from './pack';

/**
 * The pack as pretty JSON for export; `parsePromptPack` reads it back unchanged. Apart from
 * `pack.ts` (and its zod schema), so that holding and saving a pack needs no validator.
 */
export function exportPromptPack(pack: PromptPack): string {
	return `${JSON.stringify(pack, null, '\t')}\n`;
}
