/**
 * Ports a browser refuses to fetch at all: the "bad port" list of the WHATWG Fetch standard
 * (§2.9 "Port blocking"), which Chromium (`kRestrictedPorts`, ERR_UNSAFE_PORT), Firefox and
 * Safari all apply. A call to one fails at once with the same error as a server that is down,
 * so the Models page's Test connection and the Run page's Start check the port themselves and say
 * why, before anything is sent, instead of "nothing answered". The CLI calls through
 * `node:http`, which has no such list.
 */
import type { ConnectionTestResult } from '$lib/core/model/diagnose';
import type { RoleEndpoint } from '$lib/core/model/types';
import { m } from '$lib/paraglide/messages';

// prettier-ignore
const BAD_PORTS: ReadonlySet<number> = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
	103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
	512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
	995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
	6669, 6679, 6697, 10080
]);

/** Ports local model servers listen on by default, none on the list: what the page suggests. */
export const USUAL_PORTS = '8000, 8080, 11434, 1234';

/** The port of an http(s) `baseURL` that every browser refuses, or null (also for a bad URL). */
export function blockedPort(baseURL: string): number | null {
	let url: URL;
	try {
		url = new URL(baseURL.trim());
	} catch {
		return null;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
	// An explicit port only: the URL parser drops 80 and 443, which are never on the list.
	const port = url.port === '' ? null : Number(url.port);
	return port !== null && BAD_PORTS.has(port) ? port : null;
}

/** A Test connection result for a blocked port, in the interface language; nothing was sent. */
export function blockedPortResult(baseURL: string, port: number): ConnectionTestResult {
	return {
		status: 'unreachable',
		provider: 'generic',
		message: m.models_port_blocked({ url: baseURL, port }),
		hint: m.models_port_blocked_hint({ ports: USUAL_PORTS })
	};
}

/**
 * Why a run cannot start from this browser: one sentence for each base URL of `endpoints` (every
 * role's) on a port the browser refuses, saying which ports to use; empty when there is none.
 */
export function blockedPortProblems(endpoints: Readonly<Record<string, RoleEndpoint>>): string[] {
	const urls = new Set(Object.values(endpoints).map((e) => e.baseURL));
	return [...urls].flatMap((url) => {
		const port = blockedPort(url);
		return port === null ? [] : [m.run_problem_port_blocked({ url, port, ports: USUAL_PORTS })];
	});
}
