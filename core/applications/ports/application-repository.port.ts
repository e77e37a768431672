import type { OwnerLimit } from '../../shared/owner-limit';
import type { Application, ThemeCustomization } from '../domain/application';

export interface NewApplication {
  ownerId: string;
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
}>;

/** Applications. `create`/`update` throw ConflictError when the slug is taken. */
export interface ApplicationRepository {
  /** With `limit`, the owner's applications are counted and the new one stored in one step (see OwnerLimit). */
  create(app: NewApplication, limit?: OwnerLimit | null): Promise<Application>;
  findById(id: string): Promise<Application | null>;
  findBySlug(slug: string): Promise<Application | null>;
  listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: Application[]; total: number }>;
  countByOwner(ownerId: string): Promise<number>;
  update(id: string, changes: ApplicationChanges): Promise<Application>;
  delete(id: string): Promise<void>;
}
