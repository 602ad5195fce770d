/**
 * How fast `lexpilot --help` starts, against a bare `node -e 0` on the same machine (a ratio,
 * so the machine's speed and load cancel out). Target: at most 4× node's own start. Also shows
 * what running the TypeScript source through tsx costs, which is what the bundle avoids.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildCli, isStale } from '../../scripts/build-cli.js';
import { median } from './measure';
import type { BenchModule } from './types';

const ROOT = resolve(import.meta.dirname, '../..');

/** Milliseconds of each run of `node args`, the commands interleaved so load hits both alike. */
function timeCommands(commands: string[][], iterations: number): number[][] {
	const times = commands.map(() => [] as number[]);
	for (let i = 0; i < iterations + 1; i++) {
		commands.forEach((args, c) => {
			const start = performance.now();
			const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
			if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}`);
			// The first round warms the file cache and is not counted.
			if (i > 0) times[c].push(performance.now() - start);
		});
	}
	return times;
}

export const cliStartupBench: BenchModule = {
	name: 'cli startup',
	async run() {
		if (isStale()) await buildCli();
		const [node, bin] = timeCommands(
			[
				['-e', '0'],
				['bin/lexpilot.js', '--help']
			],
			15
		);
		const [tsx] = timeCommands([['--import', 'tsx', 'src/cli/bin.ts', '--help']], 3);
		const base = median(node);
		return [
			{
				name: 'lexpilot --help / node -e 0 (medians of 15)',
				value: median(bin) / base,
				unit: '×',
				target: 4
			},
			{ name: 'lexpilot --help (median of 15)', value: median(bin), unit: 'ms', target: null },
			{ name: 'node -e 0 (median of 15)', value: base, unit: 'ms', target: null },
			{
				name: 'tsx src/cli/bin.ts --help / node -e 0 (unbundled, median of 3)',
				value: median(tsx) / base,
				unit: '×',
				target: null
			}
		];
	}
};
