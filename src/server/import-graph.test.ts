import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { patience } from './testing/patience.ts';

// Issue 30 point 11: modules of the server and of shared import each other one way. A circle
// (accounts ↔ school through insertUnique, large-bodies ↔ throttle through formatWait) makes
// load order matter and ties two features together; a helper both need goes to a module both
// import (db/, src/shared). And what `npm start` and `npm run seed` load is no test code: the
// demo seed builds its own accounts and quizzes. These guards read the sources' imports.

const SRC = resolve(import.meta.dirname, '..');
const ROOTS = ['server', 'shared'];

type Imports = Map<string, string[]>;

/** What the commands load first: `npm start` (through scripts/start.ts), `npm run seed` and `npm run demo:remove`. */
const ENTRY_POINTS = ['server/main.ts', 'server/demo/seed-command.ts', 'server/demo/remove-command.ts'];

/** Test code: the shared test helpers, and helpers named for tests beside the code they drive. */
const isTestCode = (path: string) => path.startsWith('server/testing/') || /(^|[/-])test-[^/]*$/.test(path);

/** Every module of the server and of shared, tests aside (nothing imports a test). */
function sources(): string[] {
  return ROOTS.flatMap((root) =>
    readdirSync(join(SRC, root), { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
      .map((path) => join(SRC, root, path)),
  );
}

/** The file an import names, or undefined for a package. Follows package.json "imports". */
function resolveImport(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(from), specifier);
  const alias = /^#(server|shared)\/(.+)$/.exec(specifier);
  return alias ? join(SRC, alias[1]!, `${alias[2]}.ts`) : undefined;
}

/**
 * What one module imports when it loads (static imports and re-exports) and what it may load
 * later (`import()`). `import type` is left out: it is erased before the module runs.
 */
function importsOf(file: string, source: string): { loaded: string[]; later: string[] } {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const loaded: string[] = [];
  const later: string[] = [];
  for (const statement of parsed.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || isTypeOnly(statement)) continue;
    const target = resolveImport(file, specifier.text);
    if (target) loaded.push(target);
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      const target = specifier && ts.isStringLiteral(specifier) ? resolveImport(file, specifier.text) : undefined;
      if (target) later.push(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return { loaded, later };
}

/** Every module a command can load from its entry point, now or later. */
function reachable(imports: Map<string, { loaded: string[]; later: string[] }>, entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const module = pending.pop()!;
    if (seen.has(module) || !imports.has(module)) continue;
    seen.add(module);
    const { loaded, later } = imports.get(module)!;
    pending.push(...loaded, ...later);
  }
  return seen;
}

function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((element) => element.isTypeOnly)
  );
}

/** The circles of a graph: its strongly connected parts of more than one module (Tarjan). */
function circles(imports: Imports): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string) => {
    order.set(module, order.size);
    low.set(module, order.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of imports.get(module) ?? []) {
      if (!imports.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(module, Math.min(low.get(module)!, order.get(next)!));
    }
    if (low.get(module) !== order.get(module)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== module);
    if (part.length > 1) found.push(part.sort());
  };
  for (const module of imports.keys()) if (!order.has(module)) visit(module);
  return found;
}

const graphOf = (modules: Record<string, string[]>): Imports => new Map(Object.entries(modules));
const named = (file: string) => relative(SRC, file).replaceAll('\\', '/');

describe('imports of src/server and src/shared', () => {
  // Parsing a few hundred modules is CPU work: on a loaded machine it takes seconds.
  const allImports = () => new Map(sources().map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));

  it('form no circle', { timeout: patience(120_000) }, () => {
    const imports: Imports = new Map([...allImports()].map(([file, { loaded }]) => [file, loaded]));
    expect(circles(imports).map((part) => part.map(named))).toEqual([]);
  });

  it('of the server and the seed reach no test code', { timeout: patience(120_000) }, () => {
    const imports = allImports();
    for (const entry of ENTRY_POINTS) {
      const reached = [...reachable(imports, join(SRC, entry))].map(named);
      expect(reached).toContain(entry);
      expect(reached.filter(isTestCode), `test code that ${entry} loads`).toEqual([]);
    }
  });

  it('the guards see a circle of two and of three, test code, and not a type-only import', () => {
    expect(circles(graphOf({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(circles(graphOf({ a: ['b'], b: ['c'], c: ['a'] }))).toEqual([['a', 'b', 'c']]);
    const file = join(SRC, 'server/x.ts');
    const source = "import type { A } from './a.ts';\nimport { type B } from './b.ts';\nimport { c } from '#shared/c';";
    expect(importsOf(file, source).loaded).toEqual([join(SRC, 'shared/c.ts')]);
    expect(importsOf(file, "const later = await import('./d.ts');").later).toEqual([join(SRC, 'server/d.ts')]);
    expect(['server/testing/factories.ts', 'server/features/meetings/meeting-test-client.ts'].every(isTestCode)).toBe(
      true,
    );
    expect(['server/features/quizzes/attempts.ts', 'server/testing.ts'].some(isTestCode)).toBe(false);
  });
});
