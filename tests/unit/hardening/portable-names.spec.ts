/**
 * Names of the layout that Windows cannot create (`CON`, `nul.txt`, `COM1`, `LPT9`, in any
 * case and with any extension) or that end in a dot, and model folders that would start with a
 * dot (a model `..` once made `..-5ec1f7e7`): the CLI refuses such a run id before anything is
 * written, a model folder never gets such a name, and a bundle holding one is refused by name.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleError, readBundle } from '../../../src/lib/adapters/zip-bundle';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { writeRuns } from '../../fixtures/bundles/runs';
import { makeDataset } from '../../fixtures/engine/cases';
import { DATASET } from '../faults/harness';

async function refusal(promise: Promise<unknown>): Promise<BundleError> {
	const error = await promise.then(
		() => null,
		(e: unknown) => e
	);
	expect(error).toBeInstanceOf(BundleError);
	return error as BundleError;
}

describe('the CLI refuses unportable run ids', () => {
	it.each([
		['CON', 'is a device name Windows reserves'],
		['nul.txt', 'is a device name Windows reserves'],
		['aux', 'is a device name Windows reserves'],
		['Com1', 'is a device name Windows reserves'],
		['LPT9', 'is a device name Windows reserves'],
		['run1.', 'ends in a dot or a space']
	])('--run-id %s: exit 2 naming the rule, nothing written', async (runId, rule) => {
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-names-'));
		const r = await runCliInProcess(
			runArgs('gen', { dataset: DATASET, root, runId, simulated: true })
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(
			`error: --run-id: "${runId}" ${rule}` +
				(rule.startsWith('is')
					? ' (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9, in any case and with any extension), so no folder can have it there'
					: ', which Windows drops, making it another name') +
				'; choose another run id (an output root or a bundle holding it could not be unpacked on Windows)\n'
		);
		expect(await readdir(root)).toEqual([]);
	});

	it('a model ".." gets the folder _..-5ec1f7e7, never a hidden one', async () => {
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-names-'));
		const r = await runCliInProcess(
			runArgs('gen', { dataset: DATASET, root, simulated: true }, '--model', '..', '--limit', '1')
		);
		expect(r.code, r.stderr).toBe(0);
		expect(await readdir(join(root, 'runs', 'r1'))).toEqual(['_..-5ec1f7e7']);
		const results = await runCliInProcess(['results', '--output-root', root, '--model', '..']);
		expect(results.code, results.stderr).toBe(0);
	});
});

describe('a bundle naming an unportable folder is refused by name', () => {
	it('a run id CON, and a legacy model folder ..-5ec1f7e7', async () => {
		const store = new MemoryStore();
		// Such runs exist from before the rule, which the engine now applies too: one is made here
		// under another id and renamed, its manifest included.
		await writeRuns(store, makeDataset(2), [
			{ runId: 'legacy1', stages: ['gen'] },
			{ runId: 'ok1', stages: ['gen'] }
		]);
		const files = [...store.toFiles()].map(([path, text]): [string, Uint8Array] => [
			path.replace('/ok1/sim-model-a-', '/ok1/..-').replace(/^runs\/legacy1\//, 'runs/CON/'),
			new TextEncoder().encode(text.replaceAll('"legacy1"', '"CON"'))
		]);
		const error = await refusal(
			readBundle(
				files.map(([path, bytes]) => ({ path, bytes })),
				'names.zip'
			)
		);
		expect(error.problems).toContain(
			'runs/CON/' +
				files.find(([p]) => p.startsWith('runs/CON/'))![0].split('/')[2] +
				'/manifest.json: "CON" is a device name Windows reserves (CON, PRN, AUX, NUL, COM0-COM9, ' +
				'LPT0-LPT9, in any case and with any extension), so no folder can have it there; such a bundle is refused.'
		);
		const hidden = files.find(([p]) => p.startsWith('runs/ok1/'))![0];
		expect(error.problems).toContain(
			`${hidden}: "${hidden.split('/')[2]}" starts with a dot, which hides the folder; such a bundle is refused.`
		);
		expect(error.problemsSaid.map((s) => s?.code)).toEqual(
			expect.arrayContaining(['bundle_name_reserved', 'bundle_name_leading_dot'])
		);
	});
});
