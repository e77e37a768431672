import { readFileSync } from 'node:fs';
import { PGlite, protocol, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLITE_MEMORY_DEFAULTS, type PGliteMemorySettings } from './pglite-memory';

export type { PGliteMemorySettings } from './pglite-memory';

/** A statement's answer, shaped as node-postgres answers it (what TypeORM's postgres driver reads). */
export interface PgResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string; dataTypeID: number }[];
}

/**
 * Runs statements on the embedded database, wherever it lives (this thread or a worker): one after
 * another, in the order `run` was called, each starting once the one before has ended.
 */
export interface StatementRunner {
  run(sql: string, params?: unknown[]): Promise<PgResult>;
}

/** PostgreSQL's start arguments for these settings, after PGlite's own. */
export function startParams(memory: PGliteMemorySettings): string[] {
  return [
    ...PGlite.defaultStartParams,
    '-c', `shared_buffers=${memory.sharedBuffersMb}MB`,
    '-c', `work_mem=${memory.workMemMb}MB`,
    '-c', `maintenance_work_mem=${memory.maintenanceWorkMemMb}MB`,
  ];
}

/**
 * Opens the embedded database (in memory without `dataDir`) with pgvector and the memory settings. Its
 * prepared statements always run their generic plan: planning in WebAssembly costs as much as running a
 * chat turn's statements, and PostgreSQL, once the tables have statistics, would choose to plan several of
 * them again on every call. The plans follow the tables as they grow because the upkeep (PGliteUpkeep)
 * analyzes them, which makes PostgreSQL rebuild the plans that read them.
 */
export async function openPGlite(
  dataDir: string | undefined,
  memory: PGliteMemorySettings = PGLITE_MEMORY_DEFAULTS,
  template?: string,
): Promise<PGlite> {
  // An in-memory database can start from a dumped data directory (a tar file) instead of running initdb.
  // A gzip-compressed dump (`.tar.gz`) is a seventh of the size and loads faster than a plain tar.
  const loadDataDir = template && !dataDir ? new Blob([readFileSync(template)], template.endsWith('.gz') ? { type: 'application/x-gzip' } : {}) : undefined;
  const db = await PGlite.create({ dataDir, loadDataDir, extensions: { vector }, startParams: startParams(memory) });
  await db.exec(`SET plan_cache_mode = force_generic_plan`);
  return db;
}

/** Runs statements on a PGlite instance of this thread, in order. */
export function inThread(db: PGlite): StatementRunner {
  let previous: Promise<unknown> = Promise.resolve();
  return {
    run(sql, params) {
      const result = previous.then(() => runQuery(db, sql, params));
      previous = result.catch(() => undefined);
      return result;
    },
  };
}

export async function runQuery(db: PGlite, sql: string, params?: unknown[]): Promise<PgResult> {
  if (params && params.length > 0) {
    const prepared = await preparedStatement(db, sql);
    if (prepared) return runPrepared(db, sql, prepared, params.map(toParam));
    const result = await db.query(sql, params.map(toParam));
    return shape(sql, result.rows, result.affectedRows, result.fields);
  }
  // Parameterless statements may hold several commands (migrations); the last result is TypeORM's.
  const results = await db.exec(sql);
  const last = results[results.length - 1];
  return shape(sql, last?.rows ?? [], last?.affectedRows, last?.fields ?? []);
}

/**
 * Named prepared statements. `PGlite.query` parses, describes and plans its statement on every call,
 * in WebAssembly, which costs several times the execution of a chat turn's statements; a statement
 * with parameters is therefore parsed and described once per database and then only bound and run,
 * as node-postgres does with named statements on PostgreSQL. Values are serialised and results parsed
 * with PGlite's own serialisers and parsers, so rows come out exactly as from `PGlite.query`.
 */
interface Prepared {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/**
 * Statements prepared per database. Each keeps its parse tree and generic plan in the WebAssembly heap, about
 * 30 KB (docs/benchmarks/memory.md), so this bounds them to about 30 MB; the platform's own statements are a
 * few hundred, and past the bound a statement runs unprepared (planned at every call), as before it was known.
 */
const MAX_PREPARED = 1_000;
const preparedByDb = new WeakMap<PGlite, Map<string, Prepared>>();

async function preparedStatement(db: PGlite, sql: string): Promise<Prepared | undefined> {
  let statements = preparedByDb.get(db);
  if (!statements) preparedByDb.set(db, (statements = new Map()));
  const known = statements.get(sql);
  if (known || statements.size >= MAX_PREPARED) return known;
  const name = `pglite_${statements.size + 1}`;
  const { messages } = await db.execProtocol(
    Buffer.concat([protocol.serialize.parse({ name, text: sql, types: [] }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
    { syncToFs: false },
  );
  const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
  const rows = messages.find((m) => m.name === 'rowDescription') as { fields: { name: string; dataTypeID: number }[] } | undefined;
  const prepared: Prepared = {
    name,
    paramTypes: params?.dataTypeIDs ?? [],
    fields: (rows?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  };
  statements.set(sql, prepared);
  return prepared;
}

async function runPrepared(db: PGlite, sql: string, prepared: Prepared, params: unknown[]): Promise<PgResult> {
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serialize = db.serializers[prepared.paramTypes[i]!];
    return serialize ? serialize(value) : String(value);
  });
  const { messages } = await db.execProtocol(
    Buffer.concat([protocol.serialize.bind({ statement: prepared.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()]),
  );
  const rows: Record<string, unknown>[] = [];
  let affected = 0;
  for (const message of messages) {
    if (message.name === 'dataRow') {
      const fields = (message as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      prepared.fields.forEach((field, i) => {
        const value = fields[i] ?? null;
        row[field.name] = value === null ? null : types.parseType(value, field.dataTypeID, db.parsers);
      });
      rows.push(row);
    } else if (message.name === 'commandComplete') {
      affected = affectedRows((message as unknown as { text: string }).text);
    }
  }
  return shape(sql, rows, affected, prepared.fields);
}

/** Rows an INSERT, UPDATE, DELETE, COPY or MERGE affected, as PGlite counts them (0 for anything else). */
function affectedRows(commandTag: string): number {
  const words = commandTag.split(' ');
  if (words[0] === 'INSERT') return Number.parseInt(words[2] ?? '0', 10);
  if (['UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(words[0]!)) return Number.parseInt(words[1] ?? '0', 10);
  return 0;
}

function shape(sql: string, rows: unknown[], affected: number | undefined, fields: readonly { name: string; dataTypeID: number }[]): PgResult {
  const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
  return { rows, rowCount: affected ?? rows.length, command, fields: [...fields] };
}

/** TypeORM hands booleans and dates as JS values; PGlite wants them serialised like node-postgres does. */
function toParam(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value;
}
