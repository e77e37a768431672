/**
 * Runs a local stand-in (the provider emulator, the Stripe fake) as a process of its own: reads its port from
 * `portVariable`, starts it, prints the lines that tell how to use it, and closes it on SIGINT or SIGTERM. A bad
 * port or a failed start prints one line and exits 1.
 */
export function runStandalone(
  portVariable: string,
  defaultPort: number,
  start: (port: number) => Promise<{ lines: string[]; close(): Promise<void> }>,
): void {
  const main = async (): Promise<void> => {
    const port = Number(process.env[portVariable] ?? defaultPort);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${portVariable} must be a port number`);
    const running = await start(port);
    process.stdout.write(`${running.lines.join('\n')}\n`);
    const stop = () => {
      running.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
