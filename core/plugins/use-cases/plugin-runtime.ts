import type { Cache } from '../../shared/cache.port';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { HOOKS, MAX_EVENT_DEPTH, type HookName, type PluginDefinition, type PluginTarget } from '../domain/definition';
import { CIRCUIT_BREAKER_THRESHOLD, type Installation } from '../domain/installation';
import { PluginCallError } from '../domain/plugin-errors';
import type { Plugin } from '../domain/plugin';
import type { InstallationRepository } from '../ports/installation-repository.port';
import { KV_LIMITS, type KvQuery, type PluginKvStore } from '../ports/plugin-kv-store.port';
import type { PluginHttp } from '../ports/plugin-http.port';
import type { PluginRepository } from '../ports/plugin-repository.port';
import type { CallLimits, PluginHost, PluginSandbox } from '../ports/plugin-sandbox.port';
import type { JsonSchemaChecker } from '../../tools/ports/json-schema.port';
import { checkPluginTools } from '../domain/plugin-tools';

export interface RuntimeLimits {
  hook: CallLimits;
  /** Endpoints, cron, bus and webhook handlers, lifecycle. */
  call: CallLimits;
  maxKeysPerInstallation: number;
}

/** Told about state changes, for the domain events (plugin.activated / plugin.deactivated) and notifications. */
export interface PluginLifecycleListener {
  stateChanged(change: { applicationId: string; installationId: string; pluginId: string; version: string; state: string; ownerId: string; reason?: string }): void;
}

export interface RuntimeDeps {
  plugins: PluginRepository;
  installations: InstallationRepository;
  kv: PluginKvStore;
  sandbox: PluginSandbox;
  http: PluginHttp;
  secretBox: SecretBox;
  cache: Cache;
  limits: RuntimeLimits;
  lifecycle?: PluginLifecycleListener;
  /** Checks the JSON Schemas of declared tools when code is loaded (without it only their shape is checked). */
  toolSchemas?: JsonSchemaChecker;
  /** The installation's log (the logger redacts secrets). */
  log(installationId: string, level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

/** An active installation with its package and what its code declared. */
export interface LoadedInstallation {
  installation: Installation;
  plugin: Plugin;
  definition: PluginDefinition;
}

/** What lifecycle hooks and listeners are told about an installation (no settings). */
export const lifecycleView = (i: Installation) => ({ id: i.id, pluginId: i.pluginId, applicationId: i.applicationId, version: i.version, state: i.state });

export const secretAad = (i: { applicationId: string; pluginId: string }, name: string) => `plugin-setting:${i.applicationId}:${i.pluginId}:${name}`;
const activeKey = (applicationId: string) => `plugins:active:${applicationId}`;
const MAX_ERROR_TEXT = 500;

/**
 * Runs active installations: loads their code into the sandbox on first use, calls hooks by priority,
 * carries the event bus, counts calls and failures, and trips the circuit breaker after 5 failures in a row.
 */
export class PluginRuntime {
  private readonly definitions = new Map<string, { version: string; definition: PluginDefinition }>();
  private readonly loading = new Map<string, Promise<LoadedInstallation>>();
  private readonly pendingCalls = new Map<string, number>();
  private readonly failing = new Set<string>();
  /** The calls under way, per installation: `forget` marks them stopped, since it disposes the isolate they run in. */
  private readonly running = new Map<string, Set<{ stopped: boolean }>>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: RuntimeDeps) {}

  get limits(): RuntimeLimits {
    return this.deps.limits;
  }

  /** The application's active installations, from the cache (no query and no isolate when there are none). */
  async active(applicationId: string): Promise<Installation[]> {
    return this.deps.cache.getOrLoad(activeKey(applicationId), () => this.deps.installations.listActive(applicationId));
  }

  async forget(applicationId: string, installationId?: string): Promise<void> {
    if (installationId) {
      this.definitions.delete(installationId);
      for (const call of this.running.get(installationId) ?? []) call.stopped = true;
      this.deps.sandbox.dispose(installationId);
    }
    await this.deps.cache.invalidate(activeKey(applicationId));
  }

  /** Loads the installation's code if this process has not yet (or disposed it); answers its declarations. */
  async load(installation: Installation): Promise<LoadedInstallation> {
    const known = this.definitions.get(installation.id);
    if (known && known.version === installation.version && this.deps.sandbox.isLoaded(installation.id)) {
      const plugin = await this.plugin(installation.pluginId);
      return { installation, plugin, definition: known.definition };
    }
    let pending = this.loading.get(installation.id);
    if (!pending) {
      pending = this.loadNow(installation).finally(() => this.loading.delete(installation.id));
      this.loading.set(installation.id, pending);
    }
    return pending;
  }

  private async loadNow(installation: Installation): Promise<LoadedInstallation> {
    const plugin = await this.plugin(installation.pluginId);
    const settings: Record<string, unknown> = { ...installation.settings };
    for (const [name, sealed] of Object.entries(installation.sealedSecrets)) settings[name] = this.deps.secretBox.open(sealed, secretAad(installation, name));
    const loaded = await this.deps.sandbox.load({ installationId: installation.id, source: plugin.source, settings, host: this.hostFor(installation, plugin) }, this.deps.limits.call);
    let definition: PluginDefinition;
    try {
      definition = { ...loaded, tools: checkPluginTools(loaded.tools ?? [], this.deps.toolSchemas) };
    } catch (error) {
      this.deps.sandbox.dispose(installation.id);
      throw error;
    }
    this.definitions.set(installation.id, { version: installation.version, definition });
    return { installation, plugin, definition };
  }

  private async plugin(id: string): Promise<Plugin> {
    const plugin = await this.deps.cache.getOrLoad(`plugins:package:${id}`, () => this.deps.plugins.findById(id));
    if (!plugin) throw new NotFoundError('Plugin');
    return plugin;
  }

  /** Active installations of the application that handle `hook`, in run order (priority, then installation order). */
  async handlersOf(applicationId: string, hook: HookName): Promise<{ loaded: LoadedInstallation; priority: number }[]> {
    const active = await this.active(applicationId);
    if (active.length === 0) return [];
    const found: { loaded: LoadedInstallation; priority: number; order: number }[] = [];
    for (const [order, installation] of active.entries()) {
      const loaded = await this.tryLoad(installation);
      const entry = loaded?.definition.hooks.find((h) => h.name === hook);
      if (loaded && entry) found.push({ loaded, priority: entry.priority, order });
    }
    return found.sort((a, b) => a.priority - b.priority || a.order - b.order);
  }

  /** Loads, counting a load failure (syntax error, memory) as a failure of the installation. */
  private async tryLoad(installation: Installation): Promise<LoadedInstallation | null> {
    try {
      return await this.load(installation);
    } catch (error) {
      await this.failed(installation, 'load', 'definePlugin', error);
      return null;
    }
  }

  /**
   * Calls one handler, counting it; a failure is recorded (and may trip the breaker) and rethrown as a PluginCallError.
   * A call the platform stopped, its isolate disposed by `forget` meanwhile (a deactivation, an uninstall, new settings),
   * is not the plugin's failure: it ends as `unavailable`, recorded nowhere, and the code is not loaded again for it.
   */
  async call(installation: Installation, target: PluginTarget, arg: unknown, limits: CallLimits, depth = 0): Promise<unknown> {
    const call = { stopped: false };
    const running = this.running.get(installation.id) ?? new Set();
    running.add(call);
    this.running.set(installation.id, running);
    try {
      const result = await this.deps.sandbox.call(installation.id, target, arg, limits, depth).catch(async (error: unknown) => {
        // Disposed since it was loaded (idle, or another call's overrun): load again once, then call.
        if (!(error instanceof PluginCallError) || error.reason !== 'unavailable' || call.stopped) throw error;
        this.definitions.delete(installation.id);
        await this.load(installation);
        return this.deps.sandbox.call(installation.id, target, arg, limits, depth);
      });
      this.counted(installation.id);
      if (this.failing.has(installation.id)) {
        this.failing.delete(installation.id);
        await this.deps.installations.resetConsecutiveFailures(installation.id);
      }
      return result;
    } catch (error) {
      this.counted(installation.id);
      if (call.stopped) throw new PluginCallError('the installation was stopped during the call', 'unavailable');
      await this.failed(installation, target.kind, target.name, error);
      throw error instanceof PluginCallError ? error : new PluginCallError(describe(error));
    } finally {
      running.delete(call);
      if (running.size === 0 && this.running.get(installation.id) === running) this.running.delete(installation.id);
    }
  }

  /** Runs an action hook on every active handler, after the caller's work, never failing the caller. */
  runAction(applicationId: string, hook: HookName, arg: unknown): void {
    if (HOOKS[hook] !== 'action') return;
    void (async () => {
      for (const { loaded } of await this.handlersOf(applicationId, hook)) {
        await this.call(loaded.installation, { kind: 'hook', name: hook }, arg, this.deps.limits.hook).catch(() => undefined);
      }
    })().catch(() => undefined);
  }

  /** `platform.events.emit`: delivered after the emitter returns to every active installation of the application listening to `name`. */
  emit(applicationId: string, from: Installation, name: string, data: unknown, depth: number): void {
    if (depth >= MAX_EVENT_DEPTH) {
      void this.deps.installations
        .recordRun({ installationId: from.id, kind: 'event', name, ok: false, error: `event "${name}" dropped: the event bus is limited to ${MAX_EVENT_DEPTH} nested emits`, durationMs: 0 })
        .catch(() => undefined);
      void this.note(from, `event "${name}" dropped: the event bus is limited to ${MAX_EVENT_DEPTH} nested emits`);
      return;
    }
    setImmediate(() => {
      void (async () => {
        for (const installation of await this.active(applicationId)) {
          const loaded = await this.tryLoad(installation);
          if (!loaded?.definition.on.includes(name)) continue;
          await this.call(installation, { kind: 'event', name }, { name, data, from: from.pluginId }, this.deps.limits.call, depth + 1).catch(() => undefined);
        }
      })().catch(() => undefined);
    });
  }

  private hostFor(installation: Installation, plugin: Plugin): PluginHost {
    const id = installation.id;
    const kv = this.deps.kv;
    const checkKey = (key: unknown): string => {
      if (typeof key !== 'string' || key.length === 0 || key.length > KV_LIMITS.maxKeyLength) throw new ValidationError(`KV keys are strings of 1 to ${KV_LIMITS.maxKeyLength} characters`);
      return key;
    };
    return {
      kv: {
        set: async (key, value, options) => {
          const bytes = value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
          if (value === undefined) throw new ValidationError('KV values must be JSON values');
          if (bytes > KV_LIMITS.maxValueBytes) throw new ValidationError(`KV value of ${bytes} bytes is over the ${KV_LIMITS.maxValueBytes / 1024} KB limit`);
          const ttl = options?.ttlSeconds;
          if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1)) throw new ValidationError('ttlSeconds must be a positive whole number');
          await kv.set(id, checkKey(key), value, { ttlSeconds: ttl, maxKeys: this.deps.limits.maxKeysPerInstallation });
        },
        get: (key) => kv.get(id, checkKey(key)),
        find: (query) => kv.find(id, checkQuery(query)),
        keys: (prefix = '') => {
          if (typeof prefix !== 'string') throw new ValidationError('keys(prefix): prefix must be a string');
          return kv.keys(id, prefix);
        },
        count: (where) => kv.count(id, where === undefined ? undefined : checkQuery({ where }).where),
        delete: (key) => kv.delete(id, checkKey(key)),
      },
      emit: (name, data, depth) => {
        if (typeof name !== 'string' || !name || name.length > 100) throw new ValidationError('events.emit(name, data): name must be a string of at most 100 characters');
        this.emit(installation.applicationId, installation, name, data, depth);
      },
      fetch: (request) => this.deps.http.fetch(request, plugin.manifest.permissions.hosts),
      log: (level, message) => this.deps.log(id, level, String(message).slice(0, 2000)),
    };
  }

  private counted(installationId: string): void {
    this.pendingCalls.set(installationId, (this.pendingCalls.get(installationId) ?? 0) + 1);
    this.flushTimer ??= setTimeout(() => void this.flush(), 1000);
    this.flushTimer.unref?.();
  }

  /** Writes the call counters gathered since the last flush (calls are counted in batches, off the chat path). */
  async flush(): Promise<void> {
    this.flushTimer = undefined;
    if (this.pendingCalls.size === 0) return;
    const counts = new Map(this.pendingCalls);
    this.pendingCalls.clear();
    await this.deps.installations.addCalls(counts).catch(() => undefined);
  }

  private async note(installation: Installation, error: string): Promise<void> {
    await this.deps.installations.recordFailure(installation.id, error).catch(() => undefined);
  }

  private async failed(installation: Installation, kind: string, name: string, error: unknown): Promise<void> {
    const text = `${kind} ${name}: ${describe(error)}`.slice(0, MAX_ERROR_TEXT);
    this.deps.log(installation.id, 'warn', text);
    this.failing.add(installation.id);
    const inARow = await this.deps.installations.recordFailure(installation.id, text);
    if (kind === 'cron' || kind === 'endpoint' || kind === 'webhook') {
      await this.deps.installations.recordRun({ installationId: installation.id, kind, name, ok: false, error: text, durationMs: 0 }).catch(() => undefined);
    }
    if (inARow >= CIRCUIT_BREAKER_THRESHOLD) await this.trip(installation, `Deactivated after ${inARow} failures in a row; last: ${text}`);
  }

  /** The circuit breaker: deactivates the installation with the reason, stops its schedules and isolate. */
  private async trip(installation: Installation, reason: string): Promise<void> {
    const moved = await this.deps.installations.move(installation.id, ['activated'], 'deactivated', reason);
    if (!moved) return;
    await this.afterDeactivation(moved, reason);
  }

  /** Set by the composition: stops schedules of a deactivated installation. */
  onDeactivated?: (installation: Installation) => Promise<void>;

  async afterDeactivation(installation: Installation, reason?: string): Promise<void> {
    await this.onDeactivated?.(installation).catch(() => undefined);
    await this.forget(installation.applicationId, installation.id);
    this.failing.delete(installation.id);
    this.stateChanged(installation, reason);
  }

  /** Runs this installation's own `plugin:activated` / `plugin:deactivated` hook, off the caller's path. */
  lifecycleHook(installation: Installation, hook: 'plugin:activated' | 'plugin:deactivated', definition: PluginDefinition): void {
    if (!definition.hooks.some((h) => h.name === hook)) return;
    void this.call(installation, { kind: 'hook', name: hook }, { installation: lifecycleView(installation) }, this.deps.limits.hook).catch(() => undefined);
  }

  /** Tells the lifecycle listener (domain events, notifications) about a state the user set. */
  stateChanged(installation: Installation, reason?: string): void {
    this.deps.lifecycle?.stateChanged({
      applicationId: installation.applicationId,
      installationId: installation.id,
      pluginId: installation.pluginId,
      version: installation.version,
      state: installation.state,
      ownerId: installation.ownerId,
      ...(reason ? { reason } : {}),
    });
  }

  /** This process's declarations of a loaded installation, if any. */
  definitionOf(installationId: string): PluginDefinition | undefined {
    return this.definitions.get(installationId)?.definition;
  }

  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    await this.flush();
  }
}

function checkQuery(input: unknown): KvQuery {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ValidationError('find(query): query must be an object');
  const q = input as Record<string, unknown>;
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (q.where !== undefined && !isObject(q.where)) throw new ValidationError('find(query): where must be an object of field values');
  if (q.sort !== undefined) {
    if (!isObject(q.sort)) throw new ValidationError('find(query): sort must be { field: 1 | -1 }');
    const entries = Object.entries(q.sort as object);
    if (entries.length !== 1 || !(entries[0]![1] === 1 || entries[0]![1] === -1)) throw new ValidationError('find(query): sort must be { field: 1 | -1 }');
  }
  if (q.limit !== undefined && (typeof q.limit !== 'number' || !Number.isInteger(q.limit) || q.limit < 1 || q.limit > KV_LIMITS.maxFindLimit)) {
    throw new ValidationError(`find(query): limit must be a whole number from 1 to ${KV_LIMITS.maxFindLimit}`);
  }
  return { where: q.where as Record<string, unknown> | undefined, sort: q.sort as Record<string, 1 | -1> | undefined, limit: q.limit as number | undefined };
}

export function describe(error: unknown): string {
  if (error instanceof ConflictError || error instanceof ValidationError || error instanceof PluginCallError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
