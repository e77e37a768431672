import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aDocx, aPdf, wordParagraph } from '../../support/document-fixtures';
import { freePort, serviceOf, type Service } from '../../support/spawn-service';
import { waitFor } from '../../support/wait-for';

const ROOT = join(__dirname, '..', '..', '..');

interface Block {
  heading: string;
  text: string;
}

/** The ```bash blocks of the README's tour (from "## First steps" to the next "## " heading), as written. */
function tourBlocks(readme: string): Block[] {
  const start = readme.indexOf('\n## First steps');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(0);
  const tour = readme.slice(start, end);
  const blocks: Block[] = [];
  let heading = 'First steps';
  const lines = tour.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{2,3} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line !== '```bash') continue;
    const body: string[] = [];
    while (lines[++i] !== '```') body.push(lines[i]!);
    blocks.push({ heading, text: body.join('\n') });
  }
  return blocks;
}

/** Which step of the tour a block is, by what it calls; a new block gets its name and its checks here. */
function nameOf(block: Block): string {
  const names: Array<[string, RegExp]> = [
    ['first steps', /\/api\/auth\/register/],
    ['refresh', /\/api\/auth\/refresh/],
    ['widget', /\/public\/widget\.js/],
    ['public api', /\/api\/v1\/chat/],
    ['documents', /file=@handbook\.pdf/],
    ['tools', /\/api\/v1\/mcp/],
    ['brand', /\/theme\/customize/],
    ['templates and teams', /\/api\/templates/],
    ['admin plan', /\/api\/admin\/users/],
  ];
  const found = names.find(([, pattern]) => pattern.test(block.text));
  if (!found) throw new Error(`A README block under "${block.heading}" that this test does not know: give it a name and checks here\n${block.text}`);
  return found[0];
}

/** A block run as a pasted command in its own terminal (its own process group, so that stopping it stops npm and node). */
function terminal(script: string, env: NodeJS.ProcessEnv): Service {
  return serviceOf(spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
}

const stopGroup = async (service: Service) => {
  if (service.child.exitCode === null && service.child.signalCode === null) process.kill(-service.child.pid!, 'SIGTERM');
  return service.exited;
};

/**
 * The README's tour, run as a newcomer pastes it: every ```bash block of "First steps" as written (only the ports
 * moved to free ones), in one bash session, against `npm start` and the provider emulator started by the README's own
 * blocks in a temporary DATA_DIR. Each block's printed result is checked.
 */
describe('the README tour, run as written', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-readme-'));
  // The reader's folder: the documents block uploads the reader's own handbook.pdf and policies.docx from it.
  const workDir = mkdtempSync(join(tmpdir(), 'platform-readme-cwd-'));
  const servers: Service[] = [];
  afterAll(async () => {
    for (const server of servers) await stopGroup(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('every block pastes as is and prints what it says', async () => {
    const ports = { core: await freePort(), ai: await freePort(), market: await freePort(), emulator: await freePort() };
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = tourBlocks(readme).map((b) => ({
      ...b,
      // The only change: the documented ports become free ones, so that the test runs beside anything else.
      text: b.text.replaceAll('localhost:3000', `localhost:${ports.core}`).replaceAll('127.0.0.1:4010', `127.0.0.1:${ports.emulator}`),
    }));
    const emulatorBlock = blocks.find((b) => b.text.trim() === 'npm run emulator');
    const startBlock = blocks.find((b) => /\nnpm start$/.test(b.text) && b.text.includes('PROVIDER_A_BASE_URL'));
    expect(emulatorBlock && startBlock).toBeTruthy();

    // A clean environment: the variables the README's blocks set must come from the blocks themselves.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(ports.core),
      AI_SERVICE_PORT: String(ports.ai),
      MARKETPLACE_PORT: String(ports.market),
      EMULATOR_PORT: String(ports.emulator),
      // The admin block's premise: the platform started with the reader's e-mail in ADMIN_EMAILS.
      ADMIN_EMAILS: 'you@example.com',
      LOG_LEVEL: 'info',
    };

    const emulator = terminal(emulatorBlock!.text, env);
    servers.push(emulator);
    await waitFor(() => emulator.output().includes('Provider emulator listening on'), 60_000);
    expect(emulator.output()).toContain(`PROVIDER_A_BASE_URL=http://127.0.0.1:${ports.emulator}/provider_a/v1`);

    const platform = terminal(startBlock!.text, env);
    servers.push(platform);
    const docs = `http://127.0.0.1:${ports.core}/api/docs`;
    await waitFor(() => platform.output().includes(`API reference: ${docs}`) || platform.child.exitCode !== null, 90_000);
    expect(platform.child.exitCode).toBeNull();
    expect((await fetch(docs)).status).toBe(200);

    // The tour in one terminal, block after block; a marker and the variables the blocks set are printed after each.
    const steps: Array<{ name: string; text: string; subshell?: boolean }> = [];
    for (const block of blocks.filter((b) => b !== emulatorBlock && b !== startBlock)) {
      const name = nameOf(block);
      steps.push({ name, text: block.text });
      // Safe to run again, as the README says: the first steps block, and the widget block in the same terminal.
      if (name === 'first steps') steps.push({ name: 'first steps again', text: block.text });
      if (name === 'widget') {
        steps.push({ name: 'widget again', text: block.text });
        // In a new terminal ($KEY gone; a subshell, so the tour's terminal keeps its key) another key is made; in a third
        // one too, past the Free plan's two, since the reader is the platform's admin.
        steps.push({ name: 'widget, new terminal', text: block.text, subshell: true });
        steps.push({ name: 'widget, third terminal', text: block.text, subshell: true });
      }
    }
    const script = steps
      .map((step, i) => {
        const run = `${step.text}\nprintf '@@vars TOKEN=%s APP=%s KEY=%s\\n' "\${TOKEN:+set}" "$APP" "$KEY"`;
        return `printf '@@${i}@@\\n'\n${step.subshell ? `(\nunset KEY CREATED\n${run}\n)` : run}`;
      })
      .join('\n');
    writeFileSync(join(workDir, 'handbook.pdf'), await aPdf(['Welcome to the company.', 'Sick leave: tell your manager before 9am on the first day.']));
    writeFileSync(
      join(workDir, 'policies.docx'),
      await aDocx(wordParagraph('Leave', 'Heading1') + wordParagraph('Sick leave is paid from the first day for up to ten days a year.')),
    );
    const session = serviceOf(spawn('bash', ['-c', script], { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(await session.exited).toBe(0);
    const output = session.output();
    const parts = new Map<string, { text: string; lines: string[]; vars: Record<string, string> }>();
    steps.forEach((step, i) => {
      const from = output.indexOf(`@@${i}@@\n`) + `@@${i}@@\n`.length;
      const to = output.indexOf('@@vars ', from);
      const vars = Object.fromEntries(output.slice(to + '@@vars '.length, output.indexOf('\n', to)).split(' ').map((kv) => kv.split('=') as [string, string]));
      const text = output.slice(from, to);
      parts.set(step.name, { text, lines: text.split('\n').filter(Boolean), vars });
    });
    const part = (name: string) => {
      const found = parts.get(name);
      if (!found) throw new Error(`no output of "${name}" in:\n${output}`);
      return found;
    };
    /** A printed line that is a JSON answer, never an error body. */
    const answer = (line: string | undefined): Record<string, any> => {
      const value = JSON.parse(line ?? 'null') as Record<string, any>;
      expect({ line, error: value.statusCode ?? null }).toEqual({ line, error: null });
      return value;
    };
    expect(output).not.toMatch(/command not found|SyntaxError|Unexpected end of JSON/);
    // Every block leaves the prompt on a line of its own: whatever it prints ends with a newline.
    for (const [name, { text }] of parts) expect({ name, endsWithNewline: text === '' || text.endsWith('\n') }).toEqual({ name, endsWithNewline: true });

    for (const name of ['first steps', 'first steps again']) {
      const { lines, vars } = part(name);
      expect(lines).toHaveLength(2);
      expect(answer(lines[0])).toMatchObject({ provider: 'provider_a', isActive: true });
      expect(answer(lines[1])).toMatchObject({ provider: 'provider_a', message: { role: 'assistant', content: 'Echo: Hello!' } });
      expect(vars).toMatchObject({ TOKEN: 'set', APP: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    const app = part('first steps').vars.APP!;
    expect(part('first steps again').vars.APP).toBe(app); // the application is found again, not made twice
    expect(part('refresh')).toEqual({ text: '', lines: [], vars: expect.objectContaining({ TOKEN: 'set' }) });

    const tag = (key: string) => `<script src="http://localhost:${ports.core}/public/widget.js" data-app-id="${app}" data-api-key="${key}" async></script>`;
    const key = part('widget').vars.KEY!;
    expect(key).toMatch(/^pk_live_\S{20,}$/);
    expect(part('widget').lines).toEqual([tag(key)]);
    expect(part('widget again')).toMatchObject({ lines: [tag(key)], vars: { KEY: key } });
    const secondKey = part('widget, new terminal').vars.KEY!;
    expect(secondKey).toMatch(/^pk_live_/);
    expect(secondKey).not.toBe(key);
    expect(part('widget, new terminal').lines).toEqual([tag(secondKey)]);
    // The reader is the platform's admin (ADMIN_EMAILS, the admin block's premise), whom no plan limit holds: a third key.
    const thirdKey = part('widget, third terminal').vars.KEY!;
    expect(thirdKey).toMatch(/^pk_live_/);
    expect(part('widget, third terminal').lines).toEqual([tag(thirdKey)]);
    expect(output).not.toContain('data-api-key=""');

    expect(part('public api').lines).toHaveLength(1);
    expect(JSON.stringify(answer(part('public api').lines[0]))).toContain('Echo: Hello');

    const [pdf, docx, search] = part('documents').lines.map(answer);
    expect({ file: JSON.stringify(pdf).includes('handbook.pdf'), status: pdf.status }).toEqual({ file: true, status: 'processing' });
    expect({ file: JSON.stringify(docx).includes('policies.docx'), status: docx.status }).toEqual({ file: true, status: 'processing' });
    const hits = JSON.stringify(search);
    expect(hits).toContain('"page":2');
    expect(hits).toContain('"section":"Leave"');

    const brand = part('brand').lines;
    expect(answer(brand[0])).toMatchObject({ id: app, theme: { themeId: 'dark' } });
    expect(answer(brand[1])).toMatchObject({ theme: { customization: { colors: { primary: '#0a7d4f' } } } });
    expect(answer(brand[2])).toMatchObject({ widget: { position: 'bottom-left', welcomeMessage: 'Hi! How can we help?' } });
    expect(brand).toContain('  --ap-color-primary: #0a7d4f;');
    const hosted = brand[brand.length - 1]!;
    expect(hosted).toMatch(new RegExp(`^http://localhost:${ports.core}/chat/support-bot$`));
    const page = await fetch(hosted.replace('localhost', '127.0.0.1'));
    expect({ status: page.status, type: page.headers.get('content-type') }).toEqual({ status: 200, type: expect.stringContaining('text/html') });

    const [templates, run, invitation, transferred] = part('templates and teams').lines;
    expect(templates!.split(' ')).toContain('document-summariser');
    expect(answer(run)).toMatchObject({ input: { title: 'Release notes' }, status: expect.stringMatching(/^(completed|running|pending)$/) });
    const invited = answer(invitation);
    expect(invited).toMatchObject({ email: 'colleague@example.com', role: 'member' });
    expect(answer(transferred)).toMatchObject({ id: app, teamId: invited.teamId });

    const [tool, agent, turn, ...mcp] = part('tools').lines;
    expect(answer(tool)).toMatchObject({ name: 'order_status', source: { type: 'http' } });
    expect(answer(agent)).toMatchObject({ enabledTools: ['order_status'], maxToolRounds: 3 });
    // The chat turn called the tool (example.com's shop is not there: the call failed, and the model said so).
    expect(answer(turn)).toMatchObject({
      toolCalls: [{ name: 'order_status', arguments: { order: '123456' }, isError: true }],
      message: { role: 'assistant', content: expect.stringContaining('order_status returned: Error:') },
    });
    expect(part('tools').text).not.toContain('shp_live_123'); // the tool's secret is stored, never shown
    expect(mcp.join('\n')).toContain('Echo: Hello');

    expect(part('admin plan').lines).toHaveLength(1);
    expect(answer(part('admin plan').lines[0])).toMatchObject({ plan: 'enterprise', effectivePlan: 'enterprise' });
  }, 180_000);
});
