/**
 * The fault matrix's test bench: the real CLI (in process through `createProgram`, or as a
 * `bin/lexpilot.js` child process, the bundled CLI) against the fake OpenAI server answering with the
 * simulated provider, writing with FsStore into temp folders. A fault is a function of each
 * request that returns a reply to send instead of the simulated answer, or undefined.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { STAGE_OUTPUTS, type StageName } from '../../../src/lib/core/protocol';
import { modelDirName } from '../../../src/lib/core/layout';
import { STAGE_FILES, type StageFile } from '../../../src/lib/core/records';
import { PAIRED_FILES, recordIdentity } from '../../../src/lib/core/store/identity';
import { type CliResult, runArgs, runCliAsProcess, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type FakeRequest,
	type Reply
} from '../../fake-openai/server';

export const DATASET = resolve('tests/fixtures/engine/three-cases.json');
/**
 * The case_numbers of DATASET as the file holds them, in file order: case #1's is the integer 2,
 * and records and the manifest keep it an integer (PROTOCOL.md §5).
 */
export const CASES: readonly (string | number)[] = ['E-001', 2, 'E-003'];
/** Text found in every evaluated-model and user-model prompt of case E-003 (a traffic accident). */
export const CASE_E003_TEXT = '撞';
/** Every stage, as a researcher runs them: gen, then dcg, then the three LJP setups. */
export const COMMANDS = ['gen', 'dcg', 'ljp'] as const;
export const MODELS = { evaluated: 'eval-model', user: 'user-model', judge: 'judge-model' };
const MODEL_FLAGS = [
	'--model',
	MODELS.evaluated,
	'--user-model',
	MODELS.user,
	'--judge-model',
	MODELS.judge
];
/** Never written anywhere; every run checks that. */
export const KEY = 'sk-faults-5c1d9e7a3b8f2046';

const simulated = byTask(simulatedScript);

/** What a fault knows about the request it may replace. */
export interface FaultCall {
	/** Zero-based count of chat calls since the fault was armed. */
	call: number;
	/** 1-based attempt of this very request (same model and prompt) since the fault was armed. */
	attempt: number;
}

/** A reply to send instead of the simulated answer, or undefined to let that through. */
export type Fault = (
	req: FakeRequest,
	at: FaultCall
) => Reply | undefined | Promise<Reply | undefined>;

/**
 * The fake provider of one row, always on the same port: the port is part of the base URL,
 * which the manifest records, so a run resumed after a restart must find the server there.
 */
export class Endpoint {
	#server: FakeOpenAI | null = null;
	#port: number;
	#fault: Fault | null = null;
	#calls = 0;
	#attempts = new Map<string, number>();
	/** Chat requests answered or faulted while this endpoint ran, across restarts. */
	readonly requests: FakeRequest[] = [];

	private constructor(port: number) {
		this.#port = port;
	}

	/** Starts on `port`, or on a free port when 0. */
	static async start(port = 0): Promise<Endpoint> {
		const endpoint = new Endpoint(port);
		await endpoint.restart();
		return endpoint;
	}

	get port(): number {
		return this.#port;
	}

	get baseURL(): string {
		return `http://127.0.0.1:${this.#port}/v1`;
	}

	get running(): boolean {
		return this.#server !== null;
	}

	async restart(): Promise<void> {
		if (this.#server) return;
		this.#server = await startFakeOpenAI({
			port: this.#port,
			requireKey: KEY,
			knownModels: Object.values(MODELS),
			handler: (req) => this.#answer(req)
		});
		this.#port = Number(new URL(this.#server.url).port);
	}

	/** Stops listening and drops every open connection, as a provider that goes away. */
	async stop(): Promise<void> {
		const server = this.#server;
		this.#server = null;
		await server?.close();
	}

	/** Arms `fault` (null: answer everything normally); call and attempt counts start again. */
	arm(fault: Fault | null): void {
		this.#fault = fault;
		this.#calls = 0;
		this.#attempts.clear();
	}

	async #answer(req: FakeRequest): Promise<Reply> {
		this.requests.push(req);
		const key = `${req.model}\u0000${req.prompt}`;
		const attempt = (this.#attempts.get(key) ?? 0) + 1;
		this.#attempts.set(key, attempt);
		const at = { call: this.#calls++, attempt };
		return (await this.#fault?.(req, at)) ?? simulated(req);
	}
}

/** The simulated answer, sent `ms` late: a call still in flight when a test stops the run. */
export async function lateAnswer(req: FakeRequest, ms: number): Promise<Reply> {
	return { ...(await simulated(req)), delayMs: ms };
}

export type { CliResult };

export interface CliRun {
	command: string;
	root: string;
	endpoint: Endpoint;
	flags?: readonly string[];
	/** Aborted like Ctrl+C aborts the real CLI. */
	signal?: AbortSignal;
}

function cliArgs({ command, root, flags = [] }: CliRun): string[] {
	return runArgs(command, { dataset: DATASET, root }, ...MODEL_FLAGS, ...flags);
}

const cliEnv = (endpoint: Endpoint) => ({ OPENAI_BASE_URL: endpoint.baseURL, OPENAI_API_KEY: KEY });

/** Runs one command through the real handlers, in this process. */
export function runCli(run: CliRun): Promise<CliResult> {
	return runCliInProcess(cliArgs(run), { env: cliEnv(run.endpoint), signal: run.signal });
}

/**
 * Runs one command as `npx lexpilot` does (`bin/lexpilot.js`), in a child process;
 * `onSpawn` gets the child, so a test can send it SIGINT.
 */
export function runCliProcess(
	run: CliRun,
	onSpawn?: (child: ChildProcess) => void
): Promise<CliResult> {
	return runCliAsProcess(cliArgs(run), cliEnv(run.endpoint), onSpawn);
}

/** Every file under `root`, path relative to it with `/` → text. */
export async function filesUnder(root: string): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
	for (const e of entries) {
		if (!e.isFile()) continue;
		const path = join(e.parentPath, e.name);
		out.set(
			path
				.slice(root.length + 1)
				.split('\\')
				.join('/'),
			await readFile(path, 'utf8')
		);
	}
	return out;
}

/** The stage files (everything but `runs/`), sorted by path. */
export async function stageFiles(root: string): Promise<Map<string, string>> {
	const files = [...(await filesUnder(root))].filter(([p]) => !p.startsWith('runs/'));
	return new Map(files.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The run's manifest without what legitimately differs between two runs of the same inputs. */
export async function comparableManifest(root: string): Promise<Record<string, unknown>> {
	const dir = await modelDirName(MODELS.evaluated);
	const manifest = JSON.parse(await readFile(join(root, `runs/r1/${dir}/manifest.json`), 'utf8'));
	// Creation time, and the transport settings a faulty row changes to stay fast (operational:
	// recorded in the manifest, and a rerun may change them).
	delete manifest.created_at;
	delete manifest.settings.timeout_s;
	delete manifest.settings.retries;
	delete manifest.operational_history;
	return manifest;
}

/** Layout path of a stage file of run r1. */
export async function stagePath(file: StageFile): Promise<string> {
	return `${STAGE_FILES[file].dir}/r1/${await modelDirName(MODELS.evaluated)}/${file}.jsonl`;
}

/** How many records a complete file holds per case: a1 and LCA one per history. */
export const perCase = (file: StageFile) => (PAIRED_FILES.has(file) ? 2 : 1);

/**
 * Reads every stage file, checking that it holds only whole lines, each a line of the clean
 * run's same file (nothing half-written, nothing foreign), and no record twice. Returns per
 * file how many records each case_number has, in file order.
 */
export async function savedRecords(
	root: string,
	clean: ReadonlyMap<string, string>
): Promise<Map<StageFile, Map<string | number, number>>> {
	const files = await stageFiles(root);
	const out = new Map<StageFile, Map<string | number, number>>();
	for (const file of Object.keys(STAGE_FILES) as StageFile[]) {
		const path = await stagePath(file);
		const text = files.get(path) ?? '';
		const count = new Map<string | number, number>();
		out.set(file, count);
		if (text === '') continue;
		if (!text.endsWith('\n')) throw new Error(`${path}: the last line is cut off`);
		const cleanLines = new Set((clean.get(path) ?? '').split('\n'));
		const seen = new Set<string>();
		for (const [i, line] of text.slice(0, -1).split('\n').entries()) {
			if (!cleanLines.has(line)) throw new Error(`${path}, line ${i + 1}: not a clean-run record`);
			const record = JSON.parse(line);
			const identity = recordIdentity(file, record);
			if (seen.has(identity)) throw new Error(`${path}, line ${i + 1}: ${identity} saved twice`);
			seen.add(identity);
			count.set(record.case_number, (count.get(record.case_number) ?? 0) + 1);
		}
	}
	return out;
}

/** The files a stage writes, by its name in the CLI's messages. */
export function outputsOf(stage: string): readonly StageFile[] {
	const outputs = STAGE_OUTPUTS[stage as StageName];
	if (!outputs) throw new Error(`unknown stage "${stage}" in a message`);
	return outputs;
}

// Faults: what the provider does instead of answering.

/** `reply(i)` for the calls numbered [from, to) since arming (i counts from 0 within them). */
export function callsBetween(from: number, to: number, reply: (i: number) => Reply): Fault {
	return (_req, { call }) => (call >= from && call < to ? reply(call - from) : undefined);
}

/** `reply` for every call from the `from`-th on. */
export function after(from: number, reply: Reply): Fault {
	return (_req, { call }) => (call >= from ? reply : undefined);
}

/** `reply` for every request whose prompt contains `text`, on every attempt. */
export function about(text: string, reply: Reply): Fault {
	return (req) => (req.prompt.includes(text) ? reply : undefined);
}

/** `reply(attempt)` for the first `attempts` attempts of every request that `which` selects. */
export function firstAttempts(
	attempts: number,
	reply: (attempt: number, call: number) => Reply,
	which: (req: FakeRequest) => boolean = () => true
): Fault {
	return (req, { attempt, call }) =>
		which(req) && attempt <= attempts ? reply(attempt, call) : undefined;
}

/** A run that met no fault: what every row's files are compared with. */
export interface CleanRun {
	/** The endpoint's port, for the rows' endpoints (the manifest records the base URL). */
	port: number;
	/** Stage files, layout path → text. */
	files: Map<string, string>;
	manifest: Record<string, unknown>;
	/** Chat requests the run made. */
	requests: readonly FakeRequest[];
}

/** Runs `commands` in turn into `root` against a fresh endpoint that faults nothing. */
export async function cleanRun(root: string, commands: readonly string[]): Promise<CleanRun> {
	const endpoint = await Endpoint.start();
	try {
		for (const command of commands) {
			const result = await runCli({ command, root, endpoint });
			if (result.code !== 0)
				throw new Error(`clean ${command} exited ${result.code}: ${result.stderr}`);
		}
	} finally {
		await endpoint.stop();
	}
	return {
		port: endpoint.port,
		files: await stageFiles(root),
		manifest: await comparableManifest(root),
		requests: endpoint.requests
	};
}
