import { runtimeProblem } from '../../apps/shared/runtime';
import { preparePGliteTemplate } from './pglite-template';

/**
 * Jest's global setup: the suite runs on the runtime the platform needs (`npm test` and `npx jest` take Node.js 24
 * from node_modules/.bin). On an older Node.js, or with a native module built for another runtime, no test runs and
 * the one line says which version was found and the fix. Then the migrated database template the in-memory test
 * databases start from (tests/support/pglite-template.ts), named to the workers in PGLITE_TEST_TEMPLATE.
 */
export default async function runtimeGlobalSetup(): Promise<void> {
  const problem = runtimeProblem();
  if (problem) throw new Error(problem);
  process.env.PGLITE_TEST_TEMPLATE = await preparePGliteTemplate();
}
