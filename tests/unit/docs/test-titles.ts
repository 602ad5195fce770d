/**
 * The full names of the tests a file declares, read from its source without running it: what
 * `vitest list` prints (describe names joined by " > "), in a few milliseconds instead of a
 * collection that imports every module the file does.
 *
 * The file is parsed with the TypeScript parser and walked as vitest collects it: `describe`,
 * `it` and `test` imported from vitest, with their modifiers (`skip`, `only`, `skipIf(…)`, …),
 * nested describe blocks, `for … of` loops, and `.each`/`.for` tables whose titles are filled in
 * by vitest's own formatter. Titles and tables are evaluated when they are built from literals,
 * constants (of this file or a relative import), and pure operations on them (`map`, template
 * literals, `toLocaleString`, …). What cannot be read that way is not guessed: such a test is
 * kept as a pattern (its known text, and runs of unknown text), with its line, and so is a test
 * under a loop or condition over unknown values (it may be there or not) or declared where the
 * walk does not go (inside a function: a test of any name). `@vitest/utils` is vitest's own.
 */
import { format, formatRegExp, objDisplay } from '@vitest/utils/display';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** A run of known text, or `null` for text known only when the file runs. */
export type Part = string | null;

/** A test whose full name is known only in part, or which may not exist at all. */
export interface MaybeTest {
	/** Its name: known runs of text and unknown ones. */
	parts: Part[];
	/** 1-based line of its declaration. */
	line: number;
}

/** What a file's source says about its tests. */
export interface FileTests {
	/** Full names of the tests read, in source order. */
	names: string[];
	/**
	 * Tests read only in part: a title or table built from what the file computes when it runs
	 * (a file it reads, a function it calls), or a test under a loop or condition of such values.
	 */
	maybe: MaybeTest[];
}

/** A string known only in part (a template literal with unknown spans). */
class Pattern {
	readonly parts: Part[];
	constructor(parts: Part[]) {
		this.parts = joinParts(parts);
	}
}

/** Adjacent known runs joined, adjacent unknown ones merged, empty runs dropped. */
export function joinParts(parts: Part[]): Part[] {
	const out: Part[] = [];
	for (const p of parts) {
		const last = out.length - 1;
		if (p === '') continue;
		if (p === null && out[last] === null) continue;
		if (p !== null && typeof out[last] === 'string') out[last] += p;
		else out.push(p);
	}
	return out;
}

/** A string's parts, a pattern's, or one unknown run for anything else. */
function partsOf(value: unknown): Part[] {
	if (typeof value === 'string') return [value];
	if (value instanceof Pattern) return value.parts;
	return [null];
}

/** Thrown where a value cannot be known without running the file. */
class Unknown extends Error {
	constructor(readonly node: ts.Node) {
		super('unknown');
	}
}

/** Stands in an array or object for an element that could not be evaluated. */
class Hole {
	constructor(readonly node: ts.Node) {}
}

/** A function of the file, callable by the evaluator. */
type Interpreted = ((...args: unknown[]) => unknown) & { interpreted: true };

/** Where names are looked up: lazily evaluated bindings, then the enclosing scope. */
class Scope {
	readonly #bindings = new Map<string, () => unknown>();
	constructor(readonly parent: Scope | null) {}
	define(name: string, get: () => unknown): void {
		let done = false;
		let value: unknown;
		this.#bindings.set(name, () => {
			if (!done) {
				value = get();
				done = true;
			}
			return value;
		});
	}
	lookup(name: string, node: ts.Node): unknown {
		const get = this.#bindings.get(name);
		if (get) return get();
		if (this.parent) return this.parent.lookup(name, node);
		throw new Unknown(node);
	}
	/** Whether this scope itself (not an enclosing one) binds `name`. */
	holds(name: string): boolean {
		return this.#bindings.has(name);
	}
	has(name: string): boolean {
		return this.#bindings.has(name) || (this.parent?.has(name) ?? false);
	}
}

/** Methods that read their receiver's elements without looking into them. */
const STRUCTURAL = new Set([
	'map',
	'flatMap',
	'filter',
	'forEach',
	'find',
	'findIndex',
	'some',
	'every',
	'slice',
	'concat',
	'at',
	'flat',
	'toReversed',
	'entries',
	'keys',
	'values'
]);
/** Pure methods of strings, numbers and arrays whose arguments and receiver must be known. */
const PURE = new Set([
	'join',
	'includes',
	'indexOf',
	'lastIndexOf',
	'toUpperCase',
	'toLowerCase',
	'trim',
	'trimStart',
	'trimEnd',
	'padStart',
	'padEnd',
	'repeat',
	'replace',
	'replaceAll',
	'split',
	'startsWith',
	'endsWith',
	'charAt',
	'codePointAt',
	'charCodeAt',
	'substring',
	'normalize',
	'toFixed',
	'toPrecision',
	'toLocaleString',
	'toString',
	'toSorted'
]);
/** Callbacks whose answer is tested for truth: a hole there is unknown. */
const PREDICATES = new Set(['filter', 'find', 'findIndex', 'some', 'every']);

const GLOBALS: Record<string, unknown> = {
	undefined,
	Infinity,
	NaN,
	String,
	Number,
	Boolean,
	Math,
	JSON,
	Object: { keys: Object.keys, values: Object.values, entries: Object.entries },
	Array: { from: Array.from, isArray: Array.isArray }
};
/** Static members of Number that are data or pure functions. */
const NUMBER_STATICS = new Set([
	'NaN',
	'EPSILON',
	'MAX_SAFE_INTEGER',
	'MIN_SAFE_INTEGER',
	'MAX_VALUE',
	'MIN_VALUE',
	'POSITIVE_INFINITY',
	'NEGATIVE_INFINITY',
	'isInteger',
	'isFinite',
	'isNaN',
	'isSafeInteger',
	'parseFloat',
	'parseInt'
]);
const PURE_GLOBALS = new Set<unknown>([
	String,
	Number,
	Boolean,
	JSON.stringify,
	Number.isInteger,
	Number.isFinite,
	Number.isNaN,
	Number.isSafeInteger,
	Number.parseFloat,
	Number.parseInt,
	...Object.getOwnPropertyNames(Math).map((k) => (Math as unknown as Record<string, unknown>)[k])
]);

/** Whether `value` holds a hole or a function anywhere (vitest would print those differently). */
function opaque(value: unknown, seen = new Set<unknown>()): boolean {
	if (value instanceof Hole || value instanceof Pattern || typeof value === 'function') return true;
	if (value === null || typeof value !== 'object' || seen.has(value)) return false;
	seen.add(value);
	return Object.values(value).some((v) => opaque(v, seen));
}

function known(value: unknown, node: ts.Node): unknown {
	if (opaque(value)) throw new Unknown(node);
	return value;
}

function notHole(value: unknown, node: ts.Node): unknown {
	if (value instanceof Hole) throw new Unknown(node);
	return value;
}

/** One module's evaluator: its top-level scope and how to reach its imports. */
class Module {
	readonly scope = new Scope(null);
	/** Local names imported from 'vitest', by the name vitest exports them under. */
	readonly vitest = new Map<string, string>();
	readonly #exports = new Map<string, () => unknown>();
	readonly #stars: string[] = [];

	constructor(
		readonly path: string,
		readonly source: ts.SourceFile,
		readonly modules: Modules
	) {
		for (const statement of source.statements) this.#declare(statement);
	}

	exported(name: string, node: ts.Node): unknown {
		const get = this.#exports.get(name);
		if (get) return get();
		// `export * from …`: the first module that exports the name.
		for (const path of this.#stars) {
			const module = this.modules.load(path);
			if (module.exports(name)) return module.exported(name, node);
		}
		throw new Unknown(node);
	}

	/** Whether the module exports `name`, itself or through `export *`. */
	exports(name: string): boolean {
		return this.#exports.has(name) || this.#stars.some((p) => this.modules.load(p).exports(name));
	}

	#declare(statement: ts.Statement): void {
		if (ts.isImportDeclaration(statement)) return this.#import(statement);
		if (ts.isExportDeclaration(statement)) return this.#reexport(statement);
		const exported = ts.canHaveModifiers(statement)
			? (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
			: false;
		for (const name of declare(statement, this.scope, this)) {
			if (exported) this.#exports.set(name, () => this.scope.lookup(name, statement));
		}
	}

	#import(statement: ts.ImportDeclaration): void {
		const from = (statement.moduleSpecifier as ts.StringLiteral).text;
		const clause = statement.importClause;
		if (!clause || clause.isTypeOnly) return;
		const bindings = clause.namedBindings;
		if (from === 'vitest') {
			if (bindings && ts.isNamedImports(bindings)) {
				for (const el of bindings.elements) {
					this.vitest.set(el.name.text, (el.propertyName ?? el.name).text);
				}
			}
			return;
		}
		const target = this.modules.resolve(this.path, from);
		if (!target) return;
		if (bindings && ts.isNamedImports(bindings)) {
			for (const el of bindings.elements) {
				if (el.isTypeOnly) continue;
				const name = (el.propertyName ?? el.name).text;
				this.scope.define(el.name.text, () => this.modules.load(target).exported(name, el));
			}
		} else if (bindings && ts.isNamespaceImport(bindings)) {
			this.scope.define(bindings.name.text, () => namespace(this.modules.load(target)));
		}
	}

	#reexport(statement: ts.ExportDeclaration): void {
		const clause = statement.exportClause;
		const from = statement.moduleSpecifier as ts.StringLiteral | undefined;
		const target = from ? this.modules.resolve(this.path, from.text) : null;
		if (!clause && target && !statement.isTypeOnly) this.#stars.push(target);
		if (statement.isTypeOnly || !clause || !ts.isNamedExports(clause)) return;
		for (const el of clause.elements) {
			const name = (el.propertyName ?? el.name).text;
			this.#exports.set(el.name.text, () =>
				from
					? target
						? this.modules.load(target).exported(name, el)
						: (() => {
								throw new Unknown(el);
							})()
					: this.scope.lookup(name, el)
			);
		}
	}
}

/** A namespace import as an object whose properties are looked up on use. */
function namespace(module: Module): unknown {
	return new Proxy(
		{},
		{
			get: (_, key) => (typeof key === 'string' ? module.exported(key, module.source) : undefined),
			has: () => false,
			ownKeys: () => []
		}
	);
}

function parse(path: string, text: string): ts.SourceFile {
	return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
}

/** The modules read so far, by absolute path. */
class Modules {
	readonly #loaded = new Map<string, Module>();
	constructor(readonly root: string) {}

	/** The file a relative or `$lib/` import names, if it is a TypeScript file in the repository. */
	resolve(from: string, specifier: string): string | null {
		let base: string;
		if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
		else if (specifier.startsWith('$lib/')) base = join(this.root, 'src/lib', specifier.slice(5));
		else return null;
		const candidates = [
			base,
			base.replace(/\.js$/, '.ts'),
			`${base}.ts`,
			join(base, 'index.ts')
		].filter((p) => p.endsWith('.ts'));
		return candidates.find((p) => existsSync(p)) ?? null;
	}

	load(path: string): Module {
		let module = this.#loaded.get(path);
		if (!module) {
			module = new Module(path, parse(path, readFileSync(path, 'utf8')), this);
			this.#loaded.set(path, module);
		}
		return module;
	}
}

/** Binds a declaration statement's names in `scope` (lazily); returns the names bound. */
function declare(statement: ts.Statement, scope: Scope, module: Module): string[] {
	if (ts.isVariableStatement(statement)) {
		// Only a const keeps the value it was declared with.
		if (!(statement.declarationList.flags & ts.NodeFlags.Const)) {
			const names: string[] = [];
			for (const d of statement.declarationList.declarations) {
				for (const name of boundNames(d.name)) {
					scope.define(name, () => {
						throw new Unknown(d);
					});
					names.push(name);
				}
			}
			return names;
		}
		return statement.declarationList.declarations.flatMap((d) => {
			const init = d.initializer;
			if (!init) return [];
			let value: { v: unknown } | null = null;
			const get = () => (value ??= { v: evaluate(init, scope, module) }).v;
			return bindPattern(d.name, get, scope, module);
		});
	}
	if (ts.isFunctionDeclaration(statement) && statement.name) {
		const fn = interpret(statement, scope, module);
		scope.define(statement.name.text, () => fn);
		return [statement.name.text];
	}
	if (ts.isEnumDeclaration(statement) || ts.isClassDeclaration(statement)) {
		const name = statement.name;
		if (name)
			scope.define(name.text, () => {
				throw new Unknown(statement);
			});
	}
	return [];
}

function boundNames(name: ts.BindingName): string[] {
	if (ts.isIdentifier(name)) return [name.text];
	return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : boundNames(el.name)));
}

/** Binds a binding pattern to parts of `get()`, each evaluated when first looked up. */
function bindPattern(
	name: ts.BindingName,
	get: () => unknown,
	scope: Scope,
	module: Module
): string[] {
	if (ts.isIdentifier(name)) {
		scope.define(name.text, get);
		return [name.text];
	}
	const names: string[] = [];
	name.elements.forEach((el, index) => {
		if (ts.isOmittedExpression(el)) return;
		const part = () => {
			const whole = notHole(get(), el);
			if (whole === null || typeof whole !== 'object') throw new Unknown(el);
			let v: unknown;
			if (el.dotDotDotToken) {
				if (!Array.isArray(whole)) throw new Unknown(el);
				v = whole.slice(index);
			} else if (ts.isArrayBindingPattern(name)) {
				if (!Array.isArray(whole)) throw new Unknown(el);
				v = whole[index];
			} else {
				const key = el.propertyName ?? el.name;
				if (!ts.isIdentifier(key) && !ts.isStringLiteral(key)) throw new Unknown(el);
				v = Object.hasOwn(whole, key.text)
					? (whole as Record<string, unknown>)[key.text]
					: undefined;
			}
			if (v === undefined && el.initializer) v = evaluate(el.initializer, scope, module);
			return v;
		};
		names.push(...bindPattern(el.name, part, scope, module));
	});
	return names;
}

/** A function of the file as a callable: it evaluates its body on call, with its own scope. */
function interpret(
	fn: ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression,
	closure: Scope,
	module: Module
): Interpreted {
	const call = (...args: unknown[]) => {
		const async = (ts.getModifiers(fn) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
		if (fn.asteriskToken || async) throw new Unknown(fn);
		const scope = new Scope(closure);
		fn.parameters.forEach((p, i) => {
			const get = () => {
				const v = p.dotDotDotToken ? args.slice(i) : args[i];
				return v === undefined && p.initializer ? evaluate(p.initializer, closure, module) : v;
			};
			bindPattern(p.name, get, scope, module);
		});
		const body = fn.body;
		if (!body) throw new Unknown(fn);
		if (!ts.isBlock(body)) return evaluate(body, scope, module);
		return execute(body.statements, scope, scope, module)?.value;
	};
	return Object.assign(call, { interpreted: true as const });
}

/**
 * Runs a function body's statements: declarations, `return`, `if` on a known condition, and
 * `push` onto an array the function itself declared. Anything else is unknown.
 */
function execute(
	statements: readonly ts.Statement[],
	scope: Scope,
	own: Scope,
	module: Module
): { value: unknown } | null {
	for (const statement of statements) {
		if (ts.isReturnStatement(statement)) {
			return {
				value: statement.expression ? evaluate(statement.expression, scope, module) : undefined
			};
		}
		if (ts.isVariableStatement(statement) || ts.isFunctionDeclaration(statement)) {
			declare(statement, scope, module);
		} else if (ts.isIfStatement(statement)) {
			const test = notHole(evaluate(statement.expression, scope, module), statement.expression);
			const branch = test ? statement.thenStatement : statement.elseStatement;
			if (!branch) continue;
			const done = execute(ts.isBlock(branch) ? branch.statements : [branch], scope, own, module);
			if (done) return done;
		} else if (ts.isExpressionStatement(statement) && isOwnPush(statement.expression, own)) {
			const push = statement.expression as ts.CallExpression;
			const array = evaluate(
				(push.expression as ts.PropertyAccessExpression).expression,
				scope,
				module
			);
			if (!Array.isArray(array)) throw new Unknown(statement);
			for (const a of push.arguments) {
				if (ts.isSpreadElement(a)) throw new Unknown(a);
				array.push(evaluate(a, scope, module));
			}
		} else throw new Unknown(statement);
	}
	return null;
}

/** `x.push(…)` where `x` is declared by the function being run (its own array, not a shared one). */
function isOwnPush(e: ts.Expression, own: Scope): boolean {
	return (
		ts.isCallExpression(e) &&
		ts.isPropertyAccessExpression(e.expression) &&
		e.expression.name.text === 'push' &&
		ts.isIdentifier(e.expression.expression) &&
		own.holds(e.expression.expression.text)
	);
}

function isInterpreted(value: unknown): value is Interpreted {
	return typeof value === 'function' && (value as Partial<Interpreted>).interpreted === true;
}

function propertyName(name: ts.PropertyName, scope: Scope, module: Module): string {
	if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) {
		return name.text;
	}
	if (ts.isComputedPropertyName(name)) {
		return String(known(evaluate(name.expression, scope, module), name));
	}
	throw new Unknown(name);
}

/** The value of `node`, or `Unknown` thrown when it cannot be known without running the file. */
function evaluate(node: ts.Expression, scope: Scope, module: Module): unknown {
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	if (ts.isNumericLiteral(node)) return Number(node.text.replaceAll('_', ''));
	if (ts.isRegularExpressionLiteral(node)) {
		const at = node.text.lastIndexOf('/');
		return new RegExp(node.text.slice(1, at), node.text.slice(at + 1));
	}
	switch (node.kind) {
		case ts.SyntaxKind.TrueKeyword:
			return true;
		case ts.SyntaxKind.FalseKeyword:
			return false;
		case ts.SyntaxKind.NullKeyword:
			return null;
	}
	if (
		ts.isParenthesizedExpression(node) ||
		ts.isAsExpression(node) ||
		ts.isSatisfiesExpression(node) ||
		ts.isNonNullExpression(node) ||
		ts.isTypeAssertionExpression(node)
	) {
		return evaluate(node.expression, scope, module);
	}
	if (ts.isTemplateExpression(node)) {
		const parts: Part[] = [node.head.text];
		for (const span of node.templateSpans) {
			const value = orHole(span.expression, scope, module);
			parts.push(...(opaque(value) ? partsOf(value) : [String(value)]), span.literal.text);
		}
		const pattern = new Pattern(parts);
		return pattern.parts.every((p) => p !== null) ? pattern.parts.join('') : pattern;
	}
	if (ts.isIdentifier(node)) {
		if (scope.has(node.text)) return scope.lookup(node.text, node);
		if (Object.hasOwn(GLOBALS, node.text)) return GLOBALS[node.text];
		throw new Unknown(node);
	}
	if (ts.isArrayLiteralExpression(node)) {
		const out: unknown[] = [];
		for (const el of node.elements) {
			if (ts.isSpreadElement(el)) {
				const spread = notHole(evaluate(el.expression, scope, module), el);
				if (!Array.isArray(spread)) throw new Unknown(el);
				out.push(...spread);
			} else out.push(orHole(el, scope, module));
		}
		return out;
	}
	if (ts.isObjectLiteralExpression(node)) {
		const out: Record<string, unknown> = {};
		for (const p of node.properties) {
			if (ts.isPropertyAssignment(p)) {
				out[propertyName(p.name, scope, module)] = orHole(p.initializer, scope, module);
			} else if (ts.isShorthandPropertyAssignment(p)) {
				out[p.name.text] = orHole(p.name, scope, module);
			} else if (ts.isSpreadAssignment(p)) {
				const spread = notHole(evaluate(p.expression, scope, module), p);
				if (spread === null || typeof spread !== 'object') throw new Unknown(p);
				Object.assign(out, spread);
			} else if (ts.isMethodDeclaration(p)) {
				out[propertyName(p.name, scope, module)] = new Hole(p);
			} else throw new Unknown(p);
		}
		return out;
	}
	if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
		return interpret(node, scope, module);
	}
	if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
		return member(node, scope, module).value;
	}
	if (ts.isCallExpression(node)) return call(node, scope, module);
	if (ts.isConditionalExpression(node)) {
		const test = notHole(evaluate(node.condition, scope, module), node);
		return evaluate(test ? node.whenTrue : node.whenFalse, scope, module);
	}
	if (ts.isPrefixUnaryExpression(node)) {
		const v = notHole(evaluate(node.operand, scope, module), node) as number;
		switch (node.operator) {
			case ts.SyntaxKind.MinusToken:
				return -v;
			case ts.SyntaxKind.PlusToken:
				return +v;
			case ts.SyntaxKind.ExclamationToken:
				return !v;
		}
		throw new Unknown(node);
	}
	if (ts.isBinaryExpression(node)) return binary(node, scope, module);
	throw new Unknown(node);
}

function orHole(node: ts.Expression, scope: Scope, module: Module): unknown {
	try {
		return evaluate(node, scope, module);
	} catch (error) {
		if (error instanceof Unknown) return new Hole(node);
		throw error;
	}
}

function binary(node: ts.BinaryExpression, scope: Scope, module: Module): unknown {
	const op = node.operatorToken.kind;
	const left = () => notHole(evaluate(node.left, scope, module), node.left);
	const right = () => notHole(evaluate(node.right, scope, module), node.right);
	const K = ts.SyntaxKind;
	switch (op) {
		case K.AmpersandAmpersandToken:
			return left() && right();
		case K.BarBarToken:
			return left() || right();
		case K.QuestionQuestionToken:
			return left() ?? right();
	}
	if (op === K.EqualsEqualsEqualsToken || op === K.ExclamationEqualsEqualsToken) {
		// Identity: a function of the file compares as the object it is.
		const [a, b] = [left(), right()];
		if (a instanceof Pattern || b instanceof Pattern) throw new Unknown(node);
		return op === K.EqualsEqualsEqualsToken ? a === b : a !== b;
	}
	const a = known(left(), node.left) as number;
	const b = known(right(), node.right) as number;
	switch (op) {
		case K.PlusToken:
			return a + b;
		case K.MinusToken:
			return a - b;
		case K.AsteriskToken:
			return a * b;
		case K.SlashToken:
			return a / b;
		case K.PercentToken:
			return a % b;
		case K.AsteriskAsteriskToken:
			return a ** b;
		case K.LessThanToken:
			return a < b;
		case K.LessThanEqualsToken:
			return a <= b;
		case K.GreaterThanToken:
			return a > b;
		case K.GreaterThanEqualsToken:
			return a >= b;
	}
	throw new Unknown(node);
}

/** A property of a known value: its value, and the receiver a method call binds. */
function member(
	node: ts.PropertyAccessExpression | ts.ElementAccessExpression,
	scope: Scope,
	module: Module
): { value: unknown; receiver: unknown; name: string } {
	const receiver = notHole(evaluate(node.expression, scope, module), node.expression);
	const name = ts.isPropertyAccessExpression(node)
		? node.name.text
		: String(known(evaluate(node.argumentExpression, scope, module), node.argumentExpression));
	if (receiver === null || receiver === undefined) {
		if (node.questionDotToken) return { value: undefined, receiver, name };
		throw new Unknown(node);
	}
	const value = lookupProperty(receiver, name, node);
	return { value, receiver, name };
}

function lookupProperty(receiver: unknown, name: string, node: ts.Node): unknown {
	if (typeof receiver === 'string' || Array.isArray(receiver)) {
		if (name === 'length') return receiver.length;
		if (/^\d+$/.test(name)) return receiver[Number(name)];
		if (STRUCTURAL.has(name) || PURE.has(name)) {
			return (receiver as unknown as Record<string, unknown>)[name];
		}
		throw new Unknown(node);
	}
	if (typeof receiver === 'number') {
		if (PURE.has(name)) return (receiver as unknown as Record<string, unknown>)[name];
		throw new Unknown(node);
	}
	if (receiver === Number && NUMBER_STATICS.has(name)) {
		return (Number as unknown as Record<string, unknown>)[name];
	}
	if (typeof receiver === 'object') {
		if (receiver instanceof RegExp) throw new Unknown(node);
		const own = Object.hasOwn(receiver as object, name) || receiver === Math || receiver === JSON;
		if (own) return (receiver as Record<string, unknown>)[name];
		if (Object.getPrototypeOf(receiver) === Object.prototype) return undefined;
		// A namespace import: its proxy looks the name up.
		return (receiver as Record<string, unknown>)[name];
	}
	throw new Unknown(node);
}

function call(node: ts.CallExpression, scope: Scope, module: Module): unknown {
	const args = node.arguments.map((a) => {
		if (ts.isSpreadElement(a)) throw new Unknown(a);
		return evaluate(a, scope, module);
	});
	const callee = node.expression;
	if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
		const { value: fn, receiver, name } = member(callee, scope, module);
		if (typeof fn !== 'function') throw new Unknown(node);
		if (isInterpreted(fn)) return fn(...args);
		const builtin =
			typeof receiver === 'string' || typeof receiver === 'number' || Array.isArray(receiver);
		if (builtin && STRUCTURAL.has(name)) {
			const wrapped = args.map((a) =>
				isInterpreted(a) && PREDICATES.has(name) ? (...xs: unknown[]) => notHole(a(...xs), node) : a
			);
			if (args.some((a) => typeof a === 'function' && !isInterpreted(a))) throw new Unknown(node);
			const result = (fn as (...xs: unknown[]) => unknown).apply(receiver, wrapped);
			// Iterators (entries, keys, values) are spread into arrays where they are used.
			return typeof result === 'object' &&
				result !== null &&
				Symbol.iterator in result &&
				!Array.isArray(result)
				? [...(result as Iterable<unknown>)]
				: result;
		}
		if (builtin && PURE.has(name)) {
			known(receiver, callee);
			for (const a of args) known(a, node);
			return (fn as (...xs: unknown[]) => unknown).apply(receiver, args);
		}
		// Object.keys/entries/values, Array.from/isArray, Math.*, JSON.stringify.
		if (receiver === GLOBALS.Object || receiver === GLOBALS.Array) {
			const [first, ...rest] = args;
			if (first instanceof Hole || rest.some((a) => typeof a === 'function' && !isInterpreted(a))) {
				throw new Unknown(node);
			}
			return (fn as (...xs: unknown[]) => unknown)(first, ...rest);
		}
		if (PURE_GLOBALS.has(fn)) {
			for (const a of args) known(a, node);
			return (fn as (...xs: unknown[]) => unknown).apply(receiver, args);
		}
		throw new Unknown(node);
	}
	const fn = evaluate(callee, scope, module);
	if (isInterpreted(fn)) return fn(...args);
	if (PURE_GLOBALS.has(fn)) {
		for (const a of args) known(a, node);
		return (fn as (...xs: unknown[]) => unknown)(...args);
	}
	throw new Unknown(node);
}

/** A value vitest would print as this evaluator would: data, with nothing unknown inside. */
function isData(value: unknown): boolean {
	return !opaque(value);
}

/**
 * vitest's `formatTitle` (the titles of `.each` and `.for` rows) by its own formatter; an item
 * that is not plain data (unknown, a function) gives an unknown run. `items` null: the row
 * itself is unknown; `idx` null: its place is.
 */
function formatTitle(template: string, items: unknown[] | null, idx: number | null): Part[] {
	const out: Part[] = [];
	if (template.includes('%#') || template.includes('%$')) {
		if (idx === null) {
			// Index placeholders: unknown runs, the rest formatted as usual.
			const marked = template.replace(/%%/g, '\0').replace(/%[#$]/g, '\u0001').replace(/\0/g, '%%');
			return joinParts(
				formatTitle(marked, items, 0).flatMap((p) =>
					p === null ? [null] : p.split('\u0001').flatMap((t, i) => (i ? [null, t] : [t]))
				)
			);
		}
		template = template
			.replace(/%%/g, '__vitest_escaped_%__')
			.replace(/%#/g, `${idx}`)
			.replace(/%\$/g, `${idx + 1}`)
			.replace(/__vitest_escaped_%__/g, '%%');
	}
	if (template.includes('%f')) {
		// vitest writes the i-th `%f` as `-%f` when the i-th item is -0 or a negative NaN.
		const placeholders = template.match(/%f/g) ?? [];
		for (let i = 0; i < placeholders.length; i++) {
			const item = items?.[i];
			if (!items || !isData(item)) return [null];
			if (Object.is(item, -0) || isNegativeNaN(item)) {
				let occurrence = 0;
				template = template.replace(/%f/g, (m) => (++occurrence === i + 1 ? '-%f' : m));
			}
		}
	}
	const count = template.split('%').length - 1;
	// Unknown items: each placeholder, and each `$key` (an attribute or left as written), unknown.
	const first = items?.[0];
	const isObjectItem = first !== null && typeof first === 'object' && !Array.isArray(first);
	const attribute = (s: string) => {
		let last = 0;
		for (const m of s.matchAll(/\$([$\w.]+)/g)) {
			const key = m[1];
			const isArrayKey = /^\d+$/.test(key);
			if (items && !isObjectItem && !isArrayKey) continue;
			out.push(s.slice(last, m.index));
			last = m.index + m[0].length;
			if (!items) {
				out.push(null);
				continue;
			}
			const arrayElement = isArrayKey ? attr(items, key, undefined) : undefined;
			const value = isObjectItem ? attr(first, key, arrayElement) : arrayElement;
			out.push(isData(value) ? objDisplay(value) : null);
		}
		out.push(s.slice(last));
	};
	let i = 0;
	let last = 0;
	for (const m of template.matchAll(formatRegExp)) {
		if (last < m.index) attribute(template.slice(last, m.index));
		if (i < count) {
			const item = items ? items[i++] : new Hole(ts.factory.createNull());
			if (m[0] === '%s' && item instanceof Pattern) out.push(...item.parts);
			else out.push(isData(item) ? format(m[0], item) : null);
		} else out.push(m[0]);
		last = m.index + m[0].length;
	}
	if (last < template.length) attribute(template.slice(last));
	return joinParts(out);
}

/** vitest's `isNegativeNaN`: NaN with its sign bit set. */
function isNegativeNaN(value: unknown): boolean {
	if (typeof value !== 'number' || !Number.isNaN(value)) return false;
	const f64 = new Float64Array([value]);
	return new Uint32Array(f64.buffer)[1] >>> 31 === 1;
}

/** vitest's `objectAttr`: `a.b[0]` of a value, else `otherwise`. */
function attr(source: unknown, path: string, otherwise: unknown): unknown {
	let result = source;
	for (const p of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
		if (result instanceof Hole || result instanceof Pattern)
			return new Hole(ts.factory.createNull());
		result = (new Object(result) as Record<string, unknown>)[p];
		if (result === undefined) return otherwise;
	}
	return result;
}

/** `describe`/`it` chains: the vitest function, its table (`.each`/`.for`), and its arguments. */
interface TestCall {
	kind: 'suite' | 'test';
	table: { how: 'each' | 'for'; cases: ts.Expression } | null;
	args: readonly ts.Expression[];
}

const MODIFIERS = new Set(['skip', 'only', 'todo', 'concurrent', 'sequential', 'fails', 'shuffle']);
const CONDITIONS = new Set(['skipIf', 'runIf']);

/**
 * What a call declares, if it is one of vitest's describe or test functions, else null. Throws
 * `Unknown` for a vitest chain this reader does not follow (a tagged-template table, `extend`).
 */
function testCall(node: ts.CallExpression, module: Module): TestCall | null {
	let table: TestCall['table'] = null;
	let e: ts.Expression = node.expression;
	for (;;) {
		if (ts.isCallExpression(e)) {
			const callee = e.expression;
			if (!ts.isPropertyAccessExpression(callee)) return null;
			const name = callee.name.text;
			if (name === 'each' || name === 'for') {
				if (table || e.arguments.length !== 1) throw new Unknown(e);
				table = { how: name, cases: e.arguments[0] };
			} else if (!CONDITIONS.has(name)) return null;
			e = callee.expression;
		} else if (ts.isPropertyAccessExpression(e)) {
			if (!MODIFIERS.has(e.name.text)) return null;
			e = e.expression;
		} else if (ts.isIdentifier(e)) {
			const name = module.vitest.get(e.text);
			if (name === 'describe' || name === 'suite')
				return { kind: 'suite', table, args: node.arguments };
			if (name === 'it' || name === 'test') return { kind: 'test', table, args: node.arguments };
			return null;
		} else if (ts.isTaggedTemplateExpression(e)) {
			throw new Unknown(e);
		} else return null;
	}
}

/** Whether a call is the outer end of a chain (not `it.each(x)` inside `it.each(x)(…)`). */
function isChainEnd(node: ts.CallExpression): boolean {
	const parent = node.parent;
	return !(
		(ts.isCallExpression(parent) && parent.expression === node) ||
		(ts.isPropertyAccessExpression(parent) && parent.expression === node)
	);
}

function lineOf(module: Module, node: ts.Node): number {
	return module.source.getLineAndCharacterOfPosition(node.getStart(module.source)).line + 1;
}

/** Where the walk is: the describe names above (known in part), and whether it surely runs. */
interface Place {
	prefix: Part[];
	/** False under a loop over unknown values, a condition not known, or an unknown table. */
	certain: boolean;
}

const SEPARATOR = ' > ';

function under(place: Place, title: Part[], certain = place.certain): Place {
	const prefix = place.prefix.length ? [...place.prefix, SEPARATOR, ...title] : title;
	return { prefix: joinParts(prefix), certain };
}

/** A table's rows: known ones, or one shape standing for rows known only when the file runs. */
interface Rows {
	rows: { items: unknown[] | null; params: unknown[]; idx: number | null }[];
	certain: boolean;
}

/** Walks a file's statements as vitest collects them. */
class Collector {
	readonly names: string[] = [];
	readonly maybe: MaybeTest[] = [];
	readonly #seen = new Set<ts.Node>();
	constructor(readonly module: Module) {}

	#line(node: ts.Node): number {
		return lineOf(this.module, node);
	}

	#value(node: ts.Expression, scope: Scope): unknown {
		return orHole(node, scope, this.module);
	}

	walk(statements: readonly ts.Statement[], scope: Scope, place: Place): void {
		for (const s of statements) this.#statement(s, scope, place);
	}

	#statement(s: ts.Statement, scope: Scope, place: Place): void {
		if (ts.isExpressionStatement(s)) {
			let e = s.expression;
			while (ts.isAwaitExpression(e) || ts.isVoidExpression(e)) e = e.expression;
			if (ts.isCallExpression(e)) this.#call(e, scope, place);
		} else if (ts.isBlock(s)) {
			this.walk(s.statements, new Scope(scope), place);
		} else if (ts.isForOfStatement(s)) {
			this.#forOf(s, scope, place);
		} else if (ts.isIfStatement(s)) {
			const test = this.#value(s.expression, scope);
			if (test instanceof Hole || test instanceof Pattern) {
				// Either branch may run.
				const maybe = { ...place, certain: false };
				this.#statement(s.thenStatement, scope, maybe);
				if (s.elseStatement) this.#statement(s.elseStatement, scope, maybe);
				return;
			}
			const branch = test ? s.thenStatement : s.elseStatement;
			if (branch) this.#statement(branch, scope, place);
		} else if (
			ts.isVariableStatement(s) ||
			ts.isFunctionDeclaration(s) ||
			ts.isClassDeclaration(s) ||
			ts.isEnumDeclaration(s)
		) {
			// Top-level declarations are bound by the module already.
			if (scope !== this.module.scope) declare(s, scope, this.module);
		}
	}

	/** Runs `body` once per element of `items`, or once for any element when they are unknown. */
	#each(items: unknown, run: (item: unknown, place: Place) => void, place: Place): void {
		if (typeof items === 'string') items = [...items];
		if (Array.isArray(items)) for (const item of items) run(item, place);
		else run(new Hole(this.module.source), { ...place, certain: false });
	}

	#forOf(s: ts.ForOfStatement, scope: Scope, place: Place): void {
		const init = s.initializer;
		if (!ts.isVariableDeclarationList(init) || init.declarations.length !== 1) return;
		this.#each(
			this.#value(s.expression, scope),
			(item, at) => {
				const inner = new Scope(scope);
				bindPattern(init.declarations[0].name, () => item, inner, this.module);
				this.#statement(s.statement, inner, at);
			},
			place
		);
	}

	#call(node: ts.CallExpression, scope: Scope, place: Place): void {
		let found: TestCall | null;
		try {
			found = testCall(node, this.module);
		} catch (error) {
			if (!(error instanceof Unknown)) throw error;
			// A chain this reader does not follow: a test of any name, here or not.
			this.#seen.add(node);
			this.maybe.push({ parts: under(place, [null]).prefix, line: this.#line(node) });
			return;
		}
		if (!found) {
			// `[…].forEach((x) => { describe/it … })` declares tests like a for … of.
			this.#forEach(node, scope, place);
			return;
		}
		this.#seen.add(node);
		const { kind, table, args } = found;
		const body = args.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a)) as
			ts.ArrowFunction | ts.FunctionExpression | undefined;
		const title = args[0] ? this.#value(args[0], scope) : undefined;
		const named = (parts: Part[], certain: boolean) => {
			const at = under(place, parts, place.certain && certain);
			if (kind === 'suite') return at;
			const known = at.prefix.length === 1 && typeof at.prefix[0] === 'string';
			if (known && at.certain) this.names.push(at.prefix[0] as string);
			else this.maybe.push({ parts: at.prefix, line: this.#line(node) });
			return at;
		};
		if (!table) {
			const at = named(this.#name(title), true);
			if (kind === 'suite' && body) this.#body(body, [], scope, at);
			return;
		}
		const { rows, certain } = this.#rows(table, scope);
		for (const row of rows) {
			const parts = typeof title === 'string' ? formatTitle(title, row.items, row.idx) : [null];
			const at = named(parts, certain);
			if (kind === 'suite' && body) this.#body(body, row.params, scope, at);
		}
	}

	/** A title as vitest's `formatName` makes it, or the parts known of it. */
	#name(title: unknown): Part[] {
		if (typeof title === 'string') return [title];
		if (title instanceof Pattern) return title.parts;
		if (opaque(title)) return [null];
		return [String(title)];
	}

	#rows(table: NonNullable<TestCall['table']>, scope: Scope): Rows {
		const cases = this.#value(table.cases, scope);
		const rowOf = (c: unknown, idx: number | null, arrayOnly: boolean | null) => {
			if (c instanceof Hole) return { items: null, params: [c], idx };
			// vitest's toArray for `.for` (null and undefined: no items), a one-item row for `.each`.
			const none = table.how === 'for' && (c === null || c === undefined);
			const items = Array.isArray(c) ? c : none ? [] : [c];
			const spread = arrayOnly ?? Array.isArray(c);
			const params = table.how === 'for' ? [c] : spread ? items : [c];
			return { items, params, idx };
		};
		if (Array.isArray(cases)) {
			const arrayOnly = cases.every(Array.isArray);
			return { rows: cases.map((c, i) => rowOf(c, i, arrayOnly)), certain: true };
		}
		// Rows known only when the file runs: their shape, if the table maps to it.
		return {
			rows: this.#shapes(table.cases, scope).map((c) => rowOf(c, null, null)),
			certain: false
		};
	}

	/** For `xs.map((x) => row)` or `xs.flatMap(…)` over unknown `xs`: `row` with `x` unknown. */
	#shapes(cases: ts.Expression, scope: Scope): unknown[] {
		let e = cases;
		while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))
			e = e.expression;
		if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
			const how = e.expression.name.text;
			const fn = e.arguments[0];
			if (
				(how === 'map' || how === 'flatMap') &&
				fn &&
				(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))
			) {
				const row = (() => {
					try {
						return interpret(fn, scope, this.module)(new Hole(fn), new Hole(fn));
					} catch (error) {
						if (error instanceof Unknown) return new Hole(fn);
						throw error;
					}
				})();
				if (how === 'map') return [row];
				return Array.isArray(row) ? row : [new Hole(fn)];
			}
		}
		return [new Hole(cases)];
	}

	#body(
		fn: ts.ArrowFunction | ts.FunctionExpression,
		params: unknown[],
		scope: Scope,
		place: Place
	): void {
		const inner = new Scope(scope);
		fn.parameters.forEach((p, i) => {
			bindPattern(
				p.name,
				() => (p.dotDotDotToken ? params.slice(i) : params[i]),
				inner,
				this.module
			);
		});
		if (ts.isBlock(fn.body)) this.walk(fn.body.statements, inner, place);
		else if (ts.isCallExpression(fn.body)) this.#call(fn.body, inner, place);
	}

	#forEach(node: ts.CallExpression, scope: Scope, place: Place): void {
		const callee = node.expression;
		const fn = node.arguments[0];
		if (
			!ts.isPropertyAccessExpression(callee) ||
			callee.name.text !== 'forEach' ||
			!fn ||
			!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))
		) {
			return;
		}
		const items = this.#value(callee.expression, scope);
		let i = 0;
		this.#each(items, (item, at) => this.#body(fn, [item, i++, items], scope, at), place);
	}

	/** Whether a call declares tests (a vitest chain, followed or not). */
	#declares(node: ts.CallExpression): boolean {
		try {
			return testCall(node, this.module) !== null;
		} catch {
			return true;
		}
	}

	/** Every describe or test call the walk did not reach: a test of any name, here or not. */
	unreached(): void {
		const visit = (node: ts.Node) => {
			if (ts.isCallExpression(node) && isChainEnd(node) && !this.#seen.has(node)) {
				if (this.#declares(node)) this.maybe.push({ parts: [null], line: this.#line(node) });
			}
			ts.forEachChild(node, visit);
		};
		visit(this.module.source);
	}
}

/**
 * A reader of the test files under `root`; the modules they import are read once for all.
 * It returns the tests `file` (a path relative to `root`) declares: names read in full, and tests
 * read in part. `text` stands for the file's content (the self-tests pass sources of their own).
 */
export function testReader(root: string): (file: string, text?: string) => FileTests {
	const modules = new Modules(root);
	return (file, text) => {
		const path = join(root, file);
		const module =
			text === undefined ? modules.load(path) : new Module(path, parse(path, text), modules);
		const collector = new Collector(module);
		collector.walk(module.source.statements, module.scope, { prefix: [], certain: true });
		collector.unreached();
		return { names: collector.names, maybe: collector.maybe };
	};
}
