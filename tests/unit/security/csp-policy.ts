/**
 * Reads and judges the Content-Security-Policy of a built page. The rule for scripts is strict:
 * only this site's files and the exact inline bootstrap SvelteKit emits (by hash), never
 * 'unsafe-inline', 'unsafe-eval' or a scheme/host source, so an injected `<script>`, event
 * handler or `javascript:` URL cannot run even if some text were ever rendered as HTML.
 */
import { createHash } from 'node:crypto';

/** Directive name → its source tokens, as written (names lower-cased). */
export type Policy = Map<string, string[]>;

/** Splits a policy string into directives; the first of a repeated directive wins, as in CSP. */
export function parsePolicy(text: string): Policy {
	const policy: Policy = new Map();
	for (const part of text.split(';')) {
		const [name, ...sources] = part.trim().split(/\s+/);
		if (!name) continue;
		const key = name.toLowerCase();
		if (!policy.has(key)) policy.set(key, sources);
	}
	return policy;
}

const HASH = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;
/** What the policy gets wrong, one sentence each; empty when it is as strict as we promise. */
export function policyProblems(policy: Policy): string[] {
	const problems: string[] = [];
	const expect = (name: string, wanted: string[]) => {
		const got = policy.get(name);
		if (!got) problems.push(`${name} is missing (want ${wanted.join(' ')})`);
		else if (got.join(' ') !== wanted.join(' '))
			problems.push(`${name} is "${got.join(' ')}" (want ${wanted.join(' ')})`);
	};
	expect('default-src', ["'self'"]);
	expect('object-src', ["'none'"]);
	expect('base-uri', ["'self'"]);
	expect('form-action', ["'self'"]);

	// script-src-elem/-attr would override script-src for their kind, so they must be as strict.
	const scriptDirectives = ['script-src', 'script-src-elem', 'script-src-attr'];
	if (!policy.has('script-src')) problems.push("script-src is missing (want 'self' + hashes)");
	for (const name of scriptDirectives) {
		const sources = policy.get(name);
		if (!sources) continue;
		if (!sources.includes("'self'")) problems.push(`${name} lacks 'self'`);
		for (const s of sources) {
			if (s !== "'self'" && !HASH.test(s)) {
				problems.push(`${name} allows ${s}: scripts may come only from 'self' or a hash`);
			}
		}
	}
	// 'unsafe-eval' in default-src would reach scripts through the fallback.
	for (const [name, sources] of policy) {
		if (!scriptDirectives.includes(name) && sources.includes("'unsafe-eval'")) {
			problems.push(`${name} allows 'unsafe-eval'`);
		}
	}
	return problems;
}

/** The source of each inline `<script>` (no `src`), exactly as the browser hashes it. */
export function inlineScripts(html: string): string[] {
	const out: string[] = [];
	for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
		if (!/\bsrc\s*=/i.test(m[1])) out.push(m[2]);
	}
	return out;
}

/** `'sha256-…'` of a script's text, as a CSP source. */
export function hashSource(script: string): string {
	return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

const META =
	/<meta\s+http-equiv=["']content-security-policy["']\s+content=(["'])([\s\S]*?)\1\s*\/?>/gi;

/**
 * Everything wrong with one built HTML page: its CSP meta (exactly one, ahead of every script),
 * the policy, hashes that match no inline script (or scripts without a hash), inline event
 * handler attributes, and scripts loaded from elsewhere.
 */
export function pageProblems(html: string): string[] {
	const metas = [...html.matchAll(META)];
	if (metas.length !== 1) {
		return [`has ${metas.length} Content-Security-Policy <meta> tags, want exactly 1`];
	}
	const problems: string[] = [];
	const [meta] = metas;
	// A <meta> policy only governs what comes after it.
	const firstScript = html.search(/<script\b|<link\b[^>]*rel=["']?modulepreload/i);
	if (firstScript !== -1 && firstScript < meta.index) {
		problems.push('a script comes before the Content-Security-Policy <meta>, so it is not covered');
	}
	const policy = parsePolicy(meta[2].replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"'));
	problems.push(...policyProblems(policy));

	const hashes = (policy.get('script-src') ?? []).filter((s) => HASH.test(s));
	const scripts = inlineScripts(html).map(hashSource);
	for (const [i, source] of scripts.entries()) {
		if (!hashes.includes(source)) {
			problems.push(`inline script #${i + 1} (${source}) is not allowed by script-src`);
		}
	}
	for (const source of hashes) {
		if (!scripts.includes(source)) {
			problems.push(`script-src allows ${source}, which matches no inline script of the page`);
		}
	}
	for (const m of html.matchAll(/<[a-z][^>]*\s(on[a-z]+)\s*=/gi)) {
		problems.push(`inline event handler attribute ${m[1]}=`);
	}
	for (const m of html.matchAll(/<script\b[^>]*\ssrc\s*=\s*["']?([^"'\s>]+)/gi)) {
		if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(m[1])) {
			problems.push(`script from ${m[1]}: scripts must come from this site`);
		}
	}
	return problems;
}
