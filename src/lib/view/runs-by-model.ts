/** A run with the manifest that names its evaluated model (a stored run, an Inspect run). */
interface ModelRun {
	manifest: { models: { evaluated: string } };
}

/**
 * Runs grouped by evaluated model, as the Results and Inspect run pickers list them: models in
 * the order of their first run, each model's runs in the order given.
 */
export function runsByModel<R extends ModelRun>(runs: readonly R[]): [string, R[]][] {
	const groups = new Map<string, R[]>();
	for (const run of runs) {
		const model = run.manifest.models.evaluated;
		const group = groups.get(model);
		if (group) group.push(run);
		else groups.set(model, [run]);
	}
	return [...groups];
}
