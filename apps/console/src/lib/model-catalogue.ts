import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';
import type { components } from '../api/schema';
import { teamsQuery } from './teams';

type ProviderInfo = components['schemas']['ProviderInfo'];
type ConnectionView = components['schemas']['Connection'];

/** The query key prefix of the model pickers' catalogues; the connections' changes invalidate it. */
export const MODEL_CATALOGUE_KEY = ['providers', 'with-connections'] as const;

/**
 * Whose connections a picker offers, as the API checks them (docs/connections.md): for a team's application
 * the team's, then its owner's personal ones (the caller's own only when the caller is the team's Owner, who
 * owns the team's applications); for the caller's own application, the caller's.
 */
export interface CatalogueHolder {
  teamId: string | null;
  personal: boolean;
}

const listConnections = (teamId?: string): Promise<ConnectionView[]> =>
  data(api.GET('/api/connections', { params: { query: teamId ? { teamId } : {} } })).then(
    (page) => page.data,
    () => [],
  );

const asProvider = (c: ConnectionView): ProviderInfo => ({ id: c.name, defaultModel: c.models[0], models: c.models.map((id) => ({ id })), platformKeyConfigured: false, acceptsAnyModel: c.models.length === 0 });

/**
 * What a model picker offers: the built-in providers and their models, then the connections the
 * application may name under their names with the models they serve, the team's first (a personal one of
 * the same name is not offered: the team's answers to it). A failed connections listing leaves the rest on offer.
 */
export async function fetchModelCatalogue(holder: CatalogueHolder = { teamId: null, personal: true }): Promise<ProviderInfo[]> {
  const [providers, team, personal] = await Promise.all([
    data(api.GET('/api/providers')),
    holder.teamId ? listConnections(holder.teamId) : Promise.resolve([]),
    holder.personal ? listConnections() : Promise.resolve([]),
  ]);
  const teamNames = new Set(team.map((c) => c.name));
  return [...providers, ...team.map(asProvider), ...personal.filter((c) => !teamNames.has(c.name)).map(asProvider)];
}

/**
 * The catalogue of the pickers of one application, given its team (null for a personal application,
 * undefined while not yet known): the team, with the caller's role in it from the teams list, decides whose
 * connections are offered.
 */
export function useModelCatalogue(teamId: string | null | undefined) {
  const teams = useQuery({ ...teamsQuery, enabled: !!teamId });
  const role = teamId ? teams.data?.find((t) => t.id === teamId)?.role : undefined;
  const holder: CatalogueHolder = { teamId: teamId ?? null, personal: !teamId || role === 'owner' };
  return useQuery({
    queryKey: [...MODEL_CATALOGUE_KEY, holder.teamId, holder.personal],
    queryFn: () => fetchModelCatalogue(holder),
    staleTime: 60_000,
    enabled: teamId !== undefined && (!teamId || !teams.isPending),
  });
}
