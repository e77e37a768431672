import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';

/** The example plugins of docs/plugins.md, read from the page itself so the guide and the tests cannot drift apart. */
export function docExample(name: 'profanity-filter' | 'conversation-counter'): { manifest: Record<string, unknown>; source: string } {
  const page = readFileSync(join(__dirname, '../../../docs/plugins.md'), 'utf8');
  const block = (file: string) => {
    const marker = `<!-- example: ${name}/${file} -->`;
    const at = page.indexOf(marker);
    if (at < 0) throw new Error(`docs/plugins.md has no ${marker}`);
    const m = /```[a-z]*\n([\s\S]*?)\n```/.exec(page.slice(at));
    if (!m) throw new Error(`no code block after ${marker}`);
    return m[1]!;
  };
  return { manifest: JSON.parse(block('manifest.json')), source: block('index.js') };
}

/** A small plugin package for tests: a manifest around `source`. */
export function aPlugin(source: string, manifest: Record<string, unknown> = {}) {
  return { manifest: { name: `p-${Math.random().toString(36).slice(2, 10)}`, version: '1.0.0', main: 'index.js', ...manifest }, source };
}

/** A ZIP made with yazl from name → content. */
export function zipOf(files: Record<string, string | Buffer>, options: { compress?: boolean } = {}): Promise<Buffer> {
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
