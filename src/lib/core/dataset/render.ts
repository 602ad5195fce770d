/** Text forms of dataset fields for prompts and screens (PROTOCOL.md §2). */
import { neutraliseTurnMarkers } from '../prompts/turn-markers';
import type { History, KeyDetails } from './types';

/**
 * A history as prompt text: `User: <content>` / `Assistant: <content>` lines, every message
 * in order, joined by '\n'. Content is kept verbatim, line breaks included, except that a line of
 * it that would start a turn of its own is marked as quoted (`neutraliseTurnMarkers`).
 */
export function renderHistory(history: History): string {
	return history
		.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${neutraliseTurnMarkers(m.content)}`)
		.join('\n');
}

/**
 * Every hidden fact of `key_details` as text: a string as is, a list numbered `1. …` one per
 * line, an object as `key：value` lines (full-width colon, as the Chinese prompts read).
 * Nested values are flattened (lists joined with '；', objects as `key：value；…`) so no
 * entry is ever dropped.
 */
export function keyDetailsText(kd: KeyDetails): string {
	if (typeof kd === 'string') return kd;
	if (Array.isArray(kd)) return numbered(kd);
	return Object.entries(kd)
		.map(([k, v]) => `${k}：${inlineValue(v)}`)
		.join('\n');
}

/** Focal points: one alone as is, several numbered `1. …` one per line. */
export function focalPointsText(points: readonly string[]): string {
	return points.length === 1 ? points[0] : numbered(points);
}

function numbered(items: readonly string[]): string {
	return items.map((item, i) => `${i + 1}. ${item}`).join('\n');
}

function inlineValue(v: unknown): string {
	if (v === null || v === undefined) return '';
	if (Array.isArray(v)) return v.map(inlineValue).join('；');
	if (typeof v === 'object') {
		return Object.entries(v as Record<string, unknown>)
			.map(([k, x]) => `${k}：${inlineValue(x)}`)
			.join('；');
	}
	return String(v);
}
