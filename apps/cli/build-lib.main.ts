import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../adapters/shared/project-root';

/**
 * `npm run build:lib`: the library build (docs/library.md). CommonJS and declarations by tsc
 * (tsconfig.lib.json), then the ES module entry: one module that re-exports the CommonJS build's
 * names, so both entries share one instance of every class (an error thrown by the core is
 * `instanceof` the class either import gave). The ES module entry imports the runtime check first, as the
 * CommonJS entry requires it first: an older Node.js stops with one line, never in a native module.
 */
const root = projectRoot();
const out = join(root, 'dist', 'lib');
rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.lib.json')], { stdio: 'inherit', cwd: root });

const cjsEntry = join(out, 'cjs', 'apps', 'platform', 'index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = Object.keys(require(cjsEntry) as object).filter((n) => n !== '__esModule' && n !== 'default').sort();
mkdirSync(join(out, 'esm'), { recursive: true });
writeFileSync(
  join(out, 'esm', 'index.mjs'),
  [
    // Imports are evaluated in order before the module's body: the runtime check runs before the library loads.
    `import '../cjs/apps/platform/runtime-check.js';`,
    `import library from '../cjs/apps/platform/index.js';`,
    ``,
    `export const { ${names.join(', ')} } = library;`,
    `export default library;`,
    ``,
  ].join('\n'),
);
writeFileSync(join(out, 'esm', 'index.d.mts'), `export * from '../types/apps/platform/index.js';\n`);
process.stdout.write(`library built into ${out} (${names.length} runtime exports)\n`);
