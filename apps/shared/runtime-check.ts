import { assertRuntime } from './runtime';

/**
 * Imported first by every entry point (`*.main.ts`, `apps/*\/main.ts`): an older Node.js or a native module built for
 * another runtime stops the process here with one line, before the rest of the program loads.
 */
assertRuntime();
