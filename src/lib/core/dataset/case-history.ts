/** A case's history read by the PROTOCOL.md §1 rules: alternating user and assistant messages. */
import { type History } from './types';
import { JsonObject, jsonTypeOf, type JsonValue } from './ordered-json';
import { firstLoneSurrogate } from '../text/lone-surrogate';
import { coded } from '../said';
import { type Said } from './case-said';
import { loneSurrogate } from './lone-surrogates';

export function readHistory(
	v: JsonValue,
	fieldName: string,
	bad: (said: Said, messageIndex?: number) => void
): History | null {
	if (!Array.isArray(v)) {
		bad(coded('history_not_list', { name: fieldName, got: jsonTypeOf(v) }));
		return null;
	}
	if (v.length === 0) {
		bad(coded('history_no_messages', {}));
		return null;
	}
	const history: History = [];
	let ok = true;
	let previous: 'user' | 'assistant' | null = null;
	let lastReported = -1;
	const fail = (said: Said, i: number) => {
		bad(said, i);
		ok = false;
		lastReported = i;
	};
	for (let i = 0; i < v.length; i++) {
		const m = v[i];
		// Expected role follows the previous message, so one stray message is one problem,
		// not a problem at every later position.
		const expected =
			i === 0 ? 'user' : previous ? flip(previous) : i % 2 === 0 ? 'user' : 'assistant';
		previous = null;
		if (!(m instanceof JsonObject)) {
			fail(coded('message_not_object', { got: jsonTypeOf(m) }), i);
			continue;
		}
		const role = m.get('role');
		const content = m.get('content');
		if (role === undefined) fail(coded('role_missing', {}), i);
		else if (role !== 'user' && role !== 'assistant') {
			const got = typeof role === 'string' ? `"${role}"` : jsonTypeOf(role);
			fail(coded('role_unknown', { got }), i);
		} else {
			previous = role;
			if (role !== expected) {
				const code = i === 0 ? 'role_order_first' : 'role_order';
				fail(coded(code, { expected, got: role }), i);
			}
		}
		if (content === undefined) fail(coded('content_missing', {}), i);
		else if (typeof content !== 'string') {
			fail(coded('content_not_string', { got: jsonTypeOf(content) }), i);
		} else if (content.trim() === '') fail(coded('content_empty', {}), i);
		else if (firstLoneSurrogate(content) >= 0) {
			fail(loneSurrogate(content, 'content'), i);
		}
		if (ok && (role === 'user' || role === 'assistant') && typeof content === 'string') {
			history.push({ role, content });
		}
	}
	const last = v.length - 1;
	if (previous === 'assistant' && lastReported !== last) {
		fail(coded('history_ends_with_assistant', {}), last);
	}
	return ok ? history.slice() : null;
}

function flip(role: 'user' | 'assistant'): 'user' | 'assistant' {
	return role === 'user' ? 'assistant' : 'user';
}
