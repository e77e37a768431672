import { runtimeProblem } from '../../apps/shared/runtime';

/**
 * Jest's global setup: the suite runs on the runtime the platform needs (`npm test` and `npx jest` take Node.js 24
 * from node_modules/.bin). On an older Node.js, or with a native module built for another runtime, no test runs and
 * the one line says which version was found and the fix.
 */
export default function runtimeGlobalSetup(): void {
  const problem = runtimeProblem();
  if (problem) throw new Error(problem);
}
