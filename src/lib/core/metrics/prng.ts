/**
 * A small seeded PRNG so bootstrap intervals reproduce exactly, in Node and in a browser
 * worker alike (`Math.random` cannot be seeded). xoshiro128** (Blackman & Vigna), seeded
 * through splitmix32; plenty for resampling, not for cryptography.
 */

/** The seed `results` uses unless `--seed` says otherwise. */
export const DEFAULT_SEED = 2411;

const TWO_POW_32 = 4294967296;

/** splitmix32 step: spreads a 32-bit state into a well-mixed 32-bit output. */
function splitmix32(state: number): [next: number, out: number] {
	const next = (state + 0x9e3779b9) | 0;
	let z = next;
	z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
	z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
	return [next, (z ^ (z >>> 16)) >>> 0];
}

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
export function hashString(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/**
 * The seed of one resampling scope (the whole run, or one class): a class's interval then
 * depends only on the seed and that class's cases, not on which other classes exist.
 */
export function scopeSeed(seed: number, scope: string): number {
	return (Math.imul(seed >>> 0, 0x9e3779b1) ^ hashString(scope)) >>> 0;
}

/** xoshiro128**: four 32-bit words of state, period 2^128 − 1. */
export class Prng {
	#s0: number;
	#s1: number;
	#s2: number;
	#s3: number;

	/** @param seed any integer; taken modulo 2^32. */
	constructor(seed: number) {
		let state = seed | 0;
		const words: number[] = [];
		for (let i = 0; i < 4; i++) {
			const [next, out] = splitmix32(state);
			state = next;
			words.push(out);
		}
		// An all-zero state would stay zero; splitmix32 cannot give four zeros, but be safe.
		this.#s0 = words.every((w) => w === 0) ? 1 : words[0];
		[, this.#s1, this.#s2, this.#s3] = words;
	}

	/** The next unsigned 32-bit integer. */
	nextUint32(): number {
		const result = Math.imul(rotl(Math.imul(this.#s1, 5), 7), 9) >>> 0;
		const t = this.#s1 << 9;
		this.#s2 ^= this.#s0;
		this.#s3 ^= this.#s1;
		this.#s1 ^= this.#s2;
		this.#s0 ^= this.#s3;
		this.#s2 ^= t;
		this.#s3 = rotl(this.#s3, 11);
		return result;
	}

	/**
	 * A uniform integer in [0, n) for 1 ≤ n ≤ 2^21, by scaling one 32-bit draw. The bias is
	 * below n / 2^32 (under 1e-7 for 432 cases), far under the Monte Carlo error of a bootstrap.
	 */
	below(n: number): number {
		return Math.floor((this.nextUint32() * n) / TWO_POW_32);
	}
}

function rotl(x: number, k: number): number {
	return (x << k) | (x >>> (32 - k));
}
