import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EVENT_TYPES } from '../../../core/events/domain/domain-event';

const ROOT = join(__dirname, '../../..');
/** The documents a user of the product reads. */
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

describe('the product docs', () => {
  it.each(DOCS)('%s names no specification section, issue number or file outside the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toMatch(/\bSPEC\b|\b[Ii]ssue \d|\(issue\b|\.\.\/shared\//);
  });

  it.each(DOCS)('%s links only files that exist in the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const links = [...text.matchAll(/\]\((?!https?:|#|mailto:)([^)\s#]+)/g)].map((m) => m[1]!);
    expect(links.filter((link) => !existsSync(resolve(dirname(join(ROOT, file)), link)))).toEqual([]);
  });

  it('README shows the four emulator variables, the widget snippet and the allowedOrigins step', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const id of ['A', 'B', 'C', 'D']) expect(readme).toContain(`PROVIDER_${id}_BASE_URL=http://127.0.0.1:4010/provider_${id.toLowerCase()}`);
    for (const service of ['OpenAI', 'Anthropic', 'Google Gemini', 'Hugging Face']) expect(readme).toContain(service);
    expect(readme).toContain('/public/widget.js');
    expect(readme).toContain('"allowedOrigins"');
    expect(readme).toContain('/api/auth/refresh');
    // The emulator runs in the foreground: its block is on its own, in a second terminal, and its port variable named.
    expect(readme).toMatch(/second\s+terminal/);
    expect(readme).toContain('`EMULATOR_PORT`');
    expect(readme).toContain('```bash\nnpm run emulator\n```');
  });

  it('README counts the event types the API has', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`The ${EVENT_TYPES.length} event types`);
  });
});
