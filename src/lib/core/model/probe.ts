/**
 * After a connection error in the browser: is the server up? A call that the browser blocks for
 * CORS fails in the SDK as `APIConnectionError` ("Connection error."), exactly like a server
 * that is down. A `no-cors` fetch tells them apart: it resolves (with an opaque response) when
 * the server is up, and rejects when nothing answers.
 */
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { endpointKey } from '../names';
import { corsHintSaid, guessProvider } from './providers';

/** Options of {@link probeCors} and {@link testConnection}. */
export interface DiagnoseOptions {
	/** @default globalThis.fetch */
	fetchImpl?: typeof fetch;
	/** The app's origin, quoted in the fix (the UI passes `location.origin`). */
	origin?: string;
	signal?: AbortSignal;
	/** Timeout of each request, in ms. @default 20000 (the probe: 5000) */
	timeoutMs?: number;
	/**
	 * Whether the browser says it is online (the page passes `() => navigator.onLine`; the core
	 * reads no DOM global). False means offline for certain; true may still be offline (a
	 * network without a route out), which the probe's own failure then tells. @default () => true
	 */
	online?: () => boolean;
}

export interface ProbeResult {
	/** `offline`: the browser is offline, nothing was asked; `unreachable`: nothing answered. */
	kind: 'cors' | 'unreachable' | 'offline';
	/** What to do about it. */
	hint: string;
	/** `hint` as a code. */
	hintSaid: CoreText;
}

/**
 * After a connection error: is the server up (then the browser refused it for CORS) or not?
 * Fits `OpenAIClientOptions.probeConnection`.
 */
export async function probeCors(
	baseURL: string,
	options: DiagnoseOptions = {}
): Promise<ProbeResult> {
	if (options.online?.() === false) {
		return probed('offline', coded('conn_offline', { url: baseURL }));
	}
	const fetchImpl = options.fetchImpl ?? globalThis.fetch;
	const signals = [AbortSignal.timeout(options.timeoutMs ?? 5000)];
	if (options.signal) signals.push(options.signal);
	try {
		await fetchImpl(`${endpointKey(baseURL)}/models`, {
			mode: 'no-cors',
			signal: AbortSignal.any(signals)
		});
		return probed('cors', corsHintSaid(guessProvider(baseURL), options.origin));
	} catch {
		return probed('unreachable', coded('unreachable_hint', { url: baseURL }));
	}
}

const probed = (kind: ProbeResult['kind'], hintSaid: CoreText): ProbeResult => ({
	kind,
	hint: english(hintSaid),
	hintSaid
});
