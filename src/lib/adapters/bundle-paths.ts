/**
 * The path rules of a bundle's entries: names that must never become object keys, paths that
 * are unsafe to look at, and the extra top folder of a bundle zipped from its folder.
 */
import { coded, type CoreText } from '../core/said';
import { STAGE_PATHS } from '../core/record-names';

const LAYOUT_TOPS = new Set(['runs', ...Object.values(STAGE_PATHS).map((s) => s.dir)]);

/**
 * Names that must never become keys of an object holding entries: `__proto__` would set the
 * object's prototype (the entry vanishes), the others shadow what every object inherits.
 */
const RESERVED_NAMES = new Set(['prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

/** The reserved segment of a path, or null. */
export function reservedSegment(path: string): string | null {
	return path.split('/').find((part) => RESERVED_NAMES.has(part)) ?? null;
}

/** What is wrong with a path as stored, as a code, or null when it is safe to look at. */
export function unsafePath(path: string): CoreText | null {
	const reserved = reservedSegment(path);
	if (reserved !== null) {
		return coded('path_reserved', { reserved });
	}
	if (path.includes('\\')) {
		return coded('path_backslashes', {});
	}
	if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
		return coded('path_absolute', {});
	}
	if (path.split('/').some((part) => part === '..')) {
		return coded('path_outside', {});
	}
	return null;
}

/**
 * A bundle zipped from its folder has one extra top folder (`out/runs/…`): drop it when every
 * path shares it and it is not itself a folder of the layout.
 */
export function stripCommonTop(paths: string[]): { strip: string; paths: string[] } {
	const tops = new Set(paths.map((p) => p.split('/')[0]));
	if (tops.size !== 1 || paths.some((p) => !p.includes('/'))) return { strip: '', paths };
	const [top] = tops;
	if (LAYOUT_TOPS.has(top)) return { strip: '', paths };
	return { strip: `${top}/`, paths: paths.map((p) => p.slice(top.length + 1)) };
}
