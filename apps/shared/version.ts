import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../adapters/shared/project-root';

/** The platform version, from package.json. */
export const PLATFORM_VERSION: string = (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
