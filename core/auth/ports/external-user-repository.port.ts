/**
 * The platform accounts of an embedding program's own users: one account per (issuer, external id), where the
 * issuer names the program's user directory (several programs, or tenants, may share one platform).
 */
export interface ExternalUserRepository {
  /** The account mapped to the external user, or null before its first use. */
  find(issuer: string, externalId: string): Promise<string | null>;
  /**
   * Maps the external user to `userId` unless it is mapped already; answers the account it is mapped to after
   * the call (the one of a concurrent first use that won, if any).
   */
  link(issuer: string, externalId: string, userId: string): Promise<string>;
}
