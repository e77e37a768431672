import { randomUUID } from 'node:crypto';
import { parseManifest } from '../../../core/plugins/domain/manifest';
import { checkSettings } from '../../../core/plugins/domain/settings';
import { nextState, type Installation, type InstallationState } from '../../../core/plugins/domain/installation';
import type { PluginDefinition, PluginTarget } from '../../../core/plugins/domain/definition';
import { PluginCallError, PluginRejectedError } from '../../../core/plugins/domain/plugin-errors';
import type { Plugin } from '../../../core/plugins/domain/plugin';
import type { InstallationRepository, PluginRun } from '../../../core/plugins/ports/installation-repository.port';
import type { PluginSandbox, SandboxInstance } from '../../../core/plugins/ports/plugin-sandbox.port';
import { PluginChatPolicy } from '../../../core/plugins/use-cases/plugin-chat.policy';
import { PluginRuntime } from '../../../core/plugins/use-cases/plugin-runtime';
import { ConflictError, ValidationError } from '../../../core/shared/errors';
import { noCache } from '../../../core/shared/cache.port';
import type { ChatTurn } from '../../../core/conversations/ports/chat-policy.port';

describe('plugin manifest', () => {
  it('fills defaults and keeps hosts as lower-case names', async () => {
    const m = await parseManifest({ name: 'ok-plugin', version: '1.0.0', main: 'index.js', permissions: { hosts: ['API.Example.com'] } });
    expect(m).toEqual({ name: 'ok-plugin', displayName: 'ok-plugin', version: '1.0.0', description: '', main: 'index.js', permissions: { hosts: ['api.example.com'], events: [] }, settings: {} });
  });

  it.each([
    [{ version: '1.0.0', main: 'index.js' }, 'manifest.name'],
    [{ name: 'x', version: 'v1', main: 'index.js' }, 'manifest.version'],
    // SemVer by the pattern, but a number past what a comparison can hold: the marketplace refuses it as well.
    [{ name: 'x', version: '99999999999999999999.0.0', main: 'index.js' }, 'manifest.version'],
    [{ name: 'x', version: '1.0.0', main: '../index.js' }, 'manifest.main'],
    [{ name: 'x', version: '1.0.0', main: 'index.js', permissions: { hosts: ['localhost:8080'] } }, 'manifest.permissions.hosts[0]'],
    [{ name: 'x', version: '1.0.0', main: 'index.js', permissions: { events: ['nope'] } }, 'manifest.permissions.events[0]'],
    [{ name: 'x', version: '1.0.0', main: 'index.js', settings: { n: { type: 'number', default: 'one' } } }, 'manifest.settings.n.default'],
    [{ name: 'x', version: '1.0.0', main: 'index.js', settings: { '1bad': { type: 'string' } } }, 'manifest.settings.1bad'],
  ])('names the bad field of %j', async (manifest, path) => {
    const error = await parseManifest(manifest).catch((e: ValidationError) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.map((d) => d.path)).toContain(path);
  });
});

describe('plugin settings', () => {
  const specs = { token: { type: 'string' as const, secret: true, required: true }, words: { type: 'array' as const, items: 'string' as const, default: ['a'] } };
  it('splits secrets from plain values and applies defaults', () => {
    expect(checkSettings(specs, { token: 't' })).toEqual({ plain: { words: ['a'] }, secrets: { token: 't' } });
  });
  it('names unknown, missing and mistyped settings', () => {
    const error = (() => {
      try {
        checkSettings(specs, { words: 'a', other: 1 });
      } catch (e) {
        return e as ValidationError;
      }
    })()!;
    expect(error.details.map((d) => d.path).sort()).toEqual(['settings.other', 'settings.token', 'settings.words']);
  });
});

describe('installation states (SPEC 3)', () => {
  it.each([
    ['installed', 'activate', 'activated'],
    ['activated', 'deactivate', 'deactivated'],
    ['deactivated', 'activate', 'activated'],
    ['installed', 'uninstall', null],
    ['deactivated', 'uninstall', null],
  ] as const)('%s --%s--> %s', (from, move, to) => expect(nextState(from, move)).toBe(to));
  it.each([
    ['activated', 'activate'],
    ['installed', 'deactivate'],
    ['deactivated', 'deactivate'],
    ['activated', 'uninstall'],
  ] as const)('refuses %s --%s--> with a 409 naming the state', (from, move) => {
    expect(() => nextState(from, move)).toThrow(ConflictError);
    expect(() => nextState(from, move)).toThrow(from);
  });
});

/** A sandbox that runs plain functions: the runtime's rules without the native module. */
class FunctionSandbox implements PluginSandbox {
  readonly loaded = new Map<string, Record<string, (arg: any) => unknown>>();
  constructor(private readonly code: Record<string, { definition: PluginDefinition; handlers: Record<string, (arg: any) => unknown> }>) {}
  async load(instance: SandboxInstance) {
    const entry = this.code[instance.source]!;
    this.loaded.set(instance.installationId, entry.handlers);
    return entry.definition;
  }
  isLoaded(id: string) {
    return this.loaded.has(id);
  }
  async call(id: string, target: PluginTarget, arg: unknown) {
    const handler = this.loaded.get(id)?.[target.name];
    if (!handler) throw new PluginCallError('not loaded', 'unavailable');
    try {
      return await handler(arg);
    } catch (e) {
      throw new PluginCallError((e as Error).message);
    }
  }
  dispose(id: string) {
    this.loaded.delete(id);
  }
  async close() {}
}

class InMemoryInstallations implements Partial<InstallationRepository> {
  rows = new Map<string, Installation>();
  runs: Omit<PluginRun, 'id' | 'at'>[] = [];
  add(applicationId: string, pluginId: string, state: InstallationState = 'activated'): Installation {
    const i: Installation = { id: randomUUID(), pluginId, applicationId, ownerId: 'o', state, version: '1.0.0', settings: {}, sealedSecrets: {}, callCount: 0, failureCount: 0, consecutiveFailures: 0, lastError: null, lastErrorAt: null, deactivationReason: null, installedAt: new Date(Date.now() + this.rows.size), updatedAt: new Date() };
    this.rows.set(i.id, i);
    return i;
  }
  async listActive(applicationId: string) {
    return [...this.rows.values()].filter((i) => i.applicationId === applicationId && i.state === 'activated').sort((a, b) => +a.installedAt - +b.installedAt);
  }
  async recordFailure(id: string, error: string) {
    const i = this.rows.get(id)!;
    i.failureCount++;
    i.consecutiveFailures++;
    i.lastError = error;
    return i.consecutiveFailures;
  }
  async resetConsecutiveFailures(id: string) {
    this.rows.get(id)!.consecutiveFailures = 0;
  }
  async move(id: string, from: InstallationState[], to: InstallationState, reason: string | null = null) {
    const i = this.rows.get(id)!;
    if (!from.includes(i.state)) return null;
    Object.assign(i, { state: to, deactivationReason: reason });
    return { ...i };
  }
  async addCalls() {}
  async recordRun(run: Omit<PluginRun, 'id' | 'at'>) {
    this.runs.push(run);
  }
}

const definition = (hooks: { name: any; priority: number }[]): PluginDefinition => ({ hooks, endpoints: [], cron: [], on: [], webhooks: [], adminPages: [], onActivate: false, onDeactivate: false, tools: [] });

function runtimeWith(code: ConstructorParameters<typeof FunctionSandbox>[0], installations: InMemoryInstallations, sources: Record<string, string>) {
  const plugins = { findById: async (id: string) => ({ id, source: sources[id]!, manifest: { permissions: { hosts: [], events: [] } } }) as unknown as Plugin };
  return new PluginRuntime({
    plugins: plugins as never,
    installations: installations as unknown as InstallationRepository,
    kv: {} as never,
    sandbox: new FunctionSandbox(code),
    http: {} as never,
    secretBox: { seal: (s) => s, open: (s) => s },
    cache: noCache,
    limits: { hook: { cpuMs: 50, wallMs: 1000 }, call: { cpuMs: 1000, wallMs: 10_000 }, maxKeysPerInstallation: 10 },
    log: () => undefined,
  });
}

describe('plugin filters on the chat path', () => {
  const turn = (applicationId: string): ChatTurn => ({ ownerId: 'o', application: { id: applicationId } as never, conversation: { id: 'c' } as never, content: 'hello', source: 'dashboard' as never });

  it('runs filters by priority, then installation order, and skips a failing one', async () => {
    const installations = new InMemoryInstallations();
    const runtime = runtimeWith(
      {
        late: { definition: definition([{ name: 'message:beforeSend', priority: 20 }]), handlers: { 'message:beforeSend': (v) => ({ ...v, content: v.content + ' late' }) } },
        early: { definition: definition([{ name: 'message:beforeSend', priority: 1 }]), handlers: { 'message:beforeSend': (v) => ({ ...v, content: v.content + ' early', systemPrompt: 'be brief' }) } },
        broken: { definition: definition([{ name: 'message:beforeSend', priority: 5 }]), handlers: { 'message:beforeSend': () => { throw new Error('boom'); } } },
      },
      installations,
      { p1: 'late', p2: 'early', p3: 'broken' },
    );
    installations.add('app', 'p1');
    installations.add('app', 'p2');
    const broken = installations.add('app', 'p3');
    const t = turn('app');
    const plan = { settings: { temperature: 0.2 } as Record<string, unknown> };
    await new PluginChatPolicy(runtime).prepare(t, plan);
    expect(t.content).toBe('hello early late');
    expect(plan.settings).toEqual({ temperature: 0.2, systemPrompt: 'be brief' });
    expect(installations.rows.get(broken.id)!.lastError).toMatch(/boom/);
  });

  it('refuses the turn with 422 when a filter rejects', async () => {
    const installations = new InMemoryInstallations();
    const runtime = runtimeWith({ no: { definition: definition([{ name: 'message:beforeSend', priority: 10 }]), handlers: { 'message:beforeSend': () => ({ reject: 'Not here' }) } } }, installations, { p: 'no' });
    installations.add('app', 'p');
    const error = await new PluginChatPolicy(runtime).prepare(turn('app'), { settings: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(PluginRejectedError);
    expect(error).toMatchObject({ status: 422, message: 'Not here' });
  });

  it('costs no sandbox call when the application has no active plugin', async () => {
    const installations = new InMemoryInstallations();
    installations.add('other', 'p', 'deactivated');
    const runtime = runtimeWith({}, installations, {});
    const t = turn('app');
    await new PluginChatPolicy(runtime).prepare(t, { settings: {} });
    expect(t.content).toBe('hello');
  });

  it('deactivates an installation after 5 failures in a row, and a success resets the count', async () => {
    const installations = new InMemoryInstallations();
    let fail = true;
    const runtime = runtimeWith({ flaky: { definition: definition([{ name: 'message:beforeSend', priority: 10 }]), handlers: { 'message:beforeSend': () => { if (fail) throw new Error('flaky'); } } } }, installations, { p: 'flaky' });
    const i = installations.add('app', 'p');
    const policy = new PluginChatPolicy(runtime);
    for (let n = 0; n < 4; n++) await policy.prepare(turn('app'), { settings: {} });
    fail = false;
    await policy.prepare(turn('app'), { settings: {} });
    expect(installations.rows.get(i.id)!.consecutiveFailures).toBe(0);
    fail = true;
    for (let n = 0; n < 5; n++) await policy.prepare(turn('app'), { settings: {} });
    expect(installations.rows.get(i.id)).toMatchObject({ state: 'deactivated', deactivationReason: expect.stringMatching(/5 failures in a row/) });
  });
});
