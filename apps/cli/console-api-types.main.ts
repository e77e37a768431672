import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CONSOLE_API_TYPES_FILE, generateConsoleApiTypes } from './console-api-types';

/**
 * `npm run console:api-types`: regenerates the console's API types from the core API's OpenAPI document.
 * With `--check`, writes nothing and fails when the committed types are stale (the test suite runs this).
 */
async function main(): Promise<void> {
  const text = await generateConsoleApiTypes();
  const file = relative(process.cwd(), CONSOLE_API_TYPES_FILE);
  if (process.argv.includes('--check')) {
    const committed = readFileSync(CONSOLE_API_TYPES_FILE, 'utf8');
    if (committed !== text) {
      process.stderr.write(`${file} is stale: run \`npm run console:api-types\` and commit the result\n`);
      process.exit(1);
    }
    process.stdout.write(`${file} is current\n`);
    return;
  }
  writeFileSync(CONSOLE_API_TYPES_FILE, text);
  process.stdout.write(`wrote ${file}\n`);
}

main().catch((error) => {
  process.stderr.write(`Could not generate the console's API types: ${(error as Error).message}\n`);
  process.exit(1);
});
