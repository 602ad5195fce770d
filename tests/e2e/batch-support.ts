/** What the batch-mode e2e tests share: the run's records and round state as saved, and a cluster. */
import type { Page } from 'playwright-core';
import { storedRows } from './run-support';

export const DB = 'lexpilot-workbench';

/** The run's stage files as saved, its run id made neutral (the one field two runs differ in). */
export async function recordsOf(page: Page, runId: string): Promise<Record<string, string[]>> {
	const rows = await storedRows<{ runId: string; file: string; seq: number; json: string }>(
		page,
		DB,
		'records'
	);
	const out: Record<string, string[]> = {};
	for (const row of rows.filter((r) => r.runId === runId).sort((a, b) => a.seq - b.seq)) {
		(out[row.file] ??= []).push(row.json.replaceAll(`"run_id":"${runId}"`, '"run_id":"R"'));
	}
	return out;
}

/** The run's saved round state, or null. */
export async function batchState(page: Page, runId: string) {
	const rows = await storedRows<{ runId: string; json: string }>(page, DB, 'batch_states');
	const row = rows.find((r) => r.runId === runId);
	return row
		? (JSON.parse(row.json) as {
				rounds: { round: number; status: string; requests: number; chain_ahead?: number }[];
			})
		: null;
}

/** Waits until the Progress card shows round `round` (or a later one) in `status`. */
export async function waitForRound(page: Page, status: string, timeout = 90_000): Promise<number> {
	const handle = await page.waitForFunction(
		(status) => {
			const el = document.querySelector('[data-testid="batch-round-status"]');
			return el?.getAttribute('data-status') === status ? Number(el.getAttribute('data-round')) : 0;
		},
		status,
		{ timeout, polling: 100 }
	);
	return (await handle.jsonValue()) as number;
}

/** Answers input files (one round's, or a plan's joined) as a cluster would: each request through the fake's chat API. */
export async function answerFile(text: string, baseURL: string): Promise<string> {
	const out: string[] = [];
	for (const line of text.split('\n').filter(Boolean)) {
		const request = JSON.parse(line) as { custom_id: string; body: unknown };
		const res = await fetch(`${baseURL}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(request.body)
		});
		const body = (await res.json()) as unknown;
		out.push(
			JSON.stringify({
				id: `vllm-${out.length}`,
				custom_id: request.custom_id,
				response: { status_code: res.status, request_id: null, body },
				error: null
			})
		);
	}
	return out.map((l) => `${l}\n`).join('');
}

/** The run's status once it is `waiting`, `done` or `failed`. */
export async function settledStatus(page: Page, timeout = 90_000): Promise<string> {
	const status = await page.waitForFunction(
		() => {
			const s = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status');
			return s === 'waiting' || s === 'done' || s === 'failed' ? s : null;
		},
		null,
		{ timeout, polling: 100 }
	);
	return (await status.jsonValue()) as string;
}
