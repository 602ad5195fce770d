/**
 * The stage table against the stage code: each stage is run with the simulated provider on one
 * case, and what it wrote (files, order, records per case), the calls it made and the files it
 * needs are compared with its row. A row that drifts from its stage fails here.
 */
import { describe, expect, it } from 'vitest';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import { runAll } from '../engine/run-all';
import { runStages } from '../engine/run-stages';
import type { ChatRequest, ModelClient } from '../model/types';
import { ROLES, STAGE_FILE_NAMES, STAGE_PATHS, type Role, type StageFile } from '../record-names';
import { createSimulatedClient } from '../simulated';
import { MemoryStore } from '../store/memory-store';
import { DECISION_KINDS, EVAL_FILES } from './decisions';
import { RUN_ALL_STAGES, STAGE_ALIASES, STAGES, stageRow, type StageName } from './stages';

const COMMON = {
	dataset: makeDataset(1),
	runId: 'r',
	models: { evaluated: 'm', user: 'u', judge: 'j' },
	endpoints: { evaluated: 'http://e/v1', user: 'http://e/v1', judge: 'http://e/v1' }
};

/**
 * The simulated provider, with every LCA label `asks` (a clarification: gen's interaction runs to
 * its forced answer) or not (a judgment: it stops at once); calls counted by role.
 */
function client(asks: boolean) {
	const inner = createSimulatedClient();
	const calls: Record<Role, number> = { evaluated: 0, user: 0, judge: 0 };
	const model: ModelClient = {
		simulated: true,
		async complete(request: ChatRequest) {
			calls[request.role]++;
			const result = await inner.complete(request);
			if (request.task !== 'judge_lca') return result;
			return { ...result, response: JSON.stringify({ label: asks ? '澄清' : '直接判断' }) };
		}
	};
	return { model, calls };
}

/** A store holding only `files` of a run of `stage`'s upstream (what the stage may read). */
async function upstreamStore(stage: StageName): Promise<MemoryStore> {
	const store = new MemoryStore();
	const upstream = stageRow(stage).upstream as StageName | null;
	if (upstream === null) return store;
	const full = new MemoryStore();
	await runStages({ ...COMMON, client: client(true).model, store: full, stages: [upstream] });
	const [run] = await full.listRuns();
	await store.createManifest((await full.readManifest(run))!);
	for (const file of stageRow(stage).reads) {
		for (const record of await full.readRecords(run, file)) {
			await store.appendRecord(run, file, record);
		}
	}
	return store;
}

/** Runs `stage` alone on one case: the files it appended, in order, and the calls by role. */
async function runOne(stage: StageName, asks: boolean) {
	const store = await upstreamStore(stage);
	const appended: StageFile[] = [];
	const append = store.appendRecord.bind(store);
	store.appendRecord = (run, file, record) => (appended.push(file), append(run, file, record));
	const { model, calls } = client(asks);
	await runStages({ ...COMMON, client: model, store, stages: [stage] });
	const [run] = await store.listRuns();
	const judged = await store.readRecords(run, stageRow(stage).evalFile);
	return { appended, calls, judged };
}

describe.each(STAGES.map((s) => [s.name, s] as const))('stage %s', (name, row) => {
	it('writes its files in the order of its row, with the records per case of each file', async () => {
		const { appended, judged } = await runOne(name, true);
		expect([...new Set(appended)]).toEqual(row.writes);
		for (const file of row.writes) {
			expect(appended.filter((f) => f === file)).toHaveLength(STAGE_PATHS[file].perCase);
		}
		// Its judge file holds verdicts exactly when `ljp` names it and it has an LJP setup.
		const verdicts = judged.every((r) => 'predicted' in r);
		expect([judged.length > 0, verdicts]).toEqual([true, STAGE_ALIASES.ljp.includes(name)]);
		expect(row.ljpSetup !== null).toBe(verdicts);
	});

	it('makes the calls per case of its row at both bounds', async () => {
		for (const [asks, bound] of [
			[true, 'max'],
			[false, 'min']
		] as const) {
			const { calls } = await runOne(name, asks);
			for (const role of ROLES) expect([role, calls[role]]).toEqual([role, row.calls[role][bound]]);
		}
	});
});

const READING = STAGES.filter((s) => s.reads.length > 0).map((s) => [s.name, s] as const);
describe.each(READING)('stage %s, which reads its upstream', (name, row) => {
	it('refuses to run without the files its row says it reads, which its upstream writes', async () => {
		const { model } = client(true);
		const stages = [name];
		await expect(
			runStages({ ...COMMON, client: model, store: new MemoryStore(), stages })
		).rejects.toThrow();
		expect(stageRow(row.upstream as StageName).writes).toEqual(
			expect.arrayContaining([...row.reads])
		);
	});
});

describe('the stage table', () => {
	it('gives runAll, with no stage named, exactly the files of its default stages', async () => {
		const store = new MemoryStore();
		await runAll({ ...COMMON, client: client(true).model, store });
		const [run] = await store.listRuns();
		const written: StageFile[] = [];
		for (const file of STAGE_FILE_NAMES) {
			if ((await store.readRecords(run, file)).length > 0) written.push(file);
		}
		const expected = new Set(RUN_ALL_STAGES.flatMap((s) => stageRow(s).writes));
		expect(written).toEqual(STAGE_FILE_NAMES.filter((f) => expected.has(f)));
	});

	it('holds each judged decision kind in its own eval_results file', () => {
		expect(new Set(DECISION_KINDS.map((k) => k.file)).size).toBe(DECISION_KINDS.length);
		for (const file of EVAL_FILES) expect(STAGE_PATHS[file].dir).toBe('eval_results');
	});
});
