import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../adapters/shared/project-root';

/**
 * `ts-node --swc apps/cli/pack-lib.main.ts [destination]`: the library's tarball as another project installs it.
 * Builds the library (`build-lib`), stages the package's files in `dist/package` with the manifest a consumer
 * needs, and packs that folder. The manifest keeps the name, version, entry points, engines and runtime
 * dependencies; it drops what belongs to this repository: the devDependencies, the scripts (they run the
 * repository's sources, which are not packed), `private`, and the optional Node.js binaries (`node-linux-*`),
 * which would put another Node.js into the consumer's `node_modules/.bin` and under its `npm run` scripts.
 * Prints the tarball's path.
 */
export function packedManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const { private: _private, scripts: _scripts, devDependencies: _dev, optionalDependencies, allowScripts: _allow, ...kept } = manifest;
  const optional = Object.fromEntries(Object.entries((optionalDependencies ?? {}) as Record<string, string>).filter(([name]) => !/^node(-|$)/.test(name)));
  return { ...kept, ...(Object.keys(optional).length ? { optionalDependencies: optional } : {}) };
}

function main(): void {
  const root = projectRoot();
  const destination = resolve(process.argv[2] ?? root);
  execFileSync(process.execPath, [require.resolve('ts-node/dist/bin'), '--swc', join(root, 'apps', 'cli', 'build-lib.main.ts')], { stdio: 'inherit', cwd: root });
  const stage = join(root, 'dist', 'package');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & { files: string[] };
  // The files the manifest lists (globs of the OpenAPI documents resolved by npm when packing the stage).
  for (const entry of ['dist/lib', 'docs/openapi', 'docs/plugins.md', 'docs/library.md', 'public/widget.js', 'public/favicon.ico', 'README.md']) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(packedManifest(manifest), null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const out = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination, stage], { cwd: root, encoding: 'utf8' });
  process.stdout.write(`${join(destination, out.trim().split('\n').at(-1)!)}\n`);
}

if (require.main === module) main();
