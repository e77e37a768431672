/**
 * The applications a user may see, as SQL for list queries: their personal ones and those of the teams
 * they belong to. `teamId`: `undefined` both, `null` personal only, an id that team's only (if a member).
 * `$u` and `$t` are the parameter placeholders of the user's and the team's ids.
 */
export function visibleApplicationIds(teamId: string | null | undefined, u: string, t: string): string {
  if (teamId === undefined) return `SELECT va.id FROM applications va WHERE (va.team_id IS NULL AND va.owner_id = ${u}) OR va.team_id IN (SELECT vm.team_id FROM team_members vm WHERE vm.user_id = ${u})`;
  if (teamId === null) return `SELECT va.id FROM applications va WHERE va.team_id IS NULL AND va.owner_id = ${u}`;
  return `SELECT va.id FROM applications va WHERE va.team_id = ${t} AND EXISTS (SELECT 1 FROM team_members vm WHERE vm.team_id = ${t} AND vm.user_id = ${u})`;
}

/**
 * For resources with an owner of their own that may be scoped to an application (API keys, domains,
 * webhooks): the user's unscoped ones (unless a team is asked for) and those of the applications they see.
 */
export function visibleScopedResources(teamId: string | null | undefined, u: string, t: string): string {
  const scoped = `application_id IN (${visibleApplicationIds(teamId, u, t)})`;
  return teamId ? scoped : `((application_id IS NULL AND owner_id = ${u}) OR ${scoped})`;
}
