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
