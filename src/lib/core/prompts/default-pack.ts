/**
 * The project's own prompt pack. The paper's prompts are not available to us, so these are
 * written for this workbench: plain, careful Chinese for a legal audience, one task each.
 *
 * Design choices a reviewer should know:
 * - Every slot sits directly inside a tag (`<对话历史>…</对话历史>` and so on). `fillTemplate`
 *   neutralises every tag of the template inside the values it inserts (`fences.ts`), so model
 *   or dataset text can neither close its fence and go on as the prompt's own instructions nor
 *   open another; the simulated provider finds each part by the same tags
 *   (`fences.spec.ts` checks both for every template and slot).
 * - `force_judge` serves Direct, Gold and the forced final interaction prediction: it may use
 *   only the facts in the conversation, must state its assumptions, and never says the
 *   consultation is complete.
 * - The three judge prompts end with the exact JSON contract of PROTOCOL.md §3.
 */
import type { PromptPack } from './pack';
import type { TemplateName } from './slots';

const lexawn = `你是一名熟悉中国民事法律的执业律师，正在为当事人提供法律咨询。下面是你与当事人到目前为止的对话。

<对话历史>{history}</对话历史>

请先判断：当事人目前提供的信息，是否足以让你对案件作出有依据的法律分析和结果预测。

- 如果影响结论的关键事实仍不清楚（例如合同约定与履行情况、证据、时间、金额、损害后果、过错、当事人身份等），请不要急于下结论，而是向当事人提出有针对性的澄清问题：只问对结论有实质影响的缺失事实，最多三个问题，并简要说明为什么需要这些信息。
- 如果现有信息已经足够，请直接给出法律分析：说明涉及的法律关系和主要法律依据，分析争议焦点，并对当事人的各项请求能否得到法院支持（支持、部分支持或驳回）作出预测，说明理由和主要风险。

请以律师的身份直接回复当事人，只输出回复内容。`;

const forceAsk = `你是一名熟悉中国民事法律的执业律师，正在为当事人提供法律咨询。下面是你与当事人到目前为止的对话。

<对话历史>{history}</对话历史>

本轮回复中请不要作出法律判断或结果预测，而是向当事人提出澄清问题，以补全处理本案最需要、但对话中尚未说明的事实：

- 问题要具体、当事人能够回答，直接指向影响责任认定或诉讼结果的关键事实（如争议焦点相关事实、证据情况、时间、金额）；
- 不要重复当事人已经说明的内容；
- 最多三个问题，按重要性排序。

请以律师的身份直接向当事人提问，只输出问题。`;

const forceJudge = `你是一名熟悉中国民事法律的执业律师，正在为当事人提供法律咨询。下面是你与当事人到目前为止的对话。

<对话历史>{history}</对话历史>

请仅依据对话中当事人已经提供的事实，对本案作出法律分析和结果预测，要求如下：

1. 不得引入对话中没有出现的事实。对不明确的事实，请写明你在判断时采用的假设，以及该事实不同时结论可能如何变化；不要声称当事人提供的信息已经完整。
2. 说明本案涉及的法律关系和主要法律依据。
3. 对当事人的每一项请求（或依其陈述可能提出的请求）分别预测法院的处理结果——支持、部分支持或驳回——并说明理由。
4. 本次回复不再向当事人提问，请直接给出判断。

请以律师的身份直接回复当事人，只输出回复内容。`;

const userStandard = `请你扮演一位正在向律师咨询的当事人。下面是只有你知道的案件事实，以及你和律师到目前为止的对话。

<案件事实>{key_details}</案件事实>

<对话历史>{history}</对话历史>

律师刚刚对你说：

<律师提问>{question}</律师提问>

请以当事人的身份，用第一人称回答律师。要求：

- 只能依据<案件事实>中的内容回答，不得编造、推测或补充其中没有的事实；
- 只回答律师问到的内容，不要主动说出与提问无关的其他事实；
- 如果<案件事实>没有涉及律师问到的内容，请直接说明“这个我不清楚”或“这方面我没有更多信息”；
- 你不知道法院会怎么判，不要谈论或猜测案件的判决结果；
- 说话自然、口语化，像普通当事人一样，不要使用律师的分析口吻。

只输出你作为当事人的回答。`;

const judgeLca = `你是法律咨询对话的标注员。下面是律师在一次法律咨询中新给出的一条回复，请判断它属于哪一类：

- 澄清：律师认为信息不足，这条回复的主要目的是向当事人提问、要求补充事实或材料，以便之后再作判断；
- 直接判断：律师已经给出法律分析、结论或结果预测（即使附带少量提醒、建议或补充提问，只要已经作出实质判断，也属于直接判断）。

<待分类回复>{response}</待分类回复>

只根据这一条回复本身判断，以它的主要目的为准。请只输出一个 JSON 对象，不要输出其他内容：
{"label": "澄清"} 或 {"label": "直接判断"}`;

const judgeDcg = `你是一名民事法律专家，负责评估律师提出的澄清问题。下面是本案的争议焦点、当事人尚未说明的关键事实，以及律师提出的问题。

<争议焦点>{focal_points}</争议焦点>

<关键事实>{key_details}</关键事实>

<律师提问>{question}</律师提问>

请判断：律师的问题是否针对上述争议焦点或关键事实——也就是说，当事人如实回答后，律师能否获得对判断争议焦点有实质意义的关键事实。泛泛的问题（如“还有其他情况吗”）或与争议焦点无关的问题，都不算。

请只输出一个 JSON 对象，不要输出其他内容：
{"label": "是"} 或 {"label": "否"}`;

const judgeExtract = `你是法律文书分析员。下面按顺序列出了当事人的诉讼请求，以及律师对案件给出的回复。请根据律师的回复，判断律师对每一项诉讼请求预测的处理结果。

<诉讼请求>{claims}</诉讼请求>

<律师回复>{response}</律师回复>

对每一项请求，从以下三个标签中选择一个：

- 支持：律师认为该请求会得到法院全部支持；
- 部分支持：律师认为该请求只能部分得到支持（如金额被调减、只承担部分责任）；
- 驳回：律师认为该请求不会得到支持。

如果回复没有直接提到某项请求，请依据回复的整体分析选择最接近的标签。请只输出一个 JSON 对象，不要输出其他内容。verdicts 数组按诉讼请求的顺序排列，每项请求恰好一个标签，数组长度等于请求数量，例如三项请求时：
{"verdicts": ["支持", "部分支持", "驳回"]}`;

const templates: Record<TemplateName, string> = {
	lexawn,
	force_ask: forceAsk,
	force_judge: forceJudge,
	user_standard: userStandard,
	judge_lca: judgeLca,
	judge_dcg: judgeDcg,
	judge_extract: judgeExtract
};

/** The pack a run uses unless the user imports another one. */
export const DEFAULT_PROMPT_PACK: PromptPack = {
	name: 'lexpilot-workbench-default',
	version: '1',
	templates
};
