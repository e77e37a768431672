import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { openPGlite, runQuery } from './pglite-statements';
import type { FromWorker, ToWorker, WorkerOptions } from './pglite-thread';

/**
 * The embedded database's own thread (started by PGliteThread): it opens PGlite with pgvector and runs
 * the statements it is sent, one after another, in the order they arrive.
 */
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

async function main(): Promise<void> {
  const { dataDir, memory, template } = workerData as WorkerOptions;
  let db: PGlite;
  try {
    db = await openPGlite(dataDir, memory, template);
  } catch (error) {
    post({ type: 'failed', error: plainError(error) });
    return;
  }
  let previous: Promise<unknown> = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    previous = previous.then(async () => {
      if (message.type === 'close') {
        await db.close();
        port.close(); // the thread ends, which PGliteThread.close() waits for
        return;
      }
      try {
        post({ type: 'result', id: message.id, result: await runQuery(db, message.sql, message.params) });
      } catch (error) {
        post({ type: 'error', id: message.id, error: plainError(error) });
      }
    });
  });
  post({ type: 'ready' });
}

/** An error as plain data: its message and own fields (a database error's code, constraint, detail…). */
function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message };
  for (const key of Object.getOwnPropertyNames(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (key !== 'stack' && (typeof value === 'string' || typeof value === 'number')) fields[key] = value;
  }
  return fields;
}

void main();
