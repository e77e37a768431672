import { join } from 'node:path';
import { consolePages } from '../../../adapters/http/console/console-pages.middleware';
import { projectRoot } from '../../../adapters/shared/project-root';
import type { AppModule } from '../../shared/app-module';

/** Where `npm run build:console` writes the console (docs/console.md). */
export const CONSOLE_DIST_DIR = join(projectRoot(), 'apps', 'console', 'dist');

/** The web console at `/` (CONSOLE.md): the built browser app, behind every API route. */
export function consoleModule(distDir = CONSOLE_DIST_DIR): AppModule {
  return {
    name: 'console',
    bind() {},
    middleware: () => [consolePages(distDir)],
  };
}
