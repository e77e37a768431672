/**
 * Ends the run with the ten slowest test files (where the suite's time goes: it has a 25-minute budget on two cores)
 * and one plain line, `tests: N passed, N failed, N skipped`, that any CI can read.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const files = results.testResults
      .map((file) => ({ path: file.testFilePath.replace(process.cwd() + '/', ''), ms: file.perfStats.end - file.perfStats.start, start: file.perfStats.start }))
      .filter((file) => Number.isFinite(file.ms))
      .sort((a, b) => b.ms - a.ms);
    // Every file's time and start, for finding where the suite's time goes (CI keeps test-output/).
    try {
      mkdirSync(join(process.cwd(), 'test-output'), { recursive: true });
      writeFileSync(join(process.cwd(), 'test-output', 'test-times.json'), JSON.stringify(files, null, 1));
    } catch {
      // a read-only checkout still gets the summary below
    }
    const slowest = files.slice(0, 10);
    if (slowest.length > 1) {
      process.stdout.write('\nslowest test files:\n');
      for (const file of slowest) process.stdout.write(`  ${(file.ms / 1000).toFixed(1).padStart(7)} s  ${file.path}\n`);
    }
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stdout.write(`\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
