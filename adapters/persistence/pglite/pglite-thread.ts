import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGliteMemorySettings, PgResult, StatementRunner } from './pglite-statements';

export interface WorkerOptions {
  /** Where PGlite keeps its files; unset means in memory. */
  dataDir?: string;
  /** PostgreSQL's memory settings; unset means the platform's defaults (PGLITE_MEMORY_DEFAULTS). */
  memory?: PGliteMemorySettings;
  /** A dumped data directory (tar file) an in-memory database starts from (DataSourceOptions.pgliteTemplate). */
  template?: string;
}

export type ToWorker = { type: 'run'; id: number; sql: string; params?: unknown[] } | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: Record<string, unknown> }
  | { type: 'result'; id: number; result: PgResult }
  | { type: 'error'; id: number; error: Record<string, unknown> };

/**
 * The embedded PGlite on a worker thread of its own. PostgreSQL compiled to WebAssembly costs about as
 * much CPU per chat turn as the rest of the platform together; on its own thread it runs on another
 * core, beside the HTTP work, instead of taking turns with it on the event loop. Statements cross
 * between the threads as structured clones (parameters in, rows out); a database error comes back with
 * its code, constraint and detail, as the repositories expect.
 */
export class PGliteThread implements StatementRunner {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: PgResult) => void; reject: (error: Error) => void }>();
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('error', (error) => this.stop(new Error(`The embedded database stopped: ${error.message}`)));
    worker.on('exit', () => this.stop(new Error('The embedded database is closed')));
    // Like a pool's idle sockets, an idle database does not keep the process alive; a statement in
    // flight or a close under way does.
    worker.unref();
  }

  static open(options: WorkerOptions = {}): Promise<PGliteThread> {
    const worker = startWorker(options);
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        stopListening();
        reject(error);
      };
      const onExit = (code: number) => fail(new Error(`The embedded database stopped while opening (exit code ${code})`));
      const onMessage = (message: FromWorker) => {
        if (message.type === 'ready') {
          stopListening();
          resolve(new PGliteThread(worker));
        } else if (message.type === 'failed') {
          void worker.terminate();
          fail(toError(message.error));
        }
      };
      const stopListening = () => {
        worker.off('message', onMessage);
        worker.off('error', fail);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.once('error', fail);
      worker.once('exit', onExit);
    });
  }

  run(sql: string, params?: unknown[]): Promise<PgResult> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'run', id, sql, params } satisfies ToWorker);
    });
  }

  /** Closes the database (PGlite writes out what it holds) and ends the thread. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.stopped) return resolve();
      // Statements already sent are answered first; later ones are refused here.
      this.stopped = new Error('The embedded database is closed');
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' } satisfies ToWorker);
    });
    return this.closing;
  }

  private receive(message: FromWorker): void {
    if (message.type !== 'result' && message.type !== 'error') return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.type === 'result') waiting.resolve(message.result);
    else waiting.reject(toError(message.error));
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(reason);
    this.pending.clear();
  }
}

/** A database error rebuilt on this thread: its message, and its fields (code, constraint…) as properties. */
function toError(fields: Record<string, unknown>): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(String(message)), rest);
}

/**
 * Compiled (dist/), the worker is the neighbouring .js file. Run from the TypeScript sources (ts-node,
 * Jest), the new thread has no TypeScript loader: this thread strips the types of the worker's
 * modules with SWC and hands it the JavaScript. The worker itself loads no native code, as SWC's addon
 * crashes the process when a thread that loaded it ends and another loads it again.
 */
function startWorker(options: WorkerOptions): Worker {
  if (__filename.endsWith('.js')) return new Worker(join(__dirname, 'pglite-worker.js'), { workerData: options });
  const bootstrap = [
    `const { sources } = require('node:worker_threads').workerData;`,
    `require.extensions['.ts'] = (module, file) => {`,
    `  if (!(file in sources)) throw new Error('The PGlite worker has no compiled source for ' + file);`,
    `  module._compile(sources[file], file);`,
    `};`,
    `require(${JSON.stringify(join(__dirname, 'pglite-worker.ts'))});`,
  ].join('\n');
  return new Worker(bootstrap, { eval: true, workerData: { ...options, sources: workerSources() } });
}

let compiledSources: Record<string, string> | undefined;

/** The worker's modules as CommonJS, compiled once per process. */
function workerSources(): Record<string, string> {
  if (compiledSources) return compiledSources;
  // Required here only: the compiled build never needs SWC.
  const { transformSync } = require('@swc/core') as typeof import('@swc/core');
  const sources: Record<string, string> = {};
  for (const name of ['pglite-worker.ts', 'pglite-statements.ts', 'pglite-memory.ts']) {
    const file = join(__dirname, name);
    sources[file] = transformSync(readFileSync(file, 'utf8'), {
      filename: file,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code;
  }
  return (compiledSources = sources);
}
