import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The Docker files cannot be built where the tests run (no container engine), so their content is checked instead:
 * the compose file as data, the nginx zones, what the build context leaves out, and the healthcheck script for real.
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// js-yaml arrives with Jest (through istanbul; not a direct dependency); its 3.x safeLoad reads the merge keys (`<<: *anchor`).
const { safeLoad } = require('js-yaml') as { safeLoad(text: string): unknown };

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = safeLoad(read('docker/compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const PLATFORM = { 'core-api': 'PORT', 'ai-service': 'AI_SERVICE_PORT', marketplace: 'MARKETPLACE_PORT' } as const;

describe('docker/compose.yaml', () => {
  it('runs nginx, the three services, PostgreSQL and Redis, each restarted by Docker and health-checked', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['ai-service', 'core-api', 'marketplace', 'nginx', 'postgres', 'redis']);
    for (const [name, service] of Object.entries(compose.services)) {
      expect([name, service.restart]).toEqual([name, expect.stringMatching(/^(unless-stopped|always|on-failure)$/)]);
      expect([name, service.healthcheck?.test?.length]).toEqual([name, expect.any(Number)]);
    }
  });

  it('health-checks each platform service on the port it listens on, through its own /api/health', () => {
    for (const [name, variable] of Object.entries(PLATFORM)) {
      const service = compose.services[name];
      const port = service.environment?.[variable];
      expect([name, port]).toEqual([name, expect.stringMatching(/^\d+$/)]);
      expect(service.healthcheck!.test).toEqual(['CMD', 'node', 'docker/healthcheck.js', port]);
      expect(service.command).toEqual(['node', `dist/apps/${name}/main.js`]);
      expect(existsSync(join(ROOT, 'apps', name, 'main.ts'))).toBe(true);
    }
  });

  it('gives the services one DATA_DIR volume for uploads and knowledge files, and production settings', () => {
    for (const name of Object.keys(PLATFORM)) {
      const service = compose.services[name];
      expect(service.environment).toMatchObject({ DATA_DIR: '/data', NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379' });
      expect(service.environment!.DATABASE_URL).toMatch(/^postgres:\/\/platform:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/platform$/);
      const dataVolume = service.volumes?.find((v) => v.endsWith(':/data'));
      expect(dataVolume).toBe('platform-data:/data');
    }
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['platform-data', 'pgdata', 'redisdata']));
  });

  it('starts the core API after its dependencies are healthy, and nginx after the core API', () => {
    expect(compose.services['core-api'].depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      'ai-service': { condition: 'service_healthy' },
      marketplace: { condition: 'service_healthy' },
    });
    expect(compose.services.nginx.depends_on).toEqual({ 'core-api': { condition: 'service_healthy' } });
    expect(compose.services['core-api'].environment).toMatchObject({ AI_SERVICE_URL: 'http://ai-service:3001', MARKETPLACE_URL: 'http://marketplace:3002', TRUST_PROXY: 'true' });
    // Plugin, MCP and built-in tool calls of the AI service's turns run in the core API.
    expect(compose.services['ai-service'].environment).toMatchObject({ CORE_API_URL: 'http://core-api:3000' });
  });

  it('publishes nginx only: the services are reached through the proxy and its rate zones', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length).map(([name]) => name);
    expect(published).toEqual(['nginx']);
    expect(compose.services.nginx.volumes).toEqual(['./nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
  });

  it('takes every secret from the environment, and .env.example names every variable the file reads, with no value for a secret', () => {
    const text = read('docker/compose.yaml');
    const referenced = [...new Set([...text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]))].sort();
    const example = read('.env.example');
    const assigned = new Map(
      example
        .split('\n')
        .filter((line) => /^[A-Z0-9_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
    );
    expect(referenced.filter((name) => !assigned.has(name))).toEqual([]);
    // Required ones fail fast when unset (`:?`), and the example ships them empty: nobody deploys a sample secret.
    for (const secret of ['POSTGRES_PASSWORD', 'ENCRYPTION_KEY', 'JWT_SECRET', 'AI_SERVICE_TOKEN', 'MARKETPLACE_TOKEN']) {
      expect(text).toContain(`\${${secret}:?`);
      expect([secret, assigned.get(secret)]).toEqual([secret, '']);
    }
    for (const key of ['PROVIDER_A_API_KEY', 'PROVIDER_B_API_KEY', 'PROVIDER_C_API_KEY', 'PROVIDER_D_API_KEY']) expect(assigned.get(key)).toBe('');
  });
});

describe('docker/nginx.conf', () => {
  const conf = read('docker/nginx.conf');
  /** location path → its block's text (the file has no nested blocks inside locations). */
  const locations = new Map([...conf.matchAll(/location\s+(=\s+)?(\S+)\s*\{([^}]*)\}/g)].map((m) => [m[2], m[3]]));

  it('declares the reverse-proxy rate zones: API 30 req/s, auth 5 req/s, webhooks 10 req/s, answering 429', () => {
    const zones = Object.fromEntries([...conf.matchAll(/limit_req_zone\s+\$binary_remote_addr\s+zone=(\w+):\d+m\s+rate=(\d+)r\/s;/g)].map((m) => [m[1], Number(m[2])]));
    expect(zones).toEqual({ api: 30, auth: 5, webhooks: 10 });
    expect(conf).toMatch(/limit_req_status 429;/);
  });

  it('applies each zone to its routes and proxies them to the core API', () => {
    const zoneOf = (path: string) => locations.get(path)?.match(/limit_req zone=(\w+)/)?.[1];
    expect(zoneOf('/api/auth/')).toBe('auth');
    expect(zoneOf('/api/webhooks')).toBe('webhooks');
    expect(zoneOf('/api/billing/webhook')).toBe('webhooks');
    expect(zoneOf('/')).toBe('api');
    for (const path of ['/api/auth/', '/api/webhooks', '/api/billing/webhook', '/', '/api/health']) expect(locations.get(path)).toMatch(/proxy_pass http:\/\/core_api;/);
    expect(conf).toMatch(/upstream core_api \{\s*server core-api:3000;/);
  });

  it('never serves the service-to-service routes (/internal/) to the outside', () => {
    expect(conf).toMatch(/location \/internal\/ \{[^}]*return 404 /);
  });

  it("answers its own refusals with the platform's error body", () => {
    const bodies = [...conf.matchAll(/return (\d{3}) '(\{[^']*\})';/g)].map((m) => ({ status: Number(m[1]), body: JSON.parse(m[2]) }));
    expect(bodies.map((b) => b.status).sort()).toEqual([404, 413, 429, 503]);
    for (const { status, body } of bodies) expect(body).toEqual({ statusCode: status, message: expect.any(String), error: expect.any(String) });
  });

  it('sets the client address itself instead of extending what the client sent (the API trusts it)', () => {
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(conf).not.toMatch(/\$proxy_add_x_forwarded_for/);
  });
});

describe('the image build', () => {
  const ignore = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const dockerfile = read('docker/Dockerfile');

  it('keeps node_modules, ./data (development secrets), .env files and git out of the build context', () => {
    expect(ignore).toEqual(expect.arrayContaining(['node_modules', 'data', '.env', '.env.*', '.git', 'dist']));
    expect(ignore).toContain('!.env.example');
  });

  it('copies only what the build needs, and runs node as the container process, not npm', () => {
    expect(dockerfile).not.toMatch(/^COPY \. /m);
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    for (const source of copied) expect(existsSync(join(ROOT, source))).toBe(true);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/apps\/core-api\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('builds and runs on Node.js 24, native modules against the headers of the image itself, the plugin sandbox with --no-node-snapshot', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
    expect(dockerfile).toMatch(/^COPY package\.json package-lock\.json \.npmrc \.\/$/m);
    expect(dockerfile).toMatch(/^ENV npm_config_nodedir=\/usr\/local$/m);
    expect(dockerfile).toMatch(/^ENV .*NODE_OPTIONS=--no-node-snapshot/m);
  });
});

describe('docker/healthcheck.js', () => {
  let server: Server;
  let status = 200;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === '/api/health' ? status : 404;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const check = (p: number) =>
    promisify(execFile)(process.execPath, [join(ROOT, 'docker/healthcheck.js'), String(p)]).then(
      () => 0,
      (error: { code: number }) => error.code,
    );

  it('exits 0 while the service answers healthy, 1 when it answers 503 or nothing listens', async () => {
    status = 200;
    expect(await check(port)).toBe(0);
    status = 503;
    expect(await check(port)).toBe(1);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freed = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await check(freed)).toBe(1);
  });
});
