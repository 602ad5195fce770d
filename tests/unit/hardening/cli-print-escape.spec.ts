/**
 * A lint of the CLI's sources (a heuristic, not a proof): every `${…}` of a template in
 * `src/cli/` whose expression names something a dataset, a record, a provider or the user
 * typed (a case number, a model, a cause, a label, a path, a message…) goes through
 * `escapeControl` or `escapeStrings` (`src/lib/core/text/escape-control.ts`), or is listed
 * below with the reason it needs no escaping. A new print line that quotes such a value raw
 * fails here before it can print a forged line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = 'src/cli';
/** Names that usually hold text from outside: a file, a record, a provider, the command line. */
const HOSTILE =
	/\b(caseNumber|case_number|model|models|cause|reason|runId|label|message|root|outputRoot|raw|endpoint|path|text|name|problem)\b/;
const ESCAPED = /^\s*escape(Control|Strings)\(/;

/** `file: expression` pairs that print as they are, each with why. */
const ALLOWED: Record<string, string> = {
	'args.ts: name': 'a flag name of GENERATION_OPTIONS (ours)',
	'args.ts: unportableText(runIdRule, runId)':
		'a run id that passed RUN_ID_PATTERN (the safe alphabet)',
	'args.ts: checked.problem':
		'a base-URL problem of core/model/base-url.ts, which quotes the URL escaped',
	'commands/stage.ts: name': 'a command name of this file (ours)',
	'commands/rejudge.ts: checked.problem':
		'a base-URL problem of core/model/base-url.ts, which quotes the URL escaped',
	'plan/plan-args.ts: checked.problem':
		'a base-URL problem of core/model/base-url.ts, which quotes the URL escaped',
	'batch/plan-batch-cli.ts: row.label':
		"a run's id and model, each put through escapeControl where runLabel builds it",
	'batch/plan-batch-summary.ts: row.label':
		"a run's id and model, each put through escapeControl where runLabel builds it",
	'batch/plan-batch-summary.ts: name':
		"two spaces and a run's label, escaped where runLabel builds it",
	'plan/plan-command.ts: name':
		"a run's id and model, each put through escapeControl where it is built",
	'commands/prompt-pack-file.ts: (e as Error).message':
		"parsePromptPack's problem list: multi-line by design, its quoted values escaped where written",
	'commands/run.ts: e.message': 'a UsageError of args.ts, already escaped there',
	'commands/validate.ts: formatInvalidDataset(choice.label, result)':
		'escapes its label and fields itself (dataset-file.ts)',
	'dataset-file.ts: p.text': 'a dataset problem, escaped whole by the core (dataset/problems.ts)',
	'dataset-file.ts: e.message':
		"a UsageError of parseCategoryMap, which quotes the file's values escaped",
	'program.ts: name.padEnd(16)': 'a command name of the handler table (ours)',
	'program.ts: e.message':
		'a core error: multi-line by design (its hint), every quoted value escaped where it is written',
	'program.ts: e instanceof Error ? e.message : String(e)': 'as above, for any other error'
};

function* sources(dir: string): Generator<string> {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) yield* sources(path);
		else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) yield path;
	}
}

/** The `${…}` expressions of `text` (one level of nested braces), with their line numbers. */
function interpolations(text: string): { line: number; expression: string }[] {
	return text.split('\n').flatMap((line, i) =>
		[...line.matchAll(/\$\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/g)].map((m) => ({
			line: i + 1,
			expression: m[1].trim()
		}))
	);
}

describe('the CLI quotes outside text only through escapeControl', () => {
	it('flags a raw interpolation of a hostile-looking name (the check can fail)', () => {
		const raw = interpolations('io.stderr(`retry: case ${event.caseNumber}`)');
		expect(raw.filter((x) => HOSTILE.test(x.expression) && !ESCAPED.test(x.expression))).toEqual([
			{ line: 1, expression: 'event.caseNumber' }
		]);
		expect(interpolations('`case ${escapeControl(event.caseNumber)}`')[0].expression).toMatch(
			ESCAPED
		);
	});

	it('every print path of src/cli escapes such values, or is listed with its reason', () => {
		const unescaped: string[] = [];
		const used = new Set<string>();
		for (const file of sources(ROOT)) {
			const name = relative(ROOT, file).split('\\').join('/');
			for (const { line, expression } of interpolations(readFileSync(file, 'utf8'))) {
				if (!HOSTILE.test(expression) || ESCAPED.test(expression)) continue;
				const key = `${name}: ${expression}`;
				if (key in ALLOWED) used.add(key);
				else unescaped.push(`${name}:${line}: \${${expression}}`);
			}
		}
		expect(unescaped).toEqual([]);
		// A listed exception that no longer occurs is dropped from the list.
		expect(Object.keys(ALLOWED).filter((k) => !used.has(k))).toEqual([]);
	});
});
