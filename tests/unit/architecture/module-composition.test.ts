import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');
const APPS = join(ROOT, 'apps');

/** Every app's module folder: apps/core-api/modules, apps/ai-service/modules, apps/marketplace/modules, apps/shared/modules. */
const MODULE_DIRS = readdirSync(APPS)
  .map((app) => join(APPS, app, 'modules'))
  .filter((dir) => existsSync(dir) && statSync(dir).isDirectory());

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative specifiers a file imports: static imports (type-only too), re-exports, `import()` and `require()`. */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) found.push((node.arguments[0] as ts.StringLiteral).text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('.'));
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolvePath(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

type Graph = Map<string, string[]>;

/** The import graph of the files under `apps/` reachable from the module folders (edges stay inside apps/). */
function appsGraph(): Graph {
  const graph: Graph = new Map();
  const pending = MODULE_DIRS.flatMap(tsFiles);
  while (pending.length) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const targets = specifiersOf(file)
      .map((s) => resolveImport(file, s))
      .filter((t): t is string => t !== null && t.startsWith(APPS + '/') && !t.startsWith(join(APPS, 'console') + '/'));
    graph.set(file, targets);
    pending.push(...targets);
  }
  return graph;
}

const isModuleFile = (file: string) => file.endsWith('.module.ts') && MODULE_DIRS.includes(dirname(file));
const inModuleDir = (file: string) => MODULE_DIRS.includes(dirname(file));

/** `importer → imported` pairs where a file of a module folder imports a module file (a sibling's or another app's). */
export function moduleImports(graph: Graph, isModule: (f: string) => boolean, inModules: (f: string) => boolean): string[] {
  return [...graph].flatMap(([from, targets]) => (inModules(from) ? targets.filter(isModule).map((to) => `${from} → ${to}`) : []));
}

/** Each cycle of the graph (Tarjan's strongly connected components of more than one file, or a file importing itself). */
export function cyclesOf(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

const rel = (text: string) => text.split(`${ROOT}/`).join('');

describe('architecture: the apps’ modules form a line, not a circle', () => {
  const graph = appsGraph();

  it('finds the module folders and their files', () => {
    expect(MODULE_DIRS.map((d) => relative(ROOT, d)).sort()).toEqual(expect.arrayContaining(['apps/core-api/modules', 'apps/shared/modules']));
    expect([...graph.keys()].filter(isModuleFile).length).toBeGreaterThan(30);
  });

  it('no file of a module folder imports a module file: a module takes what it shares from <area>.tokens.ts, or is passed it by the container', () => {
    expect(moduleImports(graph, isModuleFile, inModuleDir).map(rel)).toEqual([]);
  });

  it('a tokens file imports no file of a module folder but other tokens files (only identifiers and types, so any module can take it)', () => {
    const offenders = [...graph]
      .filter(([from]) => from.endsWith('.tokens.ts'))
      .flatMap(([from, targets]) => targets.filter((to) => inModuleDir(to) && !to.endsWith('.tokens.ts')).map((to) => `${from} → ${to}`));
    expect(offenders.map(rel)).toEqual([]);
  });

  it('the import graph of the modules (and what they import under apps/) has no cycle', () => {
    expect(cyclesOf(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('the rules themselves catch a module importing a sibling, and a ring', () => {
    const ring: Graph = new Map([
      ['m/billing.module.ts', ['m/conversations.module.ts', 'm/billing.tokens.ts']],
      ['m/conversations.module.ts', ['m/tools.module.ts']],
      ['m/tools.module.ts', ['m/billing.module.ts']],
      ['m/billing.tokens.ts', []],
      ['m/job-queues.ts', ['m/knowledge.module.ts']],
      ['m/knowledge.module.ts', []],
    ]);
    const isModule = (f: string) => f.endsWith('.module.ts');
    expect(moduleImports(ring, isModule, () => true)).toEqual([
      'm/billing.module.ts → m/conversations.module.ts',
      'm/conversations.module.ts → m/tools.module.ts',
      'm/tools.module.ts → m/billing.module.ts',
      'm/job-queues.ts → m/knowledge.module.ts',
    ]);
    expect(cyclesOf(ring)).toEqual([['m/billing.module.ts', 'm/conversations.module.ts', 'm/tools.module.ts']]);
    expect(cyclesOf(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts']]);
    const line: Graph = new Map([
      ['m/a.module.ts', ['m/a.tokens.ts', 'm/b.tokens.ts']],
      ['m/b.module.ts', ['m/b.tokens.ts', 'm/a.tokens.ts']],
      ['m/a.tokens.ts', []],
      ['m/b.tokens.ts', []],
    ]);
    expect(moduleImports(line, isModule, () => true)).toEqual([]);
    expect(cyclesOf(line)).toEqual([]);
  });
});
