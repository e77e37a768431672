/** Jest: TypeScript through SWC (type checking is `tsc --noEmit`, run first by `npm test`). */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': swc,
    // ESM-only packages (inversify 8) are turned into CommonJS for Jest's module system.
    '^.+/node_modules/(inversify|@inversifyjs|request-filtering-agent)/.+\\.js$': swc,
    // htmlparser2 12 and its helpers (document parsing) are ESM-only too.
    '^.+/node_modules/(htmlparser2|domhandler|domutils|domelementtype|dom-serializer|entities)/.+\\.js$': swc,
    // openid-client 6, oauth4webapi, jose and oidc-provider 9 (sign-in with OAuth, OIDC and the test identity provider).
    '^.+/node_modules/(openid-client|oauth4webapi|jose|oidc-provider)/.+\\.js$': swc,
    '^.+/node_modules/@electric-sql/pglite/.+\\.cjs$': '<rootDir>/tests/support/jest-builtin-import.transform.js',
    // The OpenTelemetry OTLP exporters load `http` / `https` with `import()` too.
    '^.+/node_modules/@opentelemetry/otlp-exporter-base/.+\\.cjs$': '<rootDir>/tests/support/jest-builtin-import.transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!(@opentelemetry/(exporter-trace-otlp-proto/node_modules/@opentelemetry/)?otlp-exporter-base|inversify|@inversifyjs|@electric-sql/pglite|request-filtering-agent|htmlparser2|domhandler|domutils|domelementtype|dom-serializer|entities|openid-client|oauth4webapi|jose|oidc-provider)/)'],
  // Node.js 24 (the runtime npm installs) or no test runs: one line names the version found and the fix.
  globalSetup: '<rootDir>/tests/support/runtime.global-setup.ts',
  setupFiles: ['<rootDir>/tests/support/jest.setup.ts'],
  // Starting a stack opens an embedded database (several seconds of WebAssembly start-up) and hashes
  // passwords; on a loaded two-core machine a beforeAll has been seen to need more than 30 s.
  testTimeout: 60000,
  // One worker more than the cores: about a third of the suite's time is spent waiting (Chromium, child processes, SIGKILL
  // recoveries), and two workers left a third of two cores idle.
  maxWorkers: require('node:os').availableParallelism() + 1,
  // Known-slow files first when Jest has no recorded times (CI's clean checkout), so the workers finish together.
  testSequencer: '<rootDir>/tests/support/slow-first.sequencer.js',
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};
