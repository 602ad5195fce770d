/**
 * The bootstrap's default number of resamples, apart from `bootstrap.ts` so that a page naming
 * it (the Results page's notes) does not load the bootstrap itself.
 */

/** The resamples `results` draws unless `--resamples` says otherwise. */
export const DEFAULT_RESAMPLES = 2000;
