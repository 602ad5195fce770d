/**
 * Constants of the dataset without its schemas (`types.ts`, which re-exports them), for pages
 * that show verdicts or classes and should not load zod on their first visit.
 */

/** The three verdicts a claim can receive, in ordinal order (支持=0, 部分支持=1, 驳回=2). */
export const VERDICTS = ['支持', '部分支持', '驳回'] as const;

/** The class a cause lands in when the category map does not know it. */
export const UNCLASSIFIED = '未分类';
