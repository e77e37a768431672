/**
 * `npm run emulator`: the provider emulator as a standalone process, for offline demos and benchmarks.
 * EMULATOR_PORT (default 4010) and EMULATOR_HOST (default 127.0.0.1) choose where it listens.
 */
import { runStandalone } from '../standalone';
import { startEmulator } from './emulator';

runStandalone('EMULATOR_PORT', 4010, async (port) => {
  const emulator = await startEmulator({ port, host: process.env.EMULATOR_HOST || '127.0.0.1' });
  const lines = [
    `Provider emulator listening on ${emulator.url}`,
    'Point the platform at it with:',
    ...Object.entries(emulator.baseUrls).map(([id, url]) => `  ${id.toUpperCase()}_BASE_URL=${url}`),
    'Any key works, except one containing "rejected" (refused) or "fail500" (server error).',
    `Control: POST ${emulator.url}/__emulator/behaviour {"delayMs":0,"chunkDelayMs":0,"failStatus":500}, POST /__emulator/reset, GET /__emulator/requests`,
  ];
  return { lines, close: () => emulator.close() };
});
