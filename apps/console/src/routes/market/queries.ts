import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

/** Plugins and themes: the two kinds of marketplace item, as they appear in paths. */
export type Kind = 'plugins' | 'themes';
export type Sort = 'popular' | 'recent' | 'rating';
export const PAGE_SIZE = 12;

/** A listed item (browse, featured, themes share the list shape). */
export type Item = components['schemas']['MarketplacePlugin'];
export type Review = components['schemas']['MarketplaceReview'];
/** An item's page: the list fields, links, rating statistics and recent reviews. */
export type ItemDetail = components['schemas']['MarketplaceItemDetail'];
/** One of the caller's submissions, with its review status and any rejection reason. */
export type Submission = components['schemas']['MarketplaceSubmission'];

export interface Version {
  version: string;
  changelog: string;
  compatibility: { minPlatformVersion: string | null; maxPlatformVersion: string | null };
  compatible?: boolean;
  fileSize: number | null;
  releasedAt: string;
}


export interface Update {
  installedPluginId: string;
  pluginId: string;
  marketplacePluginId: string;
  latestVersion: string;
  currentVersion: string;
  changelog: string;
}

export interface BrowseQuery {
  kind: Kind;
  page: number;
  search: string;
  category: string;
  sort: Sort;
}

const key = ['marketplace'] as const;

/** One page of published items of a kind, with search, category and sort. */
export function useBrowse(q: BrowseQuery) {
  return useQuery({
    queryKey: [...key, 'browse', q],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const query = { page: q.page, limit: PAGE_SIZE, sort: q.sort, ...(q.search ? { search: q.search } : {}), ...(q.category ? { category: q.category } : {}) };
      const page = q.kind === 'plugins' ? await data(api.GET('/api/marketplace/browse', { params: { query } })) : await data(api.GET('/api/marketplace/themes', { params: { query } }));
      return { data: (page.data ?? []) as unknown as Item[], total: page.total ?? 0 };
    },
  });
}

export function useFeatured(kind: Kind) {
  return useQuery({
    queryKey: [...key, 'featured', kind],
    queryFn: async () =>
      (kind === 'plugins' ? await data(api.GET('/api/marketplace/plugins/featured')) : await data(api.GET('/api/marketplace/themes/featured'))) as unknown as Item[],
  });
}

export function useCategories(kind: Kind) {
  return useQuery({
    queryKey: [...key, 'categories', kind],
    queryFn: async () =>
      (kind === 'plugins' ? await data(api.GET('/api/marketplace/plugins/categories')) : await data(api.GET('/api/marketplace/themes/categories'))) as unknown as string[],
  });
}

export function useItem(kind: Kind, id: string) {
  return useQuery({
    queryKey: [...key, 'item', kind, id],
    queryFn: async (): Promise<ItemDetail> =>
      kind === 'plugins'
        ? await data(api.GET('/api/marketplace/plugins/{id}', { params: { path: { id } } }))
        : await data(api.GET('/api/marketplace/themes/{id}', { params: { path: { id } } })),
  });
}

export function useVersions(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...key, 'versions', id],
    enabled,
    queryFn: async () => (await data(api.GET('/api/marketplace/plugins/{id}/versions', { params: { path: { id } } }))) as unknown as Version[],
  });
}

export function useReviews(kind: Kind, id: string) {
  return useQuery({
    queryKey: [...key, 'reviews', kind, id],
    queryFn: async () => {
      const query = { limit: 50, skip: 0 };
      const reviews: Review[] =
        kind === 'plugins'
          ? await data(api.GET('/api/marketplace/plugins/{id}/reviews', { params: { path: { id }, query } }))
          : await data(api.GET('/api/marketplace/themes/{id}/reviews', { params: { path: { id }, query } }));
      return reviews;
    },
  });
}

/** Writes (or rewrites: one review per user) and deletes the caller's review; both refresh the item and its reviews. */
export function useReviewMutations(kind: Kind, id: string) {
  const client = useQueryClient();
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: [...key, 'reviews', kind, id] }), client.invalidateQueries({ queryKey: [...key, 'item', kind, id] })]);
  const save = useMutation({
    mutationFn: async (body: { rating: number; review: string }) => {
      const params = { path: { id } };
      const { error, response } = kind === 'plugins' ? await api.POST('/api/marketplace/plugins/{id}/reviews', { params, body }) : await api.POST('/api/marketplace/themes/{id}/reviews', { params, body });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async () => {
      const params = { path: { id } };
      const { error, response } = kind === 'plugins' ? await api.DELETE('/api/marketplace/plugins/{id}/reviews', { params }) : await api.DELETE('/api/marketplace/themes/{id}/reviews', { params });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: refresh,
  });
  return { save, remove };
}

/** Installs a marketplace plugin into one application (`version` empty: the newest compatible release). */
export function useInstallPlugin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ appId, marketplacePluginId, version }: { appId: string; marketplacePluginId: string; version?: string }) => {
      const { data: body, error, response } = await api.POST('/api/applications/{appId}/plugins', {
        params: { path: { appId } },
        body: { marketplacePluginId, ...(version ? { version } : {}) },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return body as unknown as { id: string; version?: string };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'updates'] }),
  });
}

/** Adds a marketplace theme to the caller's themes. */
export function useInstallTheme() {
  return useMutation({
    mutationFn: async (id: string) => {
      const { data: body, error, response } = await api.POST('/api/marketplace/themes/{id}/install', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
      return body as unknown as { id: string; name?: string };
    },
  });
}

/** A Checkout Session for a paid item: the page then goes to the payment processor's page. */
export function useBuyLicense() {
  return useMutation({
    mutationFn: async (marketplacePluginId: string) => {
      const { data: body, error, response } = await api.POST('/api/billing/licenses/checkout', { body: { marketplacePluginId } });
      if (!response.ok) throw toApiError(response.status, error);
      return body as unknown as { url: string; sessionId: string };
    },
  });
}

export function useSubmit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, body }: { kind: 'plugin' | 'theme'; body: Record<string, unknown> }) => {
      const { data: answer, error, response } =
        kind === 'plugin'
          ? await api.POST('/api/marketplace/submit/plugin', { body: body as never })
          : await api.POST('/api/marketplace/submit/theme', { body: body as never });
      if (!response.ok) throw toApiError(response.status, error);
      return answer as unknown as Item;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'submissions'] }),
  });
}

/** A license the caller holds: the plugin, its status and dates, and the caller's installations of it. */
export type HeldLicense = components['schemas']['MarketplaceHeldLicense'];
export const LICENSES_PAGE_SIZE = 20;

/** One page of the caller's licenses, newest first, with the total from `X-Total-Count`. */
export function useLicenses(page: number) {
  return useQuery({
    queryKey: [...key, 'licenses', page],
    queryFn: async () => {
      const { data: body, error, response } = await api.GET('/api/marketplace/licenses', { params: { query: { page, limit: LICENSES_PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: body ?? [], total: Number(response.headers.get('X-Total-Count') ?? body?.length ?? 0) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useSubmissions() {
  return useQuery({
    queryKey: [...key, 'submissions'],
    queryFn: (): Promise<Submission[]> => data(api.GET('/api/marketplace/submissions')),
    // While something awaits review, look again now and then: the status changes when an administrator acts.
    refetchInterval: (query) => (query.state.data?.some((x) => x.status === 'pending') ? 15_000 : false),
  });
}

export function useUpdates() {
  return useQuery({
    queryKey: [...key, 'updates'],
    queryFn: async () => (await data(api.GET('/api/marketplace/updates'))) as unknown as Update[],
  });
}

export function useUpgrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (installedPluginId: string) => {
      const { data: body, error, response } = await api.POST('/api/marketplace/updates/{installedPluginId}/upgrade', { params: { path: { installedPluginId } }, body: {} });
      if (!response.ok) throw toApiError(response.status, error);
      return body as { version?: string; previousVersion?: string; state?: string; reactivationError?: string };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'updates'] }),
  });
}

/** How many installed plugins have an update (the Updates button's count). */
export function useUpdatesCount() {
  return useQuery({
    queryKey: [...key, 'updates', 'count'],
    queryFn: async () => ((await data(api.GET('/api/marketplace/updates/count'))) as { count?: number }).count ?? 0,
  });
}
