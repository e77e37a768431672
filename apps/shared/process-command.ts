import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../adapters/shared/project-root';

/**
 * What this process runs, as its operator would type it: the npm script whose command starts this entry point
 * (`npm start`, `npm run migrate`), else `node <entry point>`. A process refused the embedded database names its
 * holder with this.
 */
export function processCommand(entry: string | undefined = process.argv[1]): string {
  if (!entry) return 'node';
  const root = projectRoot();
  const path = relative(root, entry).split('\\').join('/');
  try {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    // An entry point run from source is the one a script runs compiled (`npm start` runs `dist/start/…/main.js`).
    const compiled = `dist/start/${path.replace(/\.ts$/, '.js')}`;
    for (const [name, command] of Object.entries(scripts ?? {})) {
      const words = command.split(/\s+/);
      if (words.includes(path) || words.includes(compiled)) return name === 'start' ? 'npm start' : `npm run ${name}`;
    }
  } catch {
    // no package.json beside the code (an unusual install): the entry point names it well enough
  }
  return `node ${path}`;
}
