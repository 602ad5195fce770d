import { describe, expect, it } from 'vitest';
import { EMPTY_QUERY } from './case-table';
import { linkSearch, readLink, type InspectLink } from './inspect-link';

const read = (search: string) => readLink(new URLSearchParams(search));

describe('the Inspect page link', () => {
	it('leaves defaults out: a plain link names the run and the case only', () => {
		const link: InspectLink = { run: 'r1/m-0a1b2c3d', case: 'LP-1', vs: null, query: EMPTY_QUERY };
		expect(linkSearch(link)).toBe('run=r1%2Fm-0a1b2c3d&case=LP-1');
		expect(read(linkSearch(link))).toEqual({ link, problems: [] });
		expect(read('')).toEqual({
			link: { run: null, case: null, vs: null, query: EMPTY_QUERY },
			problems: []
		});
	});

	it('round-trips every filter, the search, the sort and the compared run', () => {
		const link: InspectLink = {
			run: 'r1/m-0a1b2c3d',
			case: '20240317',
			vs: 'r2/other-99aa88bb',
			query: {
				outcomes: { dcg: 'yes', lca_complete: 'no', budget: 'yes' },
				cls: '合同纠纷',
				cause: '民间借贷纠纷',
				search: '借条 & 还款?',
				sort: 'flagged',
				desc: true,
				disagree: true
			}
		};
		const search = linkSearch(link);
		expect(search).toBe(
			'run=r1%2Fm-0a1b2c3d&case=20240317&vs=r2%2Fother-99aa88bb&q=%E5%80%9F%E6%9D%A1+%26+%E8%BF%98%E6%AC%BE%3F' +
				'&class=%E5%90%88%E5%90%8C%E7%BA%A0%E7%BA%B7&cause=%E6%B0%91%E9%97%B4%E5%80%9F%E8%B4%B7%E7%BA%A0%E7%BA%B7' +
				'&lca_complete=no&dcg=yes&budget=yes&disagree=yes&sort=-flagged'
		);
		expect(read(search)).toEqual({ link, problems: [] });
	});

	it('names every value it cannot read, and ignores it', () => {
		const { link, problems } = read('dcg=maybe&sort=-colour&disagree=1&budget=yes&lca_either=');
		expect(problems).toEqual([
			{ param: 'dcg', value: 'maybe' },
			{ param: 'sort', value: '-colour' },
			{ param: 'disagree', value: '1' }
		]);
		expect(link.query).toEqual({ ...EMPTY_QUERY, outcomes: { budget: 'yes' } });
	});

	it('sorts ascending without a minus sign', () => {
		expect(read('sort=cause').link.query).toMatchObject({ sort: 'cause', desc: false });
		expect(read('sort=-case').link.query).toMatchObject({ sort: 'case', desc: true });
		expect(
			linkSearch({ run: null, case: null, vs: null, query: { ...EMPTY_QUERY, desc: true } })
		).toBe('sort=-case');
	});
});
