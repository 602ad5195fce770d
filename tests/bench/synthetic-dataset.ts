/**
 * A realistic stand-in for the real benchmark's size: 432 cases / 864 histories, 3–7
 * messages per history, 100–400 characters a message, Chinese text. Deterministic (seeded),
 * so runs compare.
 */

const CAUSES = [
	'民间借贷纠纷',
	'买卖合同纠纷',
	'房屋租赁合同纠纷',
	'物业服务合同纠纷',
	'机动车交通事故责任纠纷',
	'提供劳务者受害责任纠纷',
	'离婚纠纷',
	'法定继承纠纷',
	'追索劳动报酬纠纷',
	'劳动争议',
	'相邻关系纠纷',
	'名誉权纠纷'
];
const PHRASES = [
	'对方一直拖延履行义务，',
	'我们签订了书面合同，',
	'有银行转账记录可以证明，',
	'双方多次协商未果，',
	'我想了解能否通过诉讼解决，',
	'事情发生在去年三月，',
	'当时没有保留书面证据，',
	'对方承认了部分事实，',
	'律师建议先固定证据，',
	'损失大约有五万元，',
	'物业出具了书面意见，',
	'孩子目前随我生活，'
];
const VERDICTS = ['支持', '部分支持', '驳回'];

/** A small seeded PRNG (mulberry32), so the data is the same on every run. */
function rng(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function syntheticDataset(cases = 432, seed = 20240601): unknown[] {
	const random = rng(seed);
	const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
	const text = () => {
		const target = 100 + Math.floor(random() * 301);
		let out = '';
		while (out.length < target) out += pick(PHRASES);
		return out.slice(0, target);
	};
	const history = (length: number) =>
		Array.from({ length }, (_, i) => ({
			role: i % 2 === 0 ? 'user' : 'assistant',
			content: text()
		}));
	return Array.from({ length: cases }, (_, i) => {
		const length = pick([3, 5, 7]);
		const claims = 2 + Math.floor(random() * 3);
		return {
			case_number: i % 10 === 0 ? 2024000 + i : `BENCH-${String(i + 1).padStart(4, '0')}`,
			cause_of_action: CAUSES[i % CAUSES.length],
			plaintiff_type: i % 4 === 0 ? '法人' : '自然人',
			focal_point: i % 3 === 0 ? [text(), text()] : text(),
			key_details: i % 2 === 0 ? [text(), text(), text()] : { 事实一: text(), 事实二: text() },
			result_dict: Object.fromEntries(
				Array.from({ length: claims }, (_, k) => [
					`第${k + 1}项诉讼请求：${text().slice(0, 40)}`,
					pick(VERDICTS)
				])
			),
			complete_consultation: history(length),
			underspecified_consultation: history(length)
		};
	});
}

/** Shape of {@link writeLargeDataset}'s file. */
export interface LargeDatasetOptions {
	cases: number;
	/** Messages per history (odd, so each history ends with the client). @default 1 */
	messages?: number;
	/** Characters per message (Chinese: three bytes each in UTF-8). @default 20 */
	chars?: number;
	/** @default 20240601 */
	seed?: number;
}

/**
 * Writes a large valid dataset (one line per case) to `path` without holding it in memory as
 * one string, and returns its size in bytes: the bench's and the e2e tests' stand-in for a
 * researcher's very large file. Deterministic, like {@link syntheticDataset}.
 */
export async function writeLargeDataset(
	path: string,
	{ cases, messages = 1, chars = 20, seed = 20240601 }: LargeDatasetOptions
): Promise<number> {
	const { open } = await import('node:fs/promises');
	const random = rng(seed);
	const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
	const text = () => {
		let out = '';
		while (out.length < chars) out += pick(PHRASES);
		return out.slice(0, chars);
	};
	const history = () =>
		Array.from({ length: messages }, (_, i) => ({
			role: i % 2 === 0 ? 'user' : 'assistant',
			content: text()
		}));
	const file = await open(path, 'w');
	let size = 0;
	let batch: string[] = [];
	let batchChars = 0;
	const flush = async () => {
		const bytes = Buffer.from(batch.join(''), 'utf8');
		size += bytes.length;
		await file.write(bytes);
		batch = [];
		batchChars = 0;
	};
	try {
		for (let i = 0; i < cases; i++) {
			const line = JSON.stringify({
				case_number: `LARGE-${i + 1}`,
				cause_of_action: CAUSES[i % CAUSES.length],
				plaintiff_type: i % 4 === 0 ? '法人' : '自然人',
				focal_point: pick(PHRASES),
				key_details: [pick(PHRASES)],
				result_dict: { [`第1项诉讼请求：${pick(PHRASES)}`]: pick(VERDICTS) },
				complete_consultation: history(),
				underspecified_consultation: history()
			});
			batch.push(i === 0 ? `[\n${line}` : `,\n${line}`);
			batchChars += line.length;
			if (batchChars > 1 << 20) await flush();
		}
		batch.push('\n]\n');
		await flush();
	} finally {
		await file.close();
	}
	return size;
}
