/**
 * The CSP checker that the end-to-end test runs over every built page, tested on pages built
 * by hand, plus the policy svelte.config.js asks SvelteKit for. (The built pages themselves are
 * checked in tests/e2e/security-csp.e2e.ts, which runs after `npm run build`; `npm test` runs
 * the unit tests before it builds.)
 */
import { describe, expect, it } from 'vitest';
import config from '../../../svelte.config.js';
import { hashSource, inlineScripts, pageProblems, parsePolicy, policyProblems } from './csp-policy';

const BOOT = "\n\t{ __sveltekit_x = { base: '' }; import('./_app/start.js'); }\n";
const GOOD_POLICY =
	"default-src 'self'; connect-src 'self' https: http:; img-src 'self' data: blob:; " +
	`object-src 'none'; script-src 'self' ${hashSource(BOOT)}; style-src 'self' 'unsafe-inline'; ` +
	"base-uri 'self'; form-action 'self'";

/** A page shaped like SvelteKit's static output. */
function page({
	policy = GOOD_POLICY,
	head = '',
	body = `<div style="display: contents"><script>${BOOT}</script></div>`
} = {}) {
	return (
		'<!doctype html><html><head><meta charset="utf-8" />' +
		`<meta http-equiv="content-security-policy" content="${policy}">` +
		`<link href="./_app/start.js" rel="modulepreload">${head}</head><body>${body}</body></html>`
	);
}

describe('CSP of a built page', () => {
	it('accepts a page whose only inline script is hashed and whose policy is strict', () => {
		expect(pageProblems(page())).toEqual([]);
	});

	it.each([
		[
			"script-src 'unsafe-inline'",
			page({
				policy: GOOD_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
			}),
			"script-src allows 'unsafe-inline'"
		],
		[
			"script-src 'unsafe-eval'",
			page({ policy: GOOD_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'") }),
			"script-src allows 'unsafe-eval'"
		],
		[
			'a host source for scripts',
			page({ policy: GOOD_POLICY.replace("script-src 'self'", "script-src 'self' https:") }),
			'script-src allows https:'
		],
		[
			'script-src-elem looser than script-src',
			page({ policy: `${GOOD_POLICY}; script-src-elem 'self' 'unsafe-inline'` }),
			"script-src-elem allows 'unsafe-inline'"
		],
		[
			'no script-src (default-src would be the only guard)',
			page({ policy: GOOD_POLICY.replace(/script-src [^;]+; /, '') }),
			'script-src is missing'
		],
		[
			'object-src not none',
			page({ policy: GOOD_POLICY.replace("object-src 'none'", "object-src 'self'") }),
			'object-src is "\'self\'"'
		],
		[
			'no base-uri',
			page({ policy: GOOD_POLICY.replace("; base-uri 'self'", '') }),
			'base-uri is missing'
		],
		[
			'an inline script without its hash',
			page({ body: `<script>${BOOT}</script><script>window.x = 1</script>` }),
			'inline script #2'
		],
		[
			'a hash for a script the page no longer has',
			page({ body: '<script>window.changed = 1</script>' }),
			'matches no inline script'
		],
		[
			'an inline event handler',
			page({ body: `<script>${BOOT}</script><img src="x.png" onerror="go()">` }),
			'inline event handler attribute onerror='
		],
		[
			'a script from another site',
			page({ head: '<script src="https://cdn.example/lib.js"></script>' }),
			'script from https://cdn.example/lib.js'
		],
		[
			'a script ahead of the policy',
			page().replace('<meta http-equiv', `<script>${BOOT}</script><meta http-equiv`),
			'comes before the Content-Security-Policy'
		],
		['no policy at all', page().replace(/<meta http-equiv[^>]+>/, ''), 'has 0 Content-Security']
	])('refuses %s', (_name, html, problem) => {
		const problems = pageProblems(html);
		expect(problems.join('\n')).toContain(problem);
	});

	it('hashes the script text exactly as browsers do (whitespace included)', () => {
		// Known value: echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
		expect(hashSource('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
		expect(hashSource(' alert(1)')).not.toBe(hashSource('alert(1)'));
		expect(inlineScripts('<script src="a.js"></script><script type="module">x</script>')).toEqual([
			'x'
		]);
	});

	it('reads the first of a repeated directive, as browsers do', () => {
		const policy = parsePolicy("script-src 'self'; script-src 'unsafe-inline'");
		expect(policy.get('script-src')).toEqual(["'self'"]);
	});
});

describe('svelte.config.js', () => {
	it('asks SvelteKit for hash-mode CSP with scripts from this site only', () => {
		const csp = config.kit?.csp;
		expect(csp?.mode).toBe('hash');
		const directives = csp?.directives ?? {};
		expect(directives['script-src']).toEqual(['self']);
		expect(directives['object-src']).toEqual(['none']);
		// Rendered as SvelteKit writes it, the configured policy (before hashes) passes the checker.
		const written = Object.entries(directives)
			.map(([name, sources]) =>
				[name, ...(sources as string[]).map((s) => (s.endsWith(':') ? s : `'${s}'`))].join(' ')
			)
			.join('; ');
		expect(policyProblems(parsePolicy(written))).toEqual([]);
	});
});
