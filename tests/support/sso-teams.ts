import { randomBytes } from 'node:crypto';
import { SSO_TOKENS } from '../../apps/core-api/modules/sso.tokens';
import { resolve } from '../../apps/shared/tokens';
import type { TestStack } from './test-stack';

/** A team owned by `ownerId`, made through the teams repository the SSO module uses. */
export async function makeTeam(stack: TestStack, ownerId: string, slug = `team-${randomBytes(4).toString('hex')}`) {
  const teams = resolve(stack.core.container, SSO_TOKENS.Teams) as unknown as {
    create(t: { name: string; slug: string; description: string; settings: Record<string, unknown> }, ownerId: string): Promise<{ id: string; slug: string }>;
  };
  return teams.create({ name: `Team ${slug}`, slug, description: '', settings: { defaultProvider: null, sharedProviderKeys: false, membersMayInvite: false } }, ownerId);
}

/** The user's role in the team, read through the same repository. */
export async function roleIn(stack: TestStack, teamId: string, userId: string) {
  return resolve(stack.core.container, SSO_TOKENS.Teams).roleInTeam(teamId, userId);
}

/** Adds a member with a role. */
export async function addMember(stack: TestStack, teamId: string, userId: string, role: 'admin' | 'member' | 'viewer') {
  await resolve(stack.core.container, SSO_TOKENS.Teams).addMember(teamId, userId, role);
}
