import { randomUUID } from 'node:crypto';
import type { Application } from '../../../core/applications/domain/application';
import type { TeamRole } from '../../../core/access/roles';
import type { ApplicationChanges, ApplicationHolder, ApplicationRepository, NewApplication } from '../../../core/applications/ports/application-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import type { OwnerLimit } from '../../../core/shared/owner-limit';

export class InMemoryApplicationRepository implements ApplicationRepository {
  readonly apps = new Map<string, Application>();
  /** Team roles by `teamId:userId`, set by tests that exercise team applications. */
  readonly teamRoles = new Map<string, TeamRole>();

  async create(a: NewApplication, limit?: OwnerLimit | null): Promise<Application> {
    // Counted and stored with no await in between: atomic on the one thread.
    if (limit && [...this.apps.values()].filter((x) => x.ownerId === a.ownerId).length >= limit.max) throw limit.exceeded();
    this.assertFreeSlug(a.slug);
    const now = new Date();
    const app: Application = { id: randomUUID(), ...a, teamId: a.teamId ?? null, themeId: null, themeCustomization: {}, hostedPageEnabled: false, createdAt: now, updatedAt: now };
    this.apps.set(app.id, app);
    return structuredClone(app);
  }

  async findById(id: string) {
    const a = this.apps.get(id);
    return a ? structuredClone(a) : null;
  }

  async findBySlug(slug: string) {
    const a = [...this.apps.values()].find((x) => x.slug === slug);
    return a ? structuredClone(a) : null;
  }

  async listByOwner(ownerId: string, offset: number, limit: number) {
    const mine = [...this.apps.values()].filter((a) => a.ownerId === ownerId).sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime());
    return { items: mine.slice(offset, offset + limit).map((a) => structuredClone(a)), total: mine.length };
  }

  async countByOwner(ownerId: string) {
    return [...this.apps.values()].filter((a) => a.ownerId === ownerId).length;
  }

  async update(id: string, changes: ApplicationChanges) {
    const a = this.apps.get(id);
    if (!a) throw new NotFoundError('Application');
    if (changes.slug && changes.slug !== a.slug) this.assertFreeSlug(changes.slug);
    Object.assign(a, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)), { updatedAt: new Date() });
    return structuredClone(a);
  }

  async listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number) {
    const sees = (a: Application) =>
      a.teamId === null ? teamId == null && a.ownerId === userId : (teamId === undefined || teamId === a.teamId) && this.teamRoles.has(`${a.teamId}:${userId}`);
    const visible = [...this.apps.values()].filter(sees).sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime());
    return { items: visible.slice(offset, offset + limit).map((a) => structuredClone(a)), total: visible.length };
  }

  async roleInTeam(teamId: string, userId: string): Promise<TeamRole | null> {
    return this.teamRoles.get(`${teamId}:${userId}`) ?? null;
  }

  async moveTo(id: string, holder: ApplicationHolder, limit?: OwnerLimit | null) {
    const a = this.apps.get(id);
    if (!a) throw new NotFoundError('Application');
    // As `create`: counted and moved with no await in between. One the owner already holds adds nothing.
    if (limit && a.ownerId !== holder.ownerId && [...this.apps.values()].filter((x) => x.ownerId === holder.ownerId).length >= limit.max) throw limit.exceeded();
    Object.assign(a, holder, { updatedAt: new Date() });
    return structuredClone(a);
  }

  async reassignTeam(teamId: string, ownerId: string) {
    for (const a of this.apps.values()) if (a.teamId === teamId) a.ownerId = ownerId;
  }

  async delete(id: string) {
    this.apps.delete(id);
  }

  private assertFreeSlug(slug: string) {
    if ([...this.apps.values()].some((x) => x.slug === slug)) throw new ConflictError('This slug is already taken');
  }
}
