import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import ts from 'typescript';

/**
 * Issue 51: importing the library (apps/platform/index.ts), as a test using `createInMemoryPlatform` does, loads
 * no heavy adapter and adds no global. `createPlatform` requires its composition when it runs. This walks what
 * loading the entry evaluates: each file transpiled to CommonJS as the build does (imports used only as types are
 * gone), following the `require` calls of the module's top level (a `require` inside a function runs when
 * called, not at import), and checks the packages reached against the few the in-memory platform needs.
 * (bench/library-import.bench.ts measures the same in a fresh process: module count, time, memory, globals.)
 */
const ROOT = join(__dirname, '..', '..', '..');
const ENTRY = join(ROOT, 'apps', 'platform', 'index.ts');

/** The packages the library's import may load: validation, password hashing, tokens, the login rate limiter. */
const LIGHT = new Set(['yup', 'argon2', 'jsonwebtoken', 'rate-limiter-flexible']);

const BUILTINS = new Set(builtinModules);

/** The specifiers a module requires when it is loaded: `require` calls outside any function of the emitted CommonJS. */
export function topLevelRequires(fileName: string, source: string): string[] {
  const js = ts.transpileModule(source, {
    fileName,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, isolatedModules: true },
  }).outputText;
  const tree = ts.createSourceFile(`${fileName}.js`, js, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function resolveSource(from: string, specifier: string): string {
  const base = resolvePath(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`${relative(ROOT, from)}: cannot resolve ${specifier}`);
}

/** Each package the entry's import loads, with the first file of the repository that requires it. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of topLevelRequires(file, readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) pending.push(resolveSource(file, specifier));
      else if (!specifier.startsWith('node:') && !BUILTINS.has(specifier)) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, relative(ROOT, file));
      }
    }
  }
  return packages;
}

describe('architecture: the library imports light', () => {
  it('importing apps/platform/index.ts loads none of the heavy adapters (TypeORM, Inversify, reflect-metadata, SDKs, Stripe, PGlite...)', () => {
    const heavy = [...packagesLoadedBy(ENTRY)].filter(([name]) => !LIGHT.has(name)).map(([name, by]) => `${name} (required by ${by})`);
    expect(heavy).toEqual([]);
  });

  it('createPlatform still reaches the composition, loaded when it runs', () => {
    const platform = join(ROOT, 'apps', 'platform', 'platform.ts');
    const source = readFileSync(platform, 'utf8');
    expect(topLevelRequires(platform, source)).not.toContain('./composition');
    expect(source).toContain("require('./composition')");
    expect(topLevelRequires(join(ROOT, 'apps', 'platform', 'composition.ts'), readFileSync(join(ROOT, 'apps', 'platform', 'composition.ts'), 'utf8'))).toEqual(
      expect.arrayContaining(['reflect-metadata', '../core-api/core-api.container', './use-cases-of']),
    );
  });

  it('the walk tells a load-time require from a deferred one, and drops imports used only as types', () => {
    const source = [
      "import type { DataSource } from 'typeorm';",
      "import { Container } from 'inversify';",
      "import Stripe from 'stripe';",
      "import * as yup from 'yup';",
      'export const schema = yup.string();',
      'export const later = () => require("bullmq");',
      'export function typed(c: Container): DataSource | undefined { return undefined; }',
      'export const client = new Stripe("k");',
    ].join('\n');
    expect(topLevelRequires('x.ts', source).sort()).toEqual(['stripe', 'yup']);
  });
});
