import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';

/**
 * The platform's allowed ranges for model settings (temperature per provider, max tokens, top P, penalties), as the
 * application's studio draft reports them, for any form that wants to show them before a save. Off without an
 * application.
 */
export function useSettingRanges(appId: string | undefined) {
  return useQuery({
    queryKey: ['setting-ranges', appId],
    enabled: !!appId,
    staleTime: 5 * 60_000,
    queryFn: async () => (await data(api.GET('/api/applications/{appId}/studio/draft', { params: { path: { appId: appId! } } }))).ranges,
  });
}
