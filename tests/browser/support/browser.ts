import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH points elsewhere when needed. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumIsInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * `describe` for suites that drive a real browser. Without Chromium the suite is skipped with a message
 * on a developer machine, but fails under CI (CI set), where a silently skipped browser suite would hide regressions.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (chromiumIsInstalled()) {
    describe(name, body);
    return;
  }
  const hint = `Chromium was not found at ${CHROMIUM_PATH}. Install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH.`;
  if (process.env.CI) {
    describe(name, () => {
      it('needs Chromium to run', () => {
        throw new Error(hint);
      });
    });
    return;
  }
  console.warn(`Skipping browser suite "${name}". ${hint}`);
  describe.skip(name, body);
}

/** Launches headless Chromium with no network chatter of its own, so tests only see the servers they start. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
