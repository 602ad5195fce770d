/**
 * The core and its adapters say what happened as codes (`src/lib/core/said.ts`); an error they
 * throw with an English sentence is shown in English on a Chinese page. This reads their sources
 * for errors made from a string or template literal. None of the errors a person is shown may be
 * one (a usage, checkpoint, lock, bundle or model-call error): each is coded. A plain `new Error`
 * made from a literal may stay English only where no person can meet it (an assertion of the
 * code's own invariants, or words another error quotes as its cause), each listed below with why.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIRS = ['src/lib/core', 'src/lib/adapters'];

/** An error made from a literal: `new UsageError(\`…`, `new CheckpointError('…`, `new Error('…`. */
const LITERAL_ERROR =
	/new (UsageError|CheckpointError|UpstreamIncompleteError|RunLockedError|BundleError|ModelCallError|Error)\(\s*(\[\s*)?['"`]/g;

/** `new Error` sentences kept in English: where, how the sentence starts, and why no one sees it. */
const KEPT_ENGLISH: { file: string; starts: string; why: string }[] = [
	{
		file: 'src/lib/core/voice.ts',
		starts: 'message: no parameter',
		why: 'a catalogue placeholder without its parameter: a mistake core-english.spec.ts fails on'
	},
	{
		file: 'src/lib/core/voice.ts',
		starts: 'messages/core/en.json: no message',
		why: 'a code without its English: a mistake core-english.spec.ts fails on'
	},
	{
		file: 'src/lib/core/engine/stages/ljp.ts',
		starts: 'ljp-interaction started before',
		why: 'its plan blocks a case whose interaction is not saved (`blocked`) until it is'
	},
	{
		file: 'src/lib/core/engine/seal.ts',
		starts: '${stage} is sealed',
		why: 'a sealed stage has no pending case, so its runCase is never called'
	},
	{
		file: 'src/lib/core/engine/seal.ts',
		starts: 'case #${this.index}: only its number',
		why: 'a sealed stage reads no field of its cases'
	},
	{
		file: 'src/lib/core/batch/custom-id.ts',
		starts: 'no batch code for stage',
		why: 'every stage has its code (STAGE_CODES is typed by stage name)'
	},
	{
		file: 'src/lib/core/batch/client.ts',
		starts: 'a batch call needs its stage',
		why: 'the engine names the stage of every call it sends in batch mode'
	},
	{
		file: 'src/lib/adapters/node-fetch.ts',
		starts: 'the connection closed before the body ended',
		why: "the cause of undici's own `terminated` TypeError it mimics; the CLI alone quotes it"
	},
	{
		file: 'src/lib/adapters/fs-store-write.ts',
		starts: 'ENOSPC: no space left on device',
		why: 'an OS-style ENOSPC error; it is always said as the coded `disk_full` (its code only)'
	},
	{
		file: 'src/lib/core/control/run-plans.ts',
		starts: 'not a valid run plan',
		why: 'the run worker saves only plans it built from a checked request'
	},
	...['src/lib/adapters/workers/batch-run.ts', 'src/lib/adapters/workers/plan-runner.ts'].map(
		(file) => ({
			file,
			starts: 'this store keeps no batch rounds',
			why: "the run worker's store is the IdbStore, which keeps them"
		})
	),
	...['src/lib/adapters/workers/run-controller.ts', 'src/lib/adapters/workers/run-engine.ts'].map(
		(file) => ({
			file,
			starts: 'a run is already active in this page',
			why: 'the Run page offers Start only while no run or plan is active'
		})
	),
	{
		file: 'src/lib/adapters/workers/run-controller.ts',
		starts: 'a batch run needs its client spec',
		why: 'the Run page builds every request with its client spec (`state/run-request.ts`)'
	},
	{
		file: 'src/lib/adapters/workers/run-engine.ts',
		starts: 'the run request carries no client spec',
		why: 'the Run page builds every request with its client spec (`state/run-request.ts`)'
	}
];

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return /\.ts$/.test(name) && !/\.(spec|test)\.ts$/.test(name) ? [path] : [];
	});
}

/** Each literal error of `text`: its constructor call up to the closing parenthesis. */
function literalErrors(text: string): string[] {
	return [...text.matchAll(LITERAL_ERROR)].map((m) => {
		let depth = 0;
		for (let i = m.index + m[0].indexOf('('); i < text.length; i++) {
			if (text[i] === '(') depth++;
			else if (text[i] === ')' && --depth === 0) return text.slice(m.index, i + 1);
		}
		return text.slice(m.index);
	});
}

const found = Object.fromEntries(
	DIRS.flatMap((dir) => sources(join(ROOT, dir))).map((path) => [
		relative(ROOT, path),
		literalErrors(readFileSync(path, 'utf8'))
	])
);

/** The sentence a literal error starts with: what follows its opening quote. */
const sentence = (call: string) => call.replace(/^new \w+\(\s*(\[\s*)?['"`]/, '');

/** The literal errors of `byFile` that are not kept English for a reason listed above. */
function unexplained(byFile: Record<string, string[]>): string[] {
	return Object.entries(byFile).flatMap(([file, calls]) =>
		calls
			.filter(
				(call) =>
					!call.startsWith('new Error(') ||
					!KEPT_ENGLISH.some((k) => k.file === file && sentence(call).startsWith(k.starts))
			)
			.map((call) => `${file}: ${call}`)
	);
}

describe('errors of the core in English', () => {
	it('reads the sources', () => {
		expect(Object.keys(found).length).toBeGreaterThan(100);
		expect(literalErrors('throw new UsageError(`run ${id}: no such run`);')).toHaveLength(1);
		expect(literalErrors("throw new UsageError([coded('opt_no_stage', {})]);")).toEqual([]);
		expect(literalErrors("reject(new Error('it broke'));")).toEqual(["new Error('it broke')"]);
		expect(literalErrors('throw new Error(\n\t`a ${b}`\n);')).toHaveLength(1);
		expect(literalErrors("throw new RangeError('x'); new Error(english(said));")).toEqual([]);
	});

	it('fails on an English error, and passes one kept for its reason', () => {
		const file = 'src/lib/core/voice.ts';
		expect(unexplained({ [file]: ["new CheckpointError('message: no parameter')"] })).toHaveLength(
			1
		);
		expect(unexplained({ [file]: ["new Error('it broke')"] })).toHaveLength(1);
		expect(
			unexplained({ 'src/lib/core/x.ts': ['new Error(`message: no parameter {a}`)'] })
		).toHaveLength(1);
		expect(unexplained({ [file]: ['new Error(`message: no parameter {${name}}`)'] })).toEqual([]);
	});

	it('none carries coded pieces beside its own English', () => {
		const beside = Object.entries(found).flatMap(([file, calls]) =>
			calls.filter((c) => /\bcoded\(|said\b/.test(c)).map((c) => `${file}: ${c}`)
		);
		expect(beside).toEqual([]);
	});

	it('no error a person is shown is an English sentence: each is a coded text', () => {
		expect(
			unexplained(found),
			'throw a coded text (`coded()` in src/lib/core/said.ts) instead'
		).toEqual([]);
	});

	it('keeps English only where it still stands, each with its reason', () => {
		const stale = KEPT_ENGLISH.filter(
			(k) => !(found[k.file] ?? []).some((call) => sentence(call).startsWith(k.starts))
		);
		expect(stale).toEqual([]);
		expect(KEPT_ENGLISH.every((k) => k.why.length > 20)).toBe(true);
	});
});
