import { startEmulator } from '../../tests/support/emulator/emulator';

/** The provider emulator in its own process, answering after a fixed delay. */
void (async () => {
  const emulator = await startEmulator();
  emulator.behaviour.delayMs = Number(process.env.BENCH_DELAY_MS ?? 20);
  process.send!({ url: emulator.url, baseUrls: emulator.baseUrls });
  process.on('SIGTERM', () => void emulator.close().then(() => process.exit(0)));
})();
