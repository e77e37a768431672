import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { projectRoot } from '../shared/project-root';

/** The example plugins of docs/plugins.md. */
export const DOC_EXAMPLES = ['profanity-filter', 'conversation-counter'] as const;
export type DocExampleName = (typeof DOC_EXAMPLES)[number];

/**
 * An example plugin of docs/plugins.md, read from the page itself (the code block after each
 * `<!-- example: <name>/<file> -->` marker), so the guide, the tests and the marketplace seed cannot drift apart.
 */
export function docExample(name: DocExampleName, page = readFileSync(join(projectRoot(), 'docs', 'plugins.md'), 'utf8')): { manifest: Record<string, unknown>; source: string } {
  const block = (file: string) => {
    const marker = `<!-- example: ${name}/${file} -->`;
    const at = page.indexOf(marker);
    if (at < 0) throw new Error(`docs/plugins.md has no ${marker}`);
    const m = /```[a-z]*\n([\s\S]*?)\n```/.exec(page.slice(at));
    if (!m) throw new Error(`no code block after ${marker}`);
    return m[1]!;
  };
  return { manifest: JSON.parse(block('manifest.json')) as Record<string, unknown>, source: block('index.js') };
}

/** A ZIP of name → content, made with yazl. */
export function zipFiles(files: Record<string, string | Buffer>, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress: options.compress ?? true });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** An example plugin as the ZIP package a local install or a marketplace submission takes. */
export async function docExamplePackage(name: DocExampleName): Promise<{ manifest: Record<string, unknown>; zip: Buffer }> {
  const { manifest, source } = docExample(name);
  const main = typeof manifest.main === 'string' ? manifest.main : 'index.js';
  return { manifest, zip: await zipFiles({ 'manifest.json': JSON.stringify(manifest, null, 2), [main]: source }) };
}
