import { beforeAll, describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { modelDirName, type RunKey } from '$lib/core/layout';
import { STAGE_FILE_NAMES, type RecordsByFile } from '$lib/core/records';
import { MemoryStore } from '$lib/core/store/memory-store';
import { caseView } from './case-view';

const dataset = makeDataset(3);
const kase = dataset.cases[1];
let store: MemoryStore;
let full: RunKey;
let genOnly: RunKey;

beforeAll(async () => {
	store = new MemoryStore();
	await writeRuns(store, dataset, [{ runId: 'full' }, { runId: 'gen-only', stages: ['gen'] }]);
	const modelDir = await modelDirName('sim-model-a');
	full = { runId: 'full', modelDir };
	genOnly = { runId: 'gen-only', modelDir };
});

async function recordsOf(run: RunKey, caseNumber: string): Promise<RecordsByFile> {
	const out: Record<string, unknown[]> = {};
	for (const file of STAGE_FILE_NAMES) {
		out[file] = (await store.readRecords(run, file)).filter((r) => r.case_number === caseNumber);
	}
	return out as unknown as RecordsByFile;
}

/** The view of `kase` in `run`, with its dataset case or without (null). */
async function viewOf(run: RunKey, item: typeof kase | null) {
	return caseView(
		kase.case_number,
		await recordsOf(run, kase.case_number),
		item,
		dataset.categories
	);
}

describe('caseView', () => {
	it('without the dataset, shows the histories saved in the records', async () => {
		const view = await viewOf(full, null);
		expect(view.histories).toEqual({
			complete: kase.complete,
			underspecified: kase.underspecified,
			from: 'records'
		});
		expect(view.cause).toBe(kase.cause_of_action);
		expect(view.cls).toBe('合同纠纷');
		expect(view.missing).toEqual([]);
	});

	it("with the run's dataset, shows its case and hidden facts", async () => {
		const view = await viewOf(full, kase);
		expect(view.histories.from).toBe('dataset');
		expect(view.datasetCase?.key_details).toEqual(kase.key_details);
	});

	it('puts each claim beside its gold verdict and every setup’s prediction', async () => {
		const records = await recordsOf(full, kase.case_number);
		const view = caseView(kase.case_number, records, null, dataset.categories);
		expect(view.ljp.rows.map((r) => [r.claim, r.gold])).toEqual(
			kase.claims.map((c) => [c.claim, c.verdict])
		);
		expect(view.ljp.rows.map((r) => r.predicted.interaction)).toEqual(
			records.LJP_interaction[0].predicted
		);
		expect(view.ljp.rows.map((r) => r.predicted.direct)).toEqual(records.LJP_direct[0].predicted);
		expect(view.ljp.setups).toEqual(['direct', 'gold', 'interaction']);
		expect(view.ljp.responses.map((r) => r.setup)).toEqual(['direct', 'gold']);
	});

	it('pairs each first response with its LCA label', async () => {
		const records = await recordsOf(full, kase.case_number);
		const view = caseView(kase.case_number, records, null, dataset.categories);
		expect(view.firstResponses.map((f) => [f.historyType, f.label])).toEqual(
			(['complete', 'underspecified'] as const).map((t) => [
				t,
				records.LCA_results.find((r) => r.history_type === t)!.label
			])
		);
		expect(view.interaction?.rounds[0].assistant).toBe(
			records.a1.find((r) => r.history_type === 'underspecified')!.response
		);
	});

	it('lists the stages a run has not reached, and takes claims from the dataset then', async () => {
		const view = await viewOf(genOnly, kase);
		expect(view.missing).toEqual([
			'force_ask',
			'DCG_results',
			'LJP_direct',
			'LJP_gold',
			'LJP_interaction'
		]);
		expect(view.ljp.setups).toEqual([]);
		expect(view.ljp.rows.map((r) => r.gold)).toEqual(kase.claims.map((c) => c.verdict));
		expect(view.ljp.rows.every((r) => r.predicted.direct === null)).toBe(true);
	});
});
