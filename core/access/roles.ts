/**
 * Who may do what to a resource, by role. A personal resource's owner has the `owner` role on it; a
 * team resource gives each member their team role. One table decides every use case (docs/teams.md).
 */
export const TEAM_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * - `read`: see it (and chat with an application);
 * - `write`: edit what shapes answers (configs, prompts, knowledge, conversations' settings);
 * - `manage`: API keys, plugins, webhooks, branding, domains, themes, the application's settings, members below Admin;
 * - `delete`: delete it, billing, ownership transfer.
 */
export const ACCESS_ACTIONS = ['read', 'write', 'manage', 'delete'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

const RANK: Record<TeamRole, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };
const NEEDED: Record<AccessAction, TeamRole> = { read: 'viewer', write: 'member', manage: 'admin', delete: 'owner' };

export const isTeamRole = (value: unknown): value is TeamRole => typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);

/** Whether `role` ranks at least as high as `other`. */
export const atLeast = (role: TeamRole, other: TeamRole): boolean => RANK[role] >= RANK[other];

/** Whether a holder of `role` may perform `action`. */
export const allows = (role: TeamRole, action: AccessAction): boolean => atLeast(role, NEEDED[action]);
