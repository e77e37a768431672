import type Router from '@koa/router';
import { loadOpenApiDocument, toOpenApiPath } from '../../adapters/http/docs/openapi-document';
import { createLogger } from '../../adapters/logging/logger';
import { createAiService } from '../../apps/ai-service/ai-service.container';
import { createCoreApi } from '../../apps/core-api/core-api.container';
import { createMarketplace } from '../../apps/marketplace/marketplace.container';
import type { ComposedApp } from '../../apps/shared/compose';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { openTestDatabase } from '../support/test-database';
import { testConfig } from '../support/test-stack';

/** Every `METHOD /path` a set of routers serves, in OpenAPI path syntax. */
function served(routers: Router[]): Set<string> {
  const routes = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.add(`${method} ${toOpenApiPath(String(layer.path)).replace(/(.)\/$/, '$1')}`);
      }
    }
  }
  return routes;
}

function documented(app: string): Set<string> {
  const doc = loadOpenApiDocument(app) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(doc.openapi).toBe('3.1.0');
  const routes = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) routes.add(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

describe('the OpenAPI documents match the routes', () => {
  let infra: Infrastructure;
  beforeAll(async () => {
    infra = await createInfrastructure(testConfig(), { database: await openTestDatabase(), logger: createLogger('silent') });
  });
  afterAll(() => infra.close());

  it.each([
    ['core-api', createCoreApi],
    ['ai-service', createAiService],
    ['marketplace', createMarketplace],
  ] as const)('%s: every route is documented and every documented route exists', async (name, create) => {
    const app: ComposedApp = await create(infra);
    // Service-to-service routes (/internal/, AI_SERVICE_TOKEN; docs/tools.md "Where the calls run") are no part of the public API.
    const routes = new Set([...served(app.routers)].filter((r) => !r.split(' ')[1]!.startsWith('/internal/')));
    const doc = documented(name);
    expect({ undocumented: [...routes].filter((r) => !doc.has(r)).sort(), missing: [...doc].filter((r) => !routes.has(r)).sort() }).toEqual({
      undocumented: [],
      missing: [],
    });
    await app.stop();
  });
});

type Node = Record<string, unknown>;

/** Every schema object in a document, with where it sits (for messages). */
function schemasOf(node: unknown, where = '#', out: { where: string; schema: Node }[] = []): { where: string; schema: Node }[] {
  if (Array.isArray(node)) node.forEach((child, i) => schemasOf(child, `${where}/${i}`, out));
  else if (node && typeof node === 'object') {
    const n = node as Node;
    if ('type' in n && (typeof n.type === 'string' || Array.isArray(n.type))) out.push({ where, schema: n });
    for (const [key, child] of Object.entries(n)) schemasOf(child, `${where}/${key}`, out);
  }
  return out;
}

describe('the OpenAPI documents read well', () => {
  const APPS = ['core-api', 'ai-service', 'marketplace'] as const;
  /** Formats for which the API explorer shows a realistic value by itself. */
  const SELF_EXPLAINING_FORMATS = new Set(['uuid', 'date-time', 'date', 'binary', 'email', 'uri']);

  it.each(APPS)('%s: every string has a real example, never the placeholder "string"', (app) => {
    const doc = loadOpenApiDocument(app);
    const bare = schemasOf(doc)
      .filter(({ schema }) => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')))
      .filter(({ schema }) => !['example', 'examples', 'enum', 'const'].some((k) => k in schema) && !SELF_EXPLAINING_FORMATS.has(String(schema.format)))
      .map(({ where }) => where);
    expect(bare).toEqual([]);
    expect(JSON.stringify(doc)).not.toMatch(/"example":\s*"string"/);
  });

  it.each(APPS)('%s: declares its tags in reading order, every operation under a declared tag', (app) => {
    const doc = loadOpenApiDocument(app) as { tags?: { name: string }[]; paths: Record<string, Record<string, { tags?: string[] }>> };
    const declared = (doc.tags ?? []).map((t) => t.name);
    const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
    if (app === 'core-api') expect(declared.slice(0, 3)).toEqual(['auth', 'users', 'applications']);
    expect(declared.at(-1)).toBe('docs');
  });

  it('core-api: shows no internal service-token scheme, and describes the rate-limit headers once', () => {
    const doc = loadOpenApiDocument('core-api') as { components: { securitySchemes: Node; headers: Node }; paths: Node };
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(JSON.stringify(doc.paths)).not.toContain('serviceToken');
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(['XRateLimitLimit', 'XRateLimitRemaining', 'XRateLimitReset']));
    // Responses only point at those definitions.
    const inline = schemasOf(doc.paths).filter(({ where }) => /\/headers\/(X-)?RateLimit/.test(where));
    expect(inline.map(({ where }) => where)).toEqual([]);
  });

  it.each(APPS)('%s: speaks to the API’s users, not to the project’s internal documents', (app) => {
    const text = JSON.stringify(loadOpenApiDocument(app));
    expect(text).not.toMatch(/\bSPEC\b|\bissue \d|\.\.\/shared|ARCHITECTURE\.md/);
  });
});
