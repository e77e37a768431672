import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerUser, type TestStack } from '../../support/test-stack';

export type Session = Awaited<ReturnType<typeof registerUser>> & { token: string };

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The mails the stack's outbox holds, oldest first. */
export function outbox(stack: TestStack): Array<{ to: string; subject: string; text: string }> {
  const dir = join(stack.config.dataDir, 'outbox');
  try {
    return readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  } catch {
    return [];
  }
}

/** The token of the last invitation mailed to `email`. */
export function invitationToken(stack: TestStack, email: string): string {
  const mail = outbox(stack).filter((m) => m.to === email && m.subject.startsWith('You are invited')).at(-1);
  if (!mail) throw new Error(`no invitation mailed to ${email}`);
  return /^([A-Za-z0-9_-]{43})$/m.exec(mail.text)![1]!;
}

export async function session(stack: TestStack): Promise<Session> {
  const user = await registerUser(stack.client);
  return { ...user, token: user.access_token };
}

/** Invites `who` into the team with `role` (as `by`) and accepts it; fails loudly otherwise. */
export async function addMember(stack: TestStack, teamId: string, by: Session, who: Session, role: Exclude<Role, 'owner'>): Promise<void> {
  const invited = await stack.client.post(`/api/teams/${teamId}/invitations`, { email: who.email, role }, { token: by.token });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${invited.text}`);
  const accepted = await stack.client.post('/api/teams/invitations/accept', { token: invitationToken(stack, who.email) }, { token: who.token });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
}

export interface TeamWorld {
  teamId: string;
  /** Every role of the team, and `outsider`: the Owner of another team. */
  users: Record<Role | 'outsider', Session>;
  outsiderTeamId: string;
}

/** A team with one user in each role (the Owner on `plan`), and an outsider who owns a team of their own. */
export async function teamWithEveryRole(stack: TestStack, plan: 'free' | 'pro' = 'pro'): Promise<TeamWorld> {
  const [owner, admin, member, viewer, outsider] = await Promise.all([session(stack), session(stack), session(stack), session(stack), session(stack)]);
  if (plan !== 'free') await stack.setPlan(owner.user.id, plan);
  const team = await stack.client.post('/api/teams', { name: `Team ${owner.user.id.slice(0, 8)}` }, { token: owner.token });
  if (team.status !== 201) throw new Error(`create team failed: ${team.status} ${team.text}`);
  await addMember(stack, team.body.id, owner, admin, 'admin');
  await addMember(stack, team.body.id, owner, member, 'member');
  await addMember(stack, team.body.id, owner, viewer, 'viewer');
  const other = await stack.client.post('/api/teams', { name: `Other ${outsider.user.id.slice(0, 8)}` }, { token: outsider.token });
  return { teamId: team.body.id, users: { owner, admin, member, viewer, outsider }, outsiderTeamId: other.body.id };
}

/** An application created by the team's Owner and moved into the team. */
export async function teamApplication(stack: TestStack, world: TeamWorld, name = 'Team App'): Promise<{ id: string; slug: string }> {
  const app = await stack.client.post('/api/applications', { name }, { token: world.users.owner.token });
  if (app.status !== 201) throw new Error(`create application failed: ${app.status} ${app.text}`);
  const moved = await stack.client.post(`/api/applications/${app.body.id}/transfer`, { teamId: world.teamId }, { token: world.users.owner.token });
  if (moved.status !== 200) throw new Error(`transfer failed: ${moved.status} ${moved.text}`);
  return { id: app.body.id, slug: app.body.slug };
}
