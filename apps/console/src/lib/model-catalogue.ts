import { api, data } from '../api/client';
import type { components } from '../api/schema';

type ProviderInfo = components['schemas']['ProviderInfo'];

/** The query key of the model pickers' catalogue; the connections' changes invalidate it. */
export const MODEL_CATALOGUE_KEY = ['providers', 'with-connections'] as const;

/**
 * What every model picker offers (docs/connections.md): the built-in providers and their models, then the
 * caller's connections under their names with the models they serve. A failed connections listing leaves
 * the built-in providers on offer.
 */
export async function fetchModelCatalogue(): Promise<ProviderInfo[]> {
  const [providers, connections] = await Promise.all([
    data(api.GET('/api/providers')),
    data(api.GET('/api/connections')).then(
      (page) => page.data,
      () => [],
    ),
  ]);
  const own = connections.map((c) => ({ id: c.name, defaultModel: c.models[0], models: c.models.map((id) => ({ id })), platformKeyConfigured: false, acceptsAnyModel: c.models.length === 0 }));
  return [...providers, ...own];
}
