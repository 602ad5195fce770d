// zod probes `new Function` to decide whether it may compile fast parsers. The probe is
// caught, but under this site's CSP (no 'unsafe-eval') the browser still reports it as a
// violation. SvelteKit evaluates client hooks before any page module runs, so switching the
// probe off here covers every schema in the app. zod keeps its settings on
// `globalThis.__zod_globalConfig` (created when absent, so a value set first is the one it
// uses): setting `jitless` there, rather than calling `z.config`, keeps zod itself out of every
// page's first load; pages import it when they validate something. `tests/unit/zod-config.spec.ts`
// checks that zod still reads this setting.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((scope.__zod_globalConfig ??= {}), { jitless: true });

// A module (no hooks of its own): SvelteKit imports it for the line above.
export {};
