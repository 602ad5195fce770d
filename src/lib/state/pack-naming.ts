/**
 * An edited default pack gets a name of its own. The name and version are part of
 * `prompts_sha256`, so they never change the comparison, but a pack called
 * "lexpilot-workbench-default" that is not the default would mislead whoever reads a manifest
 * or an exported file. The first template edit of the default pack marks its name edited; once
 * every template is back to the default, the pack is the default again. A name the user typed,
 * and an imported pack, are kept as they are (an imported file keeps its hash, as the CLI's
 * `--prompts` reads it).
 */
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts/default-pack';
import type { PromptPack } from '$lib/core/prompts/pack';
import { TEMPLATE_NAMES } from '$lib/core/prompts/slots';

/** The name an edited default pack carries. */
export const EDITED_DEFAULT_NAME = `${DEFAULT_PROMPT_PACK.name}-edited`;

/** `pack` after a template edit, named for what it is. */
export function namedForEdits(pack: PromptPack): PromptPack {
	const { name, version } = DEFAULT_PROMPT_PACK;
	if (pack.version !== version) return pack;
	const edited = TEMPLATE_NAMES.some((t) => pack.templates[t] !== DEFAULT_PROMPT_PACK.templates[t]);
	if (edited && pack.name === name) return { ...pack, name: EDITED_DEFAULT_NAME };
	if (!edited && pack.name === EDITED_DEFAULT_NAME) return DEFAULT_PROMPT_PACK;
	return pack;
}
