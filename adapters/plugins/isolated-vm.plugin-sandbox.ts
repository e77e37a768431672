import ivm from 'isolated-vm';
import { ConflictError, ValidationError } from '../../core/shared/errors';
import type { PluginDefinition, PluginTarget } from '../../core/plugins/domain/definition';
import { ENDPOINT_METHODS, isHookName } from '../../core/plugins/domain/definition';
import { PluginCallError } from '../../core/plugins/domain/plugin-errors';
import type { CallLimits, PluginHost, PluginSandbox, SandboxInstance } from '../../core/plugins/ports/plugin-sandbox.port';
import { BOOTSTRAP } from './sandbox-bootstrap';

export interface IsolatedVmSandboxOptions {
  /** Heap limit of each isolate (PLUGIN_MEMORY_MB). */
  memoryMb: number;
  /** Isolates unused this long are disposed (created again on next use). */
  idleMs?: number;
  /**
   * Isolates loaded at once (PLUGIN_MAX_ISOLATES): loading one more first disposes the least recently used
   * one that has no call running, which is loaded again on its next use, as after `idleMs`.
   */
  maxLoaded?: number;
  /** Largest JSON a handler may return. */
  maxResultChars?: number;
  onError?(installationId: string, message: string): void;
}

interface Instance {
  isolate: ivm.Isolate;
  context: ivm.Context;
  invoke: ivm.Reference<(kind: string, name: string, arg: string, depth: number) => Promise<string>>;
  lastUsed: number;
  /** Calls running in it: an isolate is never unloaded under one. */
  calls: number;
}

const MAX_ARG_CHARS = 2 * 1024 * 1024;

/**
 * One isolated-vm isolate per loaded installation (EXTENSIONS.md "The sandbox"): its own heap with a
 * limit, no Node APIs, CPU time limited per call, wall time enforced by disposing the isolate, and
 * values crossing only as JSON text.
 */
export class IsolatedVmPluginSandbox implements PluginSandbox {
  private readonly instances = new Map<string, Instance>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly options: IsolatedVmSandboxOptions) {
    const idleMs = options.idleMs ?? 10 * 60_000;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, instance] of this.instances) if (now - instance.lastUsed > idleMs) this.dispose(id);
    }, Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  isLoaded(installationId: string): boolean {
    const instance = this.instances.get(installationId);
    return !!instance && !instance.isolate.isDisposed;
  }

  async load(instance: SandboxInstance, limits: CallLimits): Promise<PluginDefinition> {
    this.dispose(instance.installationId);
    this.makeRoom();
    const isolate = new ivm.Isolate({
      memoryLimit: this.options.memoryMb,
      onCatastrophicError: (message) => this.options.onError?.(instance.installationId, `catastrophic isolate error: ${message}`),
    });
    try {
      const context = await isolate.createContext();
      const hostRef = new ivm.Reference(hostFunction(instance.host));
      const invoke = (await context.evalClosure(BOOTSTRAP, [hostRef, JSON.stringify(instance.settings), this.options.maxResultChars ?? 1024 * 1024], {
        result: { reference: true },
        timeout: limits.cpuMs,
      })) as unknown as Instance['invoke'];
      const script = await isolate.compileScript(instance.source, { filename: 'plugin.js' });
      await withWallLimit(script.run(context, { timeout: limits.cpuMs }), limits.wallMs, () => isolate.dispose());
      const entry: Instance = { isolate, context, invoke, lastUsed: Date.now(), calls: 0 };
      this.instances.set(instance.installationId, entry);
      const described = await this.call(instance.installationId, { kind: 'lifecycle', name: 'describe' as never }, null, limits, 0, 'describe');
      return checkDefinition(described as PluginDefinition);
    } catch (error) {
      this.dispose(instance.installationId);
      if (!isolate.isDisposed) isolate.dispose();
      throw asCallError(error, isolate);
    }
  }

  async call(installationId: string, target: PluginTarget, arg: unknown, limits: CallLimits, depth = 0, kind?: 'describe'): Promise<unknown> {
    const instance = this.instances.get(installationId);
    if (!instance || instance.isolate.isDisposed) {
      this.instances.delete(installationId);
      throw new PluginCallError('the plugin is not loaded', 'unavailable');
    }
    instance.lastUsed = Date.now();
    const argText = JSON.stringify(arg ?? null);
    if (argText.length > MAX_ARG_CHARS) throw new PluginCallError('the call argument is too large', 'result');
    instance.calls++;
    try {
      const run = instance.invoke.apply(undefined, [kind ?? target.kind, target.name, argText, depth], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: limits.cpuMs,
      });
      const text = await withWallLimit(run, limits.wallMs, () => this.dispose(installationId));
      return JSON.parse(text as string);
    } catch (error) {
      const failure = asCallError(error, instance.isolate);
      if (instance.isolate.isDisposed || failure.reason === 'timeout') this.dispose(installationId);
      throw failure;
    } finally {
      instance.calls--;
    }
  }

  /** Below `maxLoaded`, by unloading the least recently used isolates that have no call running. */
  private makeRoom(): void {
    const max = this.options.maxLoaded ?? Infinity;
    if (this.instances.size < max) return;
    const idle = [...this.instances].filter(([, instance]) => instance.calls === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [id] of idle) {
      if (this.instances.size < max) return;
      this.dispose(id);
    }
  }

  dispose(installationId: string): void {
    const instance = this.instances.get(installationId);
    if (!instance) return;
    this.instances.delete(installationId);
    instance.invoke.release();
    if (!instance.isolate.isDisposed) instance.isolate.dispose();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const id of [...this.instances.keys()]) this.dispose(id);
  }
}

/** The one function the isolate calls out through: `op` and JSON args in, `{ ok, value | error }` JSON out. */
function hostFunction(host: PluginHost) {
  const ops: Record<string, (...args: never[]) => unknown> = {
    'kv.set': (key: string, value: unknown, options?: { ttlSeconds?: number }) => host.kv.set(key, value, options ?? undefined),
    'kv.get': (key: string) => host.kv.get(key),
    'kv.find': (query: unknown) => host.kv.find(query),
    'kv.keys': (prefix: string) => host.kv.keys(prefix),
    'kv.count': (where: unknown) => host.kv.count(where ?? undefined),
    'kv.delete': (key: string) => host.kv.delete(key),
    'events.emit': (name: string, data: unknown, depth: number) => host.emit(name, data, typeof depth === 'number' ? depth : 0),
    fetch: (request: never) => host.fetch(request),
    log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => host.log(['debug', 'info', 'warn', 'error'].includes(level) ? level : 'info', String(message)),
  };
  return async (op: string, argsText: string): Promise<string> => {
    try {
      const fn = ops[op];
      if (!fn || typeof argsText !== 'string' || argsText.length > 256 * 1024) throw new ValidationError('unknown platform call');
      const args = JSON.parse(argsText) as never[];
      const value = await fn(...(Array.isArray(args) ? args : []));
      return JSON.stringify({ ok: true, value: value === undefined ? null : value });
    } catch (error) {
      // Our own errors explain themselves; anything else (a database failure) is not the plugin's business.
      const known = error instanceof ValidationError || error instanceof ConflictError || (error as { pluginVisible?: boolean })?.pluginVisible;
      return JSON.stringify({ ok: false, error: known ? (error as Error).message : 'platform call failed' });
    }
  };
}

function withWallLimit<T>(work: Promise<T>, wallMs: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new PluginCallError(`the call ran past its ${wallMs} ms time limit`, 'timeout'));
    }, wallMs);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function asCallError(error: unknown, isolate: ivm.Isolate): PluginCallError {
  if (error instanceof PluginCallError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/memory limit/i.test(message) || (isolate.isDisposed && /disposed/i.test(message))) return new PluginCallError('the plugin ran out of memory and was stopped', 'memory');
  if (/timed out/i.test(message)) return new PluginCallError('the call ran past its CPU time limit', 'timeout');
  return new PluginCallError(message.slice(0, 500), 'error');
}

/** What the code declared must fit the contract: known hooks, endpoint methods and paths, named cron jobs. */
function checkDefinition(d: PluginDefinition): PluginDefinition {
  for (const h of d.hooks) if (!isHookName(h.name)) throw new PluginCallError(`unknown hook "${h.name}"`);
  for (const e of d.endpoints) {
    if (!(ENDPOINT_METHODS as readonly string[]).includes(e.method)) throw new PluginCallError(`endpoint ${e.path}: method must be one of ${ENDPOINT_METHODS.join(', ')}`);
    if (!/^\/[A-Za-z0-9_\-/:.]{0,200}$/.test(e.path)) throw new PluginCallError(`endpoint path "${e.path}" must start with / and hold letters, digits, -, _, . and :params`);
  }
  const names = new Set<string>();
  for (const c of d.cron) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(c.name) || names.has(c.name)) throw new PluginCallError(`cron jobs need unique names of letters, digits, - and _ ("${c.name}")`);
    names.add(c.name);
    if (!c.schedule) throw new PluginCallError(`cron ${c.name}: schedule is required`);
  }
  return d;
}
