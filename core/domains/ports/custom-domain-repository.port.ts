import type { CustomDomain, DomainSettings, DomainStatus } from '../domain/custom-domain';

export type CustomDomainChanges = Partial<{
  status: DomainStatus;
  failureReason: string | null;
  settings: DomainSettings;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  activatedAt: Date | null;
  sslExpiresAt: Date | null;
  sslCheckedAt: Date | null;
  sslError: string | null;
}>;

/** Custom domains. `create` throws ConflictError when the domain is taken (by anyone). */
export interface CustomDomainRepository {
  create(d: { ownerId: string; applicationId: string; domain: string; verificationToken: string }): Promise<CustomDomain>;
  findById(id: string): Promise<CustomDomain | null>;
  findByDomain(domain: string): Promise<CustomDomain | null>;
  /** `ownerId`'s domains and those of the applications they see (theirs and their teams'; `teamId` narrows). */
  listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null): Promise<{ items: CustomDomain[]; total: number }>;
  listActive(): Promise<CustomDomain[]>;
  update(id: string, changes: CustomDomainChanges): Promise<CustomDomain>;
  /** Moves `from` one of the given states only (null when the domain is in another state now). */
  transition(id: string, from: DomainStatus[], changes: CustomDomainChanges): Promise<CustomDomain | null>;
  delete(id: string): Promise<void>;
}
