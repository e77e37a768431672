import { randomUUID } from 'node:crypto';
import type { Item, License } from '../../../core/marketplace/domain/item';
import type { HeldLicense, LicenseRepository } from '../../../core/marketplace/ports/marketplace-repository.port';
import type { Clock } from '../../../core/shared/clock.port';

/** Licenses in memory (unit tests), over the items `itemOf` knows; same order and paging as the SQL adapter. */
export class InMemoryLicenseRepository implements LicenseRepository {
  private readonly rows: License[] = [];

  constructor(private readonly deps: { itemOf: (id: string) => Item | null; clock: Clock }) {}

  async issue(l: { itemId: string; userId: string; keyHash: string; keyHint: string; expiresAt: Date | null; issuedBy: string }): Promise<License> {
    const at = this.rows.findIndex((r) => r.itemId === l.itemId && r.userId === l.userId);
    const license: License = {
      id: at >= 0 ? this.rows[at]!.id : randomUUID(),
      itemId: l.itemId,
      userId: l.userId,
      keyHint: l.keyHint,
      status: 'active',
      expiresAt: l.expiresAt,
      issuedBy: l.issuedBy,
      createdAt: this.deps.clock.now(),
    };
    if (at >= 0) this.rows[at] = license;
    else this.rows.push(license);
    return { ...license };
  }

  async find(itemId: string, userId: string): Promise<License | null> {
    const row = this.rows.find((r) => r.itemId === itemId && r.userId === userId);
    return row ? { ...row } : null;
  }

  async list(itemId: string): Promise<License[]> {
    return this.rows.filter((r) => r.itemId === itemId).sort(newestFirst).map((r) => ({ ...r }));
  }

  async listHeld(userId: string, offset: number, limit: number): Promise<{ held: HeldLicense[]; total: number }> {
    const own = this.rows.filter((r) => r.userId === userId).sort(newestFirst);
    const held = own.slice(offset, offset + limit).flatMap((license) => {
      const item = this.deps.itemOf(license.itemId);
      return item ? [{ license: { ...license }, item }] : [];
    });
    return { held, total: own.length };
  }

  async revoke(itemId: string, userId: string): Promise<License | null> {
    const row = this.rows.find((r) => r.itemId === itemId && r.userId === userId);
    if (!row) return null;
    row.status = 'revoked';
    return { ...row };
  }
}

const newestFirst = (a: License, b: License): number => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
