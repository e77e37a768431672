/** A query of `platform.kv.find` (EXTENSIONS.md "KV"). */
export interface KvQuery {
  /** Equality on top-level fields of object values. */
  where?: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  limit?: number;
}

export const KV_LIMITS = { maxKeyLength: 256, maxValueBytes: 64 * 1024, maxFindLimit: 100 } as const;

/** The key-value store of plugin installations: every call is scoped to one installation. */
export interface PluginKvStore {
  /** Stores a value; a new key past `maxKeys` is a ConflictError and stores nothing. */
  set(installationId: string, key: string, value: unknown, options: { ttlSeconds?: number; maxKeys: number }): Promise<void>;
  get(installationId: string, key: string): Promise<unknown>;
  find(installationId: string, query: KvQuery): Promise<{ key: string; value: unknown }[]>;
  keys(installationId: string, prefix: string): Promise<string[]>;
  count(installationId: string, where?: Record<string, unknown>): Promise<number>;
  delete(installationId: string, key: string): Promise<boolean>;
}
