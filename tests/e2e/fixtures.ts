/** Dataset files for the browser tests, built by small factories and written to a temp dir. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** A valid case; `overrides` replace or (with undefined) remove fields. */
export function validCase(caseNumber: string | number, overrides: Json = {}): Json {
	const base: Json = {
		case_number: caseNumber,
		cause_of_action: '民间借贷纠纷',
		plaintiff_type: '自然人',
		focal_point: ['借款关系是否成立', '利息约定是否有效'],
		key_details: { 借款金额: '人民币五万元', 借条: '被告亲笔书写，约定年利率6%' },
		result_dict: { 判令被告返还借款本金五万元: '支持', 判令被告支付利息: '部分支持' },
		complete_consultation: [
			{
				role: 'user',
				content: '2022年3月我借给朋友五万元，他写了借条，约定年利率6%，到期一直不还。'
			},
			{ role: 'assistant', content: '请问借条上是否写明了还款日期？' },
			{ role: 'user', content: '写了，2023年3月前还清。' }
		],
		underspecified_consultation: [
			{ role: 'user', content: '朋友借钱不还，我能起诉吗？' },
			{ role: 'assistant', content: '请问借款金额是多少，有没有书面凭证？' },
			{ role: 'user', content: '好几万，具体我再找找。' }
		]
	};
	for (const [key, value] of Object.entries(overrides)) {
		if (value === undefined) delete base[key];
		else base[key] = value;
	}
	return base;
}

/** A planted defect: where the validator must place it. */
export interface PlantedProblem {
	caseIndex: number;
	caseNumber: string;
	/** The field as the report names it. */
	field: string;
	/** 1-based message number, when the defect is in a message. */
	message?: number;
}

/** A file with several problems in different cases and fields, and where each must appear. */
export function malformedDataset(): { cases: Json[]; planted: PlantedProblem[] } {
	const swapped = validCase('2023-002').underspecified_consultation as Json[];
	const cases = [
		validCase('2023-001', { result_dict: { 判令被告返还借款: '全部支持' } }),
		validCase('2023-002', {
			focal_point: undefined,
			underspecified_consultation: [
				swapped[0],
				{ role: 'user', content: '还有一件事。' },
				swapped[2]
			]
		}),
		validCase('2023-003', { cause_of_action: '' }),
		validCase('2023-004', {
			complete_consultation: (validCase('x').complete_consultation as Json[]).slice(0, 1)
		}),
		validCase('2023-005', { key_details: [] })
	];
	const planted: PlantedProblem[] = [
		{ caseIndex: 0, caseNumber: '2023-001', field: 'result_dict' },
		{ caseIndex: 1, caseNumber: '2023-002', field: 'focal_point' },
		{ caseIndex: 1, caseNumber: '2023-002', field: 'underspecified history', message: 2 },
		{ caseIndex: 2, caseNumber: '2023-003', field: 'cause_of_action' },
		{ caseIndex: 3, caseNumber: '2023-004', field: 'histories' },
		{ caseIndex: 4, caseNumber: '2023-005', field: 'key_details' }
	];
	return { cases, planted };
}

/** Markup and script in every text a user sees; none of it may run or render as HTML. */
export const XSS = {
	caseNumber: '<img src=x onerror="window.__xss=\'case_number\'">',
	cause: '<script>window.__xss="cause"</script>',
	content: '<img src=x onerror="window.__xss=\'content\'">咨询内容',
	keyDetail: '<svg onload="window.__xss=\'key_details\'"></svg>',
	claim: '<iframe src="javascript:window.parent.__xss=\'claim\'"></iframe>'
};

export function xssDataset(): Json[] {
	const c = validCase(XSS.caseNumber, {
		cause_of_action: XSS.cause,
		key_details: { 关键事实: XSS.keyDetail },
		result_dict: { [XSS.claim]: '驳回' }
	});
	(c.complete_consultation as Json[])[0] = { role: 'user', content: XSS.content };
	return [c];
}

/** A valid file whose history fields detection cannot name. */
export function ambiguousFieldsDataset(): Json[] {
	return [validCase('M-1'), validCase('M-2')].map((c) => {
		const { complete_consultation, underspecified_consultation, ...rest } = c;
		return { ...rest, history_a: complete_consultation, history_b: underspecified_consultation };
	});
}

/** Writes JSON files into a fresh temp dir; returns their paths by name. */
export async function writeFixtures(
	files: Record<string, unknown>
): Promise<Record<string, string>> {
	const dir = await mkdtemp(join(tmpdir(), 'lexpilot-e2e-data-'));
	const paths: Record<string, string> = {};
	for (const [name, value] of Object.entries(files)) {
		paths[name] = join(dir, name);
		await writeFile(paths[name], JSON.stringify(value, null, 2));
	}
	return paths;
}
