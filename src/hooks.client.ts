import { z } from 'zod';

// zod probes `new Function` to decide whether it may compile fast parsers. The probe is
// caught, but under this site's CSP (no 'unsafe-eval') the browser still reports it as a
// violation. SvelteKit evaluates client hooks before any page module builds a schema, so
// switching the probe off here covers every schema in the app.
z.config({ jitless: true });
