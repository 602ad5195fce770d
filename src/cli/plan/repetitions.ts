/** `--repetitions R`: the number of runs per model of a plan, held to `SETTING_LIMITS.repetitions`. */
import { numberFlag } from '../args';

/** The repetitions flag, checked; undefined when it is not given (one run per model). */
export function parseRepetitions(raw: string | undefined): number | undefined {
	if (raw === undefined) return undefined;
	return numberFlag('repetitions', raw, 1, 'repetitions');
}
