import { describe, expect, it } from 'vitest';
import { userCwd } from './user-cwd';

describe('userCwd', () => {
	it('is INIT_CWD under npm run, which moved the process to the package root', () => {
		const env = { INIT_CWD: '/home/r/data/sub', npm_package_json: '/home/r/lexpilot/package.json' };
		expect(userCwd(env, '/home/r/lexpilot')).toBe('/home/r/data/sub');
	});

	it('is the working directory when npm did not move it (npx, node bin/lexpilot.js)', () => {
		expect(userCwd({}, '/home/r/data')).toBe('/home/r/data');
		// npx keeps the user's folder; its variables then name that folder.
		const npx = { INIT_CWD: '/home/r/data', npm_package_json: '/home/r/data/package.json' };
		expect(userCwd(npx, '/home/r/data')).toBe('/home/r/data');
	});

	it('ignores npm variables a child process inherited from elsewhere', () => {
		const inherited = { INIT_CWD: '/work/pkg', npm_package_json: '/work/pkg/package.json' };
		expect(userCwd(inherited, '/tmp/test-run')).toBe('/tmp/test-run');
		expect(userCwd({ INIT_CWD: 'relative', npm_package_json: '/p/package.json' }, '/p')).toBe('/p');
	});
});
