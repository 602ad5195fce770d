/**
 * The browser fault matrix: the Run page in Chromium against the fault
 * matrix's fake provider (tests/unit/faults/harness.ts: simulated answers, so an answer depends
 * only on its prompt) while it misbehaves. Every row runs all five stages on the first 2 cases
 * of the sample and must end EITHER with exactly the records of a clean run of the same answers
 * (compared record by record from IndexedDB), OR with a clear stop naming the case that
 * "Start run" with the same run id completes to exactly those records once the provider is back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_OUTPUTS, type StageName } from '../../src/lib/core/protocol';
import { STAGE_FILE_NAMES } from '../../src/lib/core/records';
import {
	callsBetween,
	Endpoint,
	firstAttempts,
	KEY,
	MODELS,
	type Fault
} from '../unit/faults/harness';
import { startBrowser, type E2E } from './browser';
import { go } from './page-support';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	savedManifest,
	storedRows,
	waitForRunStatus
} from './run-support';

const LIMIT = 2;
const CUT_OFF = '根据您提供的情况，我认为';
const isJudge = (req: { model: string }) => req.model === MODELS.judge;

let e: E2E;
let endpoint: Endpoint;
let cases: string[];
let clean: Record<string, string[]>;

/** Each stage file of `runId` in this page's IndexedDB: its records' JSON, in identity order. */
async function recordsOf(page: Page, runId: string): Promise<Record<string, string[]>> {
	const rows = await storedRows<{
		runId: string;
		file: string;
		case_number: string;
		history_type: string;
		json: string;
	}>(page, 'lexpilot-workbench', 'records');
	const out: Record<string, string[]> = {};
	const mine = rows.filter((r) => r.runId === runId);
	// Saved in the order cases finished, which concurrency shuffles; identity order is stable.
	mine.sort((a, b) =>
		`${a.case_number}\u0000${a.history_type}` < `${b.case_number}\u0000${b.history_type}` ? -1 : 1
	);
	for (const r of mine) (out[r.file] ??= []).push(r.json);
	return out;
}

/** The Models page pointed at the fault endpoint with the harness's key and model ids. */
async function useFaultEndpoint(page: Page, retries = 3) {
	await go(page, 'Models', 'Models & settings');
	await page.getByTestId('preset-default').selectOption('custom');
	await page.getByTestId('base-url-default').fill(endpoint.baseURL);
	await page.getByTestId('key-default').fill(KEY);
	await page.getByTestId('model-evaluated').fill(MODELS.evaluated);
	await page.getByTestId('model-user').fill(MODELS.user);
	await page.getByTestId('model-judge').fill(MODELS.judge);
	// Retries change how a run copes, never its records (they are not in input_sha256).
	await page.getByTestId('setting-retries').fill(String(retries));
}

/** Starts a run of every stage on the first cases and waits for `status`. */
async function run(page: Page, runId: string, status: 'done' | 'failed', again = false) {
	if (!again) await fillRunForm(page, { runId, limit: LIMIT });
	await page.getByTestId('start').click();
	// The badge still shows the previous run's status until this run takes over the panel.
	await page
		.locator('#progress-title')
		.filter({ hasText: `· ${runId} /` })
		.waitFor();
	await waitForRunStatus(page, status, 90_000);
}

/**
 * Problems the browser reported, less those a scripted fault causes on purpose: error statuses
 * from the fake provider, and requests to it that failed (a dropped connection, an outage).
 */
function unexpectedProblems(): string[] {
	const base = endpoint.baseURL;
	return e.problems.splice(0).filter((p) => {
		if (p.startsWith('HTTP ') && p.includes(` for ${base}/`)) return false;
		if (p.startsWith(`request failed: ${base}/`)) return false;
		if (
			/Failed to load resource: (the server responded with a status of \d{3}|net::ERR_)/.test(p)
		) {
			return false;
		}
		return true;
	});
}

function expectSameRecords(got: Record<string, string[]>, what: string) {
	for (const file of STAGE_FILE_NAMES) {
		expect(got[file] ?? [], `${what}: ${file}`).toEqual(clean[file]);
	}
}

/** The manifest of a run without what two runs of the same inputs may differ in. */
async function comparableManifest(page: Page, runId: string) {
	const m = structuredClone(await savedManifest(page, runId)) as Record<string, unknown> & {
		settings: Record<string, unknown>;
	};
	delete m.run_id;
	delete m.created_at;
	delete m.settings.retries;
	// Operational (timeout, retries, concurrency) and dated: recorded, never compared.
	delete m.operational_history;
	return m;
}

beforeAll(async () => {
	const sample = await readSample();
	cases = sample.cases.slice(0, LIMIT).map((c) => c.case_number);
	endpoint = await Endpoint.start();
	e = await startBrowser();
	await loadSampleDataset(e.page, e.url);
	await useFaultEndpoint(e.page);
	endpoint.arm(null);
	await run(e.page, 'clean', 'done');
	clean = await recordsOf(e.page, 'clean');
	for (const file of STAGE_FILE_NAMES) {
		expect(clean[file], file).toHaveLength(file === 'a1' || file === 'LCA_results' ? 4 : 2);
	}
	expect(unexpectedProblems()).toEqual([]);
});

afterAll(async () => {
	await e?.close();
	await endpoint?.stop();
});

interface Row {
	fault: string;
	inject: (log: Array<{ at: number; prompt: string; model: string; faulted: boolean }>) => Fault;
	/** What the run page or the provider must show for the row to have really happened. */
	check: (
		log: Array<{ at: number; prompt: string; model: string; faulted: boolean }>,
		page: Page
	) => Promise<void> | void;
}

const RETRY_AFTER_S = 2;

const ROWS: Row[] = [
	{
		fault: `429 storm: the first 6 calls rate-limited with Retry-After ${RETRY_AFTER_S}`,
		inject: () =>
			callsBetween(0, 6, () => ({
				status: 429,
				headers: { 'Retry-After': String(RETRY_AFTER_S) }
			})),
		check: (log) => {
			// The page read Retry-After through CORS: each retry waited what it asked, longer than
			// the backoff it would otherwise use (at most 1 s before the first retry).
			const limited = log.filter((l) => l.faulted);
			expect(limited).toHaveLength(6);
			for (const first of limited) {
				const retry = log.find((l) => !l.faulted && l.prompt === first.prompt && l.at > first.at);
				expect(retry, 'retried').toBeDefined();
				expect(retry!.at - first.at).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
			}
		}
	},
	{
		fault: '5xx burst: 500, 502, 503, 504 for 8 calls, no Retry-After',
		inject: () => callsBetween(0, 8, (i) => ({ status: [500, 502, 503, 504][i % 4] })),
		check: (log) => expect(log.filter((l) => l.faulted)).toHaveLength(8)
	},
	{
		fault: 'malformed judge JSON, valid on the 3rd re-ask',
		inject: () =>
			firstAttempts(
				3,
				(attempt) => ({ content: attempt === 2 ? '```json\n{"label": ' : '我认为属于澄清。' }),
				isJudge
			),
		check: (log) => {
			// Every judge prompt asked exactly 4 times; no other model asked again.
			const asks = new Map<string, number>();
			for (const l of log)
				asks.set(`${l.model}|${l.prompt}`, (asks.get(`${l.model}|${l.prompt}`) ?? 0) + 1);
			for (const [id, n] of asks)
				expect(n, id.slice(0, 40)).toBe(id.startsWith(MODELS.judge) ? 4 : 1);
		}
	},
	{
		fault: 'empty and cut-off outputs (finish_reason "length") for 8 calls',
		inject: () =>
			callsBetween(0, 8, (i) =>
				i % 2 ? { content: ' \n ' } : { content: CUT_OFF, finish_reason: 'length' }
			),
		check: (log) => {
			expect(log.filter((l) => l.faulted)).toHaveLength(8);
			// The cut-off text is never saved or scored.
			expect(JSON.stringify(clean)).not.toContain(CUT_OFF);
		}
	},
	{
		// Chromium resends a request once by itself when a reused connection closes without an
		// answer, so each of these is dropped twice for the page to see the failure.
		fault: 'connection dropped without an answer, mid-run, twice for each of 3 requests',
		inject: () => {
			const dropped = new Set<string>();
			return (req, { attempt, call }) => {
				if (call >= 10 && dropped.size < 3) dropped.add(req.prompt);
				return dropped.has(req.prompt) && attempt <= 2 ? { hangup: true } : undefined;
			};
		},
		check: (log) => expect(log.filter((l) => l.faulted)).toHaveLength(6)
	}
];

describe('browser fault matrix: same records, or a clear stop that a resume completes', () => {
	it.each(ROWS.map((r, i) => [r.fault, i] as const))('%s → same records', async (_name, i) => {
		const row = ROWS[i];
		const { page } = e;
		const log: Array<{ at: number; prompt: string; model: string; faulted: boolean }> = [];
		const fault = row.inject(log);
		endpoint.arm(async (req, at) => {
			const reply = await fault(req, at);
			log.push({
				at: Date.now(),
				prompt: req.prompt,
				model: req.model,
				faulted: reply !== undefined
			});
			return reply;
		});
		await run(page, `fault-${i}`, 'done');
		endpoint.arm(null);
		await row.check(log, page);
		expectSameRecords(await recordsOf(page, `fault-${i}`), row.fault);
		expect(await comparableManifest(page, `fault-${i}`)).toEqual(
			await comparableManifest(page, 'clean')
		);
		expect(unexpectedProblems()).toEqual([]);
	});

	it('outage mid-run: the provider goes away after 25 calls → a stop naming the case; Start again completes', async () => {
		const { page } = e;
		await useFaultEndpoint(page, 1);
		endpoint.arm((_req, { call }) => {
			if (call < 25) return undefined;
			void endpoint.stop();
			return { hangup: true };
		});
		await run(page, 'outage', 'failed');
		await e.screenshot('faults-outage-stop');
		const panel = page.getByTestId('run-error');
		expect(await panel.getAttribute('data-kind')).toBe('unreachable');
		const named = await panel.getByTestId('error-case').innerText();
		expect(cases).toContain(named);
		expect(await panel.innerText()).toContain('Cases finished before the error stay saved');

		// Nothing half-saved: every record kept is a clean-run record, and the stage the error names
		// holds none of the case it names. The stages run together, so every task whose call was in
		// flight when the provider went away failed too: each of their rows says failed.
		const stage = /(gen|dcg|ljp-direct|ljp-gold|ljp-interaction) stopped at case/.exec(
			await panel.innerText()
		)?.[1] as StageName;
		expect(stage).toBeDefined();
		expect(await page.getByTestId(`progress-${stage}`).getAttribute('data-status'), stage).toBe(
			'failed'
		);
		const kept = await recordsOf(page, 'outage');
		for (const [file, lines] of Object.entries(kept)) {
			for (const line of lines) expect(clean[file], file).toContain(line);
		}
		for (const file of STAGE_OUTPUTS[stage]) {
			const savedCases = (kept[file] ?? []).map((l) => String(JSON.parse(l).case_number));
			expect(savedCases, `${file} holds the stopped case`).not.toContain(named);
		}
		// A clean run makes 34 calls: 25 in, cases of some stages are done and saved.
		expect(Object.values(kept).flat().length).toBeGreaterThan(0);

		await endpoint.restart();
		endpoint.arm(null);
		await run(page, 'outage', 'done', true);
		expectSameRecords(await recordsOf(page, 'outage'), 'outage, resumed');
		const progress = await page.getByTestId('progress-table').innerText();
		expect(progress).toMatch(/\(\d+ resumed\)/);
		expect(await comparableManifest(page, 'outage')).toEqual(
			await comparableManifest(page, 'clean')
		);
		await e.screenshot('faults-outage-resumed');
		expect(unexpectedProblems()).toEqual([]);
	});
});
