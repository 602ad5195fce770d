/**
 * Cause-of-action classes. The paper's Appendix D map is not available, so the default is
 * the project's own six classes, following the parts of the 最高人民法院《民事案件案由规定》
 * (2020 revision). CATEGORIES.md next to this file gives the rationale.
 */
import { coded, type CoreText } from '../said';
import { UsageError } from '../errors';
import type { CategoryMap } from './types';
import { UNCLASSIFIED } from './names';
import { decodeUtf8, stripBom, TextDecodeError } from '../text';

/** The six default classes, in the order reports list them. */
export const DEFAULT_CLASSES = [
	'合同纠纷',
	'侵权责任纠纷',
	'婚姻家庭与继承纠纷',
	'劳动与人事争议',
	'物权纠纷',
	'人格权与其他民事纠纷'
] as const;

const CAUSES_BY_CLASS: Record<(typeof DEFAULT_CLASSES)[number], string[]> = {
	// 第四部分 合同、准合同纠纷, plus the contract-shaped disputes of 第八部分 (insurance, bills)
	合同纠纷: [
		'合同纠纷',
		'借款合同纠纷',
		'金融借款合同纠纷',
		'小额借款合同纠纷',
		'民间借贷纠纷',
		'信用卡纠纷',
		'保证合同纠纷',
		'追偿权纠纷',
		'买卖合同纠纷',
		'网络购物合同纠纷',
		'房屋买卖合同纠纷',
		'商品房预售合同纠纷',
		'商品房销售合同纠纷',
		'租赁合同纠纷',
		'房屋租赁合同纠纷',
		'车辆租赁合同纠纷',
		'融资租赁合同纠纷',
		'物业服务合同纠纷',
		'劳务合同纠纷',
		'建设工程施工合同纠纷',
		'装饰装修合同纠纷',
		'承揽合同纠纷',
		'运输合同纠纷',
		'服务合同纠纷',
		'教育培训合同纠纷',
		'旅游合同纠纷',
		'委托合同纠纷',
		'中介合同纠纷',
		'居间合同纠纷',
		'赠与合同纠纷',
		'合伙合同纠纷',
		'债权转让合同纠纷',
		'供用电合同纠纷',
		'储蓄存款合同纠纷',
		'农村土地承包合同纠纷',
		'房屋拆迁安置补偿合同纠纷',
		'股权转让纠纷',
		'不当得利纠纷',
		'无因管理纠纷',
		'保险纠纷',
		'财产保险合同纠纷',
		'人身保险合同纠纷',
		'意外伤害保险合同纠纷',
		'票据追索权纠纷'
	],
	// 第九部分 侵权责任纠纷
	侵权责任纠纷: [
		'侵权责任纠纷',
		'机动车交通事故责任纠纷',
		'非机动车交通事故责任纠纷',
		'提供劳务者受害责任纠纷',
		'提供劳务者致害责任纠纷',
		'义务帮工人受害责任纠纷',
		'用人单位责任纠纷',
		'监护人责任纠纷',
		'医疗损害责任纠纷',
		'产品责任纠纷',
		'饲养动物损害责任纠纷',
		'违反安全保障义务责任纠纷',
		'公共场所管理人责任纠纷',
		'教育机构责任纠纷',
		'物件损害责任纠纷',
		'建筑物、构筑物倒塌、塌陷损害责任纠纷',
		'高空抛物、坠物损害责任纠纷',
		'高度危险责任纠纷',
		'触电人身损害责任纠纷',
		'环境污染责任纠纷',
		'网络侵权责任纠纷'
	],
	// 第二部分 婚姻家庭、继承纠纷
	婚姻家庭与继承纠纷: [
		'婚姻家庭纠纷',
		'离婚纠纷',
		'离婚后财产纠纷',
		'离婚后损害责任纠纷',
		'婚姻无效纠纷',
		'婚约财产纠纷',
		'夫妻财产约定纠纷',
		'同居关系纠纷',
		'同居关系析产纠纷',
		'抚养纠纷',
		'抚养费纠纷',
		'变更抚养关系纠纷',
		'扶养纠纷',
		'扶养费纠纷',
		'赡养纠纷',
		'赡养费纠纷',
		'探望权纠纷',
		'收养关系纠纷',
		'监护权纠纷',
		'分家析产纠纷',
		'继承纠纷',
		'法定继承纠纷',
		'遗嘱继承纠纷',
		'被继承人债务清偿纠纷',
		'遗赠纠纷',
		'遗赠扶养协议纠纷'
	],
	// 第六部分 劳动争议、人事争议
	劳动与人事争议: [
		'劳动争议',
		'劳动合同纠纷',
		'确认劳动关系纠纷',
		'追索劳动报酬纠纷',
		'经济补偿金纠纷',
		'违法解除劳动合同纠纷',
		'竞业限制纠纷',
		'非全日制用工纠纷',
		'劳务派遣合同纠纷',
		'社会保险纠纷',
		'工伤保险待遇纠纷',
		'养老保险待遇纠纷',
		'福利待遇纠纷',
		'人事争议'
	],
	// 第三部分 物权纠纷 (财产损害赔偿纠纷 sits here in the 案由规定, under 物权保护纠纷)
	物权纠纷: [
		'物权纠纷',
		'物权确认纠纷',
		'所有权确认纠纷',
		'返还原物纠纷',
		'排除妨害纠纷',
		'消除危险纠纷',
		'恢复原状纠纷',
		'财产损害赔偿纠纷',
		'相邻关系纠纷',
		'相邻通行纠纷',
		'相邻采光、日照纠纷',
		'相邻用水、排水纠纷',
		'共有纠纷',
		'共有物分割纠纷',
		'建筑物区分所有权纠纷',
		'业主撤销权纠纷',
		'业主知情权纠纷',
		'宅基地使用权纠纷',
		'土地承包经营权纠纷',
		'居住权纠纷',
		'抵押权纠纷',
		'占有物返还纠纷'
	],
	// 第一部分 人格权纠纷, and the parts too rare in consultations for a class of their own
	// (知识产权, company law, 海事海商)
	人格权与其他民事纠纷: [
		'人格权纠纷',
		'生命权、身体权、健康权纠纷',
		'生命权纠纷',
		'身体权纠纷',
		'健康权纠纷',
		'名誉权纠纷',
		'肖像权纠纷',
		'姓名权纠纷',
		'隐私权、个人信息保护纠纷',
		'隐私权纠纷',
		'个人信息保护纠纷',
		'一般人格权纠纷',
		'著作权权属、侵权纠纷',
		'侵害商标权纠纷',
		'股东知情权纠纷',
		'股东出资纠纷',
		'公司决议纠纷'
	]
};

/** The project's default map, cause of action → one of `DEFAULT_CLASSES`. */
export const DEFAULT_CATEGORIES: CategoryMap = Object.freeze(
	Object.fromEntries(
		Object.entries(CAUSES_BY_CLASS).flatMap(([cls, causes]) => causes.map((c) => [c, cls]))
	)
);

/** The class of a cause, or `未分类` when the map does not know it. */
export function classOf(cause: string, map: CategoryMap): string {
	return Object.hasOwn(map, cause) ? map[cause] : UNCLASSIFIED;
}

/**
 * Reads a category map file: a JSON object cause → class, or (also accepted) class → list of
 * causes. Throws `UsageError` listing every problem.
 */
export function parseCategoryMap(input: Uint8Array | string): CategoryMap {
	let text: string;
	try {
		text = typeof input === 'string' ? stripBom(input) : decodeUtf8(input);
	} catch (e) {
		if (!(e instanceof TextDecodeError)) throw e;
		throw new UsageError([coded('category_map_not_text', {}, { detail: [e.said] })]);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (e) {
		throw new UsageError([coded('category_map_not_json', { detail: (e as Error).message })]);
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new UsageError([
			coded('category_map_not_object', { example: '{"民间借贷纠纷": "合同纠纷"}' })
		]);
	}
	const entries = Object.entries(value);
	if (entries.length === 0) {
		throw new UsageError([coded('category_map_empty', {})]);
	}
	const grouped = entries.every(([, v]) => Array.isArray(v));
	const map: CategoryMap = {};
	const problems: CoreText[] = [];
	const add = (cause: unknown, cls: unknown, at: CoreText) => {
		const where = { where: [at] };
		if (typeof cause !== 'string' || cause.trim() === '') {
			problems.push(coded('category_cause_empty', {}, where));
		} else if (typeof cls !== 'string' || cls.trim() === '') {
			problems.push(coded('category_class_empty', {}, where));
		} else if (Object.hasOwn(map, cause) && map[cause] !== cls) {
			problems.push(coded('category_cause_twice', { cause, cls: map[cause] }, where));
		} else map[cause] = cls;
	};
	for (const [key, v] of entries) {
		if (grouped) {
			(v as unknown[]).forEach((cause, i) =>
				add(cause, key, coded('category_where_item', { cls: key, item: i + 1 }))
			);
		} else if (Array.isArray(v)) {
			problems.push(coded('category_mixed', { key }));
		} else add(key, v, coded('category_where_key', { key }));
	}
	if (problems.length) {
		throw new UsageError([coded('category_map_problems', {}, { lines: problems })]);
	}
	return map;
}
