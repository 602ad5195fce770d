/** What a call throws or a promise rejects with, for specs that read the error's fields. */
import { expect } from 'vitest';

type ErrorClass<E> = abstract new (...args: never[]) => E;

/** The error `call` throws; the test fails unless it throws a `type`. */
export function thrownBy<E>(call: () => unknown, type: ErrorClass<E>): E {
	let error: unknown = null;
	try {
		call();
	} catch (e) {
		error = e;
	}
	expect(error).toBeInstanceOf(type);
	return error as E;
}

/** What `promise` rejects with; the test fails unless it rejects with a `type`. */
export async function rejectionOf<E>(promise: Promise<unknown>, type: ErrorClass<E>): Promise<E> {
	const error = await promise.then(
		() => null,
		(e: unknown) => e
	);
	expect(error).toBeInstanceOf(type);
	return error as E;
}
