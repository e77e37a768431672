import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const FORBIDDEN = /from\s+['"](koa|@koa\/[^'"]*|koa-body|typeorm[^'"]*|pg|pgvector|inversify|openai|@anthropic-ai\/[^'"]*|@google\/generative-ai|@huggingface\/[^'"]*|stripe|argon2|ioredis|bullmq|rate-limiter-flexible|jsonwebtoken|nodemailer|pino|@electric-sql\/[^'"]*)['"]|from\s+['"](\.\.\/)+(adapters|apps)\//;
const REQUIRE = /require\(\s*['"](koa|typeorm|pg|inversify|openai|argon2|ioredis|bullmq)['"]\s*\)/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('architecture: the core stays framework-free', () => {
  it('no file under core/ imports a framework, driver, SDK, adapters/ or apps/', () => {
    const offenders = tsFiles(join(ROOT, 'core')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => FORBIDDEN.test(line) || REQUIRE.test(line))
        .map(({ line, i }) => `${relative(ROOT, file)}:${i + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the rule itself catches a forbidden import', () => {
    expect(FORBIDDEN.test("import Koa from 'koa';")).toBe(true);
    expect(FORBIDDEN.test("import { x } from '../../adapters/http/x';")).toBe(true);
    expect(FORBIDDEN.test("import * as yup from 'yup';")).toBe(false);
  });
});

/** An import of apps/ by a relative path, e.g. `../../apps/shared/config`. */
const APPS_IMPORT = /(?:from\s+|import\(\s*|require\(\s*)['"](?:\.\.\/)+apps\//;

describe('architecture: adapters do not reach up into the apps', () => {
  it('no file under adapters/ imports apps/ (configuration and entry points live in apps/, and pass what adapters need)', () => {
    const offenders = tsFiles(join(ROOT, 'adapters')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => APPS_IMPORT.test(line))
        .map(({ line, i }) => `${relative(ROOT, file)}:${i + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('command-line entry points (*.main.ts) live in apps/ only', () => {
    const mains = [...tsFiles(join(ROOT, 'adapters')), ...tsFiles(join(ROOT, 'core'))].filter((f) => f.endsWith('.main.ts'));
    expect(mains.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('the rule itself catches an import of apps/', () => {
    expect(APPS_IMPORT.test("import { loadConfig } from '../../apps/shared/config';")).toBe(true);
    expect(APPS_IMPORT.test("const { x } = await import('../../apps/shared/config');")).toBe(true);
    expect(APPS_IMPORT.test("import { openDatabase } from './data-source';")).toBe(false);
    expect(APPS_IMPORT.test("import { x } from '../../core/apps/thing';")).toBe(false);
  });
});

describe('architecture: the core parses documents through its port', () => {
  it('no file under core/ imports a package other than yup or node:*', () => {
    const offenders = tsFiles(join(ROOT, 'core')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => /^\s*(import|export)\b.*\sfrom\s+['"](?!\.|node:|yup['"])/.test(line))
        .map(({ line, i }) => `${relative(ROOT, file)}:${i + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});

/** Every import specifier of a file (static, dynamic, re-export). */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

function consoleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? consoleFiles(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('architecture: the console is a thin shell over HTTP', () => {
  const SRC = join(ROOT, 'apps', 'console', 'src');
  const resolveFrom = (file: string, spec: string) => (spec.startsWith('.') ? relative(ROOT, join(file, '..', spec)) : spec);

  it('no console file imports core/, adapters/ or another app (it knows the platform through HTTP and the generated types only)', () => {
    const offenders = consoleFiles(SRC).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((spec) => resolveFrom(file, spec))
        .filter((target) => /^(core|adapters|apps\/(?!console\/))/.test(target) || /^(\.\.\/)+/.test(target))
        .map((target) => `${relative(ROOT, file)} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('areas never import each other (shared pieces live in components/ and lib/)', () => {
    const offenders = consoleFiles(join(SRC, 'routes')).flatMap((file) => {
      const area = relative(join(SRC, 'routes'), file).split('/')[0];
      return importsOf(readFileSync(file, 'utf8'))
        .map((spec) => resolveFrom(file, spec))
        .filter((target) => target.startsWith('apps/console/src/routes/') && target.split('/')[4] !== area)
        .map((target) => `${relative(ROOT, file)} imports ${target}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the rule itself catches a console import of the core', () => {
    const file = join(SRC, 'routes', 'applications', 'x.tsx');
    expect(resolveFrom(file, '../../../../../core/applications/domain/application')).toBe('core/applications/domain/application');
    expect(importsOf("import { a } from '../../lib/x';\nconst m = import('../y');")).toEqual(['../../lib/x', '../y']);
  });
});
