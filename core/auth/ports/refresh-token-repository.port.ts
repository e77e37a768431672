export interface RefreshTokenRecord {
  id: string;
  userId: string;
  familyId: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

/** Refresh tokens by id; each works once, and a family is revoked together. */
export interface RefreshTokenRepository {
  create(record: { id: string; userId: string; familyId: string; expiresAt: Date }): Promise<void>;
  findById(id: string): Promise<RefreshTokenRecord | null>;
  /** Marks the token used if it was unused and unrevoked; false when someone already spent it. */
  markUsed(id: string, at: Date): Promise<boolean>;
  revokeFamily(familyId: string, at: Date): Promise<void>;
  revokeAllForUser(userId: string, at: Date): Promise<void>;
}
