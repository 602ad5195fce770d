/**
 * A decorator that forwards everything it does not change. Listing a target's methods by hand
 * drops the ones added later (a locked store view without `appendCall` is how browser runs lost
 * their call log); this proxy answers `overrides` first and everything else from the target,
 * methods bound to it, so a class's `#private` fields keep working and a method added to the
 * target later is there too.
 */
export function forwarding<T extends object>(target: T, overrides: Partial<T>): T {
	const own = (prop: PropertyKey) => Object.prototype.hasOwnProperty.call(overrides, prop);
	return new Proxy(target, {
		get(t, prop) {
			if (own(prop)) return (overrides as Record<PropertyKey, unknown>)[prop];
			const value: unknown = Reflect.get(t, prop, t);
			return typeof value === 'function' ? value.bind(t) : value;
		},
		has: (t, prop) => own(prop) || Reflect.has(t, prop)
	});
}
