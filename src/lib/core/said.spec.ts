import { describe, expect, it } from 'vitest';
import { coded, redactSaid } from './said';
import { english } from './voice';

const KEY = 'sk-canary-7f3a9c-judge-5e7a9c1b3d4f';

describe('redactSaid', () => {
	it('redacts a key in the parameters and in every part, however deep', () => {
		const quote = coded('provider_quote', { detail: `Incorrect API key provided: Bearer ${KEY}` });
		const said = coded(
			'fail_auth',
			{
				case: 'E-001',
				modelRole: 'judge',
				model: `judge ${KEY}`,
				url: 'http://127.0.0.1/v1',
				status: 401
			},
			{ provider: [quote], key: [coded('setting_key_judge', {})] }
		);
		const redacted = redactSaid(said, KEY);
		expect(JSON.stringify(redacted)).not.toContain(KEY.slice(0, 12));
		expect(english([redacted])).toContain('Bearer [key]');
		expect(english([said])).toContain(KEY);
	});
});
