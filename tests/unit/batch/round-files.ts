/** Files mode's side of the tests: a round's folder in memory, and a cluster answering it. */
import type { LineSink } from '../../../src/lib/core/batch/split';
import type { FakeOpenAI } from '../../fake-openai/server';

/** Files mode's folder in memory: name → lines. */
export function memoryFiles() {
	const files = new Map<string, string[]>();
	const open = async (name: string): Promise<LineSink> => {
		const lines: string[] = [];
		files.set(name, lines);
		return { write: async (l) => void lines.push(l), close: async () => {} };
	};
	return { files, open };
}

/** Plays the cluster: answers every line of the round's input files through the fake server. */
export async function answerRound(server: FakeOpenAI, lines: string[]): Promise<string> {
	const out = await Promise.all(
		lines.map(async (line, i) => {
			const request = JSON.parse(line);
			const res = await fetch(`${server.baseURL}/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(request.body)
			});
			const response = { status_code: res.status, request_id: `q${i}`, body: await res.json() };
			return `${JSON.stringify({ id: `b${i}`, custom_id: request.custom_id, response, error: null })}\n`;
		})
	);
	return out.join('');
}
