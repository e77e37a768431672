/**
 * `npm run emulator`: the provider emulator as a standalone process, for offline demos and benchmarks.
 * EMULATOR_PORT (default 4010) and EMULATOR_HOST (default 127.0.0.1) choose where it listens.
 */
import { startEmulator } from './emulator';

async function main(): Promise<void> {
  const port = Number(process.env.EMULATOR_PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('EMULATOR_PORT must be a port number');
  const emulator = await startEmulator({ port, host: process.env.EMULATOR_HOST || '127.0.0.1' });
  const lines = [
    `Provider emulator listening on ${emulator.url}`,
    'Point the platform at it with:',
    ...Object.entries(emulator.baseUrls).map(([id, url]) => `  ${id.toUpperCase()}_BASE_URL=${url}`),
    'Any key works, except one containing "rejected" (refused) or "fail500" (server error).',
    `Control: POST ${emulator.url}/__emulator/behaviour {"delayMs":0,"chunkDelayMs":0,"failStatus":500}, POST /__emulator/reset, GET /__emulator/requests`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
