import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build. JSX goes through Vite 8's own Oxc transform (automatic runtime), so no React
 * plugin is needed; `npm run dev:console` proxies the API to a running `npm start` (CONSOLE_API_URL).
 */
const api = process.env.CONSOLE_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline module-preload polyfill: the strict CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    // Which chunk is which area's: read by npm run bench:console.
    manifest: true,
    rolldownOptions: {
      onLog(level, log, handler) {
        // React libraries mark modules "use client" (for server components); meaningless in a browser bundle.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: {
    proxy: { '/api': { target: api }, '/public': { target: api }, '/chat': { target: api } },
  },
});
