/** `run_id/model_dir`: how selections, series and URLs name a run (`runKeyOf` in view/figures.ts for records' snake_case fields). */
export function keyOf(run: { runId: string; modelDir: string }): string {
	return `${run.runId}/${run.modelDir}`;
}
