import type { Branding } from '../domain/branding';

/** One branding record per application, gone with it. */
export interface BrandingRepository {
  find(applicationId: string): Promise<Branding | null>;
  save(applicationId: string, branding: Omit<Branding, 'updatedAt'>): Promise<Branding>;
}
