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
    const routes = served(app.routers);
    const doc = documented(name);
    expect({ undocumented: [...routes].filter((r) => !doc.has(r)).sort(), missing: [...doc].filter((r) => !routes.has(r)).sort() }).toEqual({
      undocumented: [],
      missing: [],
    });
    await app.stop();
  });
});
