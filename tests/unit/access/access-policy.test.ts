import { authorize } from '../../../core/access/access-policy';
import { ACCESS_ACTIONS, allows, TEAM_ROLES, type AccessAction, type TeamRole } from '../../../core/access/roles';
import { findOwnedApplication } from '../../../core/applications/use-cases/find-owned-application';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { ForbiddenError, NotFoundError } from '../../../core/shared/errors';

const MATRIX: Record<TeamRole, AccessAction[]> = {
  viewer: ['read'],
  member: ['read', 'write'],
  admin: ['read', 'write', 'manage'],
  owner: ['read', 'write', 'manage', 'delete'],
};

describe('core/access', () => {
  it.each(TEAM_ROLES.flatMap((role) => ACCESS_ACTIONS.map((action) => [role, action] as const)))('%s may %s as the role matrix says', (role, action) => {
    expect(allows(role, action)).toBe(MATRIX[role].includes(action));
  });

  it('answers 404 to someone without a role and 403 to a role that falls short', async () => {
    const lookup = { roleInTeam: async (_team: string, user: string) => (user === 'viewer-id' ? ('viewer' as const) : null) };
    const teamResource = { ownerId: 'owner-id', teamId: 'team-id' };
    await expect(authorize(teamResource, { userId: 'stranger', role: 'developer' }, 'read', 'Thing', lookup)).rejects.toBeInstanceOf(NotFoundError);
    await expect(authorize(teamResource, { userId: 'viewer-id', role: 'developer' }, 'write', 'Thing', lookup)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(authorize(teamResource, { userId: 'viewer-id', role: 'developer' }, 'read', 'Thing', lookup)).resolves.toBe('viewer');
    await expect(authorize(null, { userId: 'viewer-id', role: 'developer' }, 'read', 'Thing', lookup)).rejects.toBeInstanceOf(NotFoundError);
    // A personal resource: its owner holds every right, nobody else any.
    await expect(authorize({ ownerId: 'me' }, { userId: 'me', role: 'user' }, 'delete', 'Thing', null)).resolves.toBe('owner');
    await expect(authorize({ ownerId: 'me', teamId: null }, { userId: 'you', role: 'admin' }, 'read', 'Thing', null)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('findOwnedApplication called with three arguments applies the strictest action: only the Owner passes', async () => {
    const applications = new InMemoryApplicationRepository();
    const app = await applications.create({ ownerId: 'owner-id', name: 'A', description: '', slug: 'team-app', allowedOrigins: [] });
    await applications.moveTo(app.id, { teamId: 'team-id', ownerId: 'owner-id' });
    applications.teamRoles.set('team-id:admin-id', 'admin');
    applications.teamRoles.set('team-id:owner-id', 'owner');
    const admin = { userId: 'admin-id', role: 'developer' as const };
    await expect(findOwnedApplication(applications, app.id, admin)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(findOwnedApplication(applications, app.id, admin, 'manage')).resolves.toMatchObject({ id: app.id });
    await expect(findOwnedApplication(applications, app.id, { userId: 'owner-id', role: 'developer' })).resolves.toMatchObject({ id: app.id });
    await expect(findOwnedApplication(applications, app.id, { userId: 'stranger', role: 'developer' }, 'read')).rejects.toBeInstanceOf(NotFoundError);
    await expect(findOwnedApplication(applications, 'not-a-uuid', admin, 'read')).rejects.toBeInstanceOf(NotFoundError);
  });
});
