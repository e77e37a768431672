import type { SearchMode } from '../../knowledge/domain/hybrid-ranking';
import type { TeamRoleLookup } from '../../access/access-policy';
import type { OwnerLimit } from '../../shared/owner-limit';
import type { Application, ThemeCustomization } from '../domain/application';

export interface NewApplication {
  ownerId: string;
  /** The team that holds it from the start (its Owner is `ownerId`); null or absent for a personal one. */
  teamId?: string | null;
  name: string;
  description: string;
  slug: string;
  allowedOrigins: string[];
}

export type ApplicationChanges = Partial<{
  name: string;
  description: string;
  slug: string;
  allowedOrigins: string[];
  themeId: string | null;
  themeCustomization: ThemeCustomization;
  hostedPageEnabled: boolean;
  retrievalMode: SearchMode;
}>;

/** Where an application moves: a team (its Owner becomes the owner) or back to a user. */
export interface ApplicationHolder {
  teamId: string | null;
  ownerId: string;
}

/** Applications. `create`/`update` throw ConflictError when the slug is taken. */
export interface ApplicationRepository extends TeamRoleLookup {
  /** With `limit`, the owner's applications are counted and the new one stored in one step (see OwnerLimit). */
  create(app: NewApplication, limit?: OwnerLimit | null): Promise<Application>;
  findById(id: string): Promise<Application | null>;
  findBySlug(slug: string): Promise<Application | null>;
  listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: Application[]; total: number }>;
  /**
   * The applications `userId` may see: their personal ones and those of the teams they belong to
   * (only `teamId`'s when given; `null` for personal ones only), newest first.
   */
  listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number): Promise<{ items: Application[]; total: number }>;
  /**
   * Moves the application to a team or a user. With `limit`, the new owner's applications are counted and
   * the move made in one step, as `create` does; one the owner already holds is not counted again.
   */
  moveTo(id: string, holder: ApplicationHolder, limit?: OwnerLimit | null): Promise<Application>;
  /** Makes `ownerId` (the team's new Owner) the owner of every application of the team. */
  reassignTeam(teamId: string, ownerId: string): Promise<void>;
  countByOwner(ownerId: string): Promise<number>;
  update(id: string, changes: ApplicationChanges): Promise<Application>;
  delete(id: string): Promise<void>;
}
