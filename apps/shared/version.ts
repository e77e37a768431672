import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The platform version, from package.json. */
export const PLATFORM_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
