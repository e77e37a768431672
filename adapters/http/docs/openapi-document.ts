import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../shared/project-root';

type Json = Record<string, unknown>;

export const OPENAPI_DIR = join(projectRoot(), 'docs', 'openapi');

/**
 * The OpenAPI 3.1 document of one app, merged from `docs/openapi/<app>/*.json`: `_base.json` holds
 * info, security schemes and shared schemas; every other file holds the paths of one area.
 */
export function loadOpenApiDocument(app: string): Json {
  const dir = join(OPENAPI_DIR, app);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const base = JSON.parse(readFileSync(join(dir, '_base.json'), 'utf8')) as Json;
  const doc: Json = { ...base, paths: { ...(base.paths as Json) }, components: { ...(base.components as Json) } };
  for (const file of files.filter((f) => f !== '_base.json')) {
    const part = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json;
    Object.assign(doc.paths as Json, part.paths ?? {});
    const components = (part.components ?? {}) as Record<string, Json>;
    for (const [kind, entries] of Object.entries(components)) {
      const target = ((doc.components as Json)[kind] ??= {}) as Json;
      Object.assign(target, entries);
    }
  }
  return doc;
}

/** `/api/applications/:id` in Koa is `/api/applications/{id}` in OpenAPI. */
export const toOpenApiPath = (koaPath: string): string => koaPath.replace(/:(\w+)/g, '{$1}');
