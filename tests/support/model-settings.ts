/** Model settings for the state specs: the defaults with an evaluated model, edited per test. */
import { defaultModelSettings, type ModelSettings } from '../../src/lib/state/model-settings';

/** The default settings with `evaluated` as the evaluated model, then `edit` applied. */
export function settingsWith(
	edit: (s: ModelSettings) => void = () => {},
	evaluated = 'qwen2.5:7b'
): ModelSettings {
	const s = defaultModelSettings();
	s.roles.evaluated.model = evaluated;
	edit(s);
	return s;
}
