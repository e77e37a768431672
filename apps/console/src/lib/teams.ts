import { api, data } from '../api/client';

/** The teams you belong to, with your role in each: one query shared by the switcher and every screen that reads a role. */
export const teamsQuery = { queryKey: ['teams', 'mine'], queryFn: () => data(api.GET('/api/teams', { params: { query: { limit: 100 } } })) } as const;
