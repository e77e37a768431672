import type { PluginDefinition, PluginTarget } from '../domain/definition';

/** An outgoing request of `platform.fetch`. */
export interface PluginFetchRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface PluginFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the host hands one installation's code: the only ways out of the sandbox. Every value crosses
 * as a JSON copy; `depth` is the event-bus depth of the call that is emitting.
 */
export interface PluginHost {
  kv: {
    set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void>;
    get(key: string): Promise<unknown>;
    find(query: unknown): Promise<unknown>;
    keys(prefix?: string): Promise<string[]>;
    count(where?: unknown): Promise<number>;
    delete(key: string): Promise<boolean>;
  };
  emit(name: string, data: unknown, depth: number): void;
  fetch(request: PluginFetchRequest): Promise<PluginFetchResponse>;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

export interface SandboxInstance {
  installationId: string;
  source: string;
  /** Plain and opened secret settings, visible to the code as `platform.settings`. */
  settings: Record<string, unknown>;
  host: PluginHost;
}

export interface CallLimits {
  /** CPU time of the call's synchronous run. */
  cpuMs: number;
  /** Wall time including awaited host calls. */
  wallMs: number;
}

/**
 * Runs plugin code isolated from the platform (isolated-vm in production). Failures of a call are
 * PluginCallErrors; after a memory or time overrun the instance is discarded and loaded again on next use.
 */
export interface PluginSandbox {
  /** Loads (or reloads) an installation's code and answers what it declared. */
  load(instance: SandboxInstance, limits: CallLimits): Promise<PluginDefinition>;
  isLoaded(installationId: string): boolean;
  /** Calls a handler with a JSON copy of `arg`; answers a JSON copy of what it returned. */
  call(installationId: string, target: PluginTarget, arg: unknown, limits: CallLimits, depth?: number): Promise<unknown>;
  dispose(installationId: string): void;
  close(): Promise<void>;
}
