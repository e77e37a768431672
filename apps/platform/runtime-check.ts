import { libraryRuntimeProblem } from '../shared/runtime';

/**
 * The library's first statement, for `require` and `import` alike (the CommonJS entry requires this module before
 * anything else, and the ES module entry imports it before the CommonJS entry): on an older Node.js the native
 * modules the platform loads (argon2, isolated-vm, fs-native-extensions) can crash the process (a segmentation
 * fault, exit 139) instead of failing, so the program stops here first with one line naming the version it found,
 * the one needed and the fix. `../shared/runtime` imports nothing.
 */
const problem = libraryRuntimeProblem('ai-app-platform');
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
