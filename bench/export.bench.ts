import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import { createCoreApi } from '../apps/core-api/core-api.container';
import { loadConfig } from '../apps/shared/config';
import { createInfrastructure } from '../apps/shared/infrastructure';
import { resolve } from '../apps/shared/tokens';
import { createLogger } from '../adapters/logging/logger';
import { BuildExportUseCase, RequestExportUseCase } from '../core/data-export/use-cases/data-export.use-cases';
import { DATA_EXPORT_TOKENS } from '../apps/core-api/modules/data-export.tokens';

/**
 * `npm run bench:export`: the memory an export takes, at 10,000 and 100,000 messages.
 *
 * Seeds one account with one application and conversations of 1,000 messages each (about 600
 * characters per message, distinct hashes, so the ZIP cannot shrink them to nothing), then runs the export job itself (`BuildExportUseCase`, as the queue would)
 * for JSON and for CSV, sampling the process's heap and RSS every 5 ms. If the export held its rows,
 * the peak would grow with the file (tens of megabytes at 100,000 messages); streamed, it stays at
 * about a page of rows whatever the size. On the embedded PGlite (whose WebAssembly memory is part of
 * RSS, so RSS is reported but the heap is the figure to read) and, given BENCH_DATABASE_URL (else
 * TEST_DATABASE_URL), on PostgreSQL in a schema of its own.
 */
const SIZES = (process.env.BENCH_EXPORT_SIZES ?? '10000,100000').split(',').map(Number);
const PER_CONVERSATION = 1_000;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const MB = 1024 * 1024;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

interface Result {
  database: string;
  messages: number;
  format: string;
  fileMb: number;
  seconds: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

async function run(database: string, messages: number, format: 'json' | 'csv'): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const schema = database === 'PostgreSQL' ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(schema ? { DATABASE_URL } : {}),
  });
  const infra = await createInfrastructure(config, { schema, logger: createLogger('silent') });
  const app = await createCoreApi(infra);
  try {
    const ds = infra.dataSource;
    const [user] = await ds.query(`INSERT INTO users (email, display_name, password_hash) VALUES ('bench@example.com', 'Bench', 'x') RETURNING id`);
    const [application] = await ds.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', 'bench') RETURNING id`, [user.id]);
    const conversations = messages / PER_CONVERSATION;
    for (let c = 0; c < conversations; c++) {
      const [conversation] = await ds.query(
        `INSERT INTO conversations (application_id, title, message_count) VALUES ($1, $2, $3) RETURNING id`,
        [application.id, `Conversation ${c}`, PER_CONVERSATION],
      );
      await ds.query(
        `INSERT INTO messages (conversation_id, role, content, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms)
         SELECT $1::uuid, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
                (SELECT string_agg(md5($1::uuid::text || i || '-' || j), ' ') FROM generate_series(1, 18) AS j), 'provider_a', 'gpt-4o-mini', 40, 60, 100, 300
           FROM generate_series(1, $2::int) AS i`,
        [conversation.id, PER_CONVERSATION],
      );
    }
    const requested = await resolve(app.container, RequestExportUseCase);
    // The job runs here, measured, not on the queue: stop the queue from taking it first.
    await resolve(app.container, DATA_EXPORT_TOKENS.JobQueue).stop();
    const created = await requested.execute({ resources: 'all', format }, { userId: user.id, role: 'developer' });
    gc();
    const before = process.memoryUsage();
    let heapPeak = before.heapUsed;
    let rssPeak = before.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      heapPeak = Math.max(heapPeak, now.heapUsed);
      rssPeak = Math.max(rssPeak, now.rss);
    }, 5);
    const started = performance.now();
    await resolve(app.container, BuildExportUseCase).execute(created.id);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const [done] = await ds.query(`SELECT status, byte_size FROM data_exports WHERE id = $1`, [created.id]);
    if (done.status !== 'ready') throw new Error(`export ended ${done.status}`);
    return {
      database,
      messages,
      format,
      fileMb: Number(done.byte_size) / MB,
      seconds,
      heapBeforeMb: before.heapUsed / MB,
      heapPeakMb: heapPeak / MB,
      rssBeforeMb: before.rss / MB,
      rssPeakMb: rssPeak / MB,
    };
  } finally {
    await app.stop();
    await infra.close();
    if (schema) {
      const client = new Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const results: Result[] = [];
  const databases = ['PGlite', ...(DATABASE_URL ? ['PostgreSQL'] : [])];
  if (!DATABASE_URL) console.log('(BENCH_DATABASE_URL / TEST_DATABASE_URL unset: no PostgreSQL runs)');
  for (const database of databases) {
    for (const messages of SIZES) {
      for (const format of ['json', 'csv'] as const) {
        const r = await run(database, messages, format);
        results.push(r);
        console.log(`${database} ${messages} messages ${format}: done`);
      }
    }
  }
  console.log(`\n${'database'.padEnd(12)}${'messages'.padStart(10)}${'format'.padStart(8)}${'file MB'.padStart(10)}${'seconds'.padStart(10)}${'heap before'.padStart(13)}${'heap peak'.padStart(11)}${'heap +'.padStart(9)}${'RSS +'.padStart(9)}`);
  for (const r of results) {
    console.log(
      r.database.padEnd(12) +
        String(r.messages).padStart(10) +
        r.format.padStart(8) +
        r.fileMb.toFixed(1).padStart(10) +
        r.seconds.toFixed(2).padStart(10) +
        r.heapBeforeMb.toFixed(1).padStart(13) +
        r.heapPeakMb.toFixed(1).padStart(11) +
        (r.heapPeakMb - r.heapBeforeMb).toFixed(1).padStart(9) +
        (r.rssPeakMb - r.rssBeforeMb).toFixed(1).padStart(9),
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
