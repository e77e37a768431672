import { randomUUID } from 'node:crypto';
import type { CustomDomain, DomainStatus } from '../../core/domains/domain/custom-domain';
import type { CustomDomainChanges, CustomDomainRepository } from '../../core/domains/ports/custom-domain-repository.port';

/** Custom domains in memory, for tests of the domains use cases. */
export class InMemoryDomains implements CustomDomainRepository {
  readonly rows = new Map<string, CustomDomain>();
  async create(d: { ownerId: string; applicationId: string; domain: string; verificationToken: string }) {
    const row: CustomDomain = { id: randomUUID(), ...d, status: 'pending', failureReason: null, settings: { redirectWww: false, forceHttps: false, customHeaders: {} }, verifiedAt: null, lastCheckedAt: null, activatedAt: null, sslExpiresAt: null, sslCheckedAt: null, sslError: null, createdAt: new Date() };
    this.rows.set(row.id, row);
    return row;
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async findByDomain(domain: string) {
    return [...this.rows.values()].find((r) => r.domain === domain) ?? null;
  }
  async listByOwner(ownerId: string) {
    const items = [...this.rows.values()].filter((r) => r.ownerId === ownerId);
    return { items, total: items.length };
  }
  async listActive() {
    return [...this.rows.values()].filter((r) => r.status === 'active');
  }
  async update(id: string, changes: CustomDomainChanges) {
    const row = { ...this.rows.get(id)!, ...changes };
    this.rows.set(id, row);
    return row;
  }
  async transition(id: string, from: DomainStatus[], changes: CustomDomainChanges) {
    return from.includes(this.rows.get(id)!.status) ? this.update(id, changes) : null;
  }
  async delete(id: string) {
    this.rows.delete(id);
  }
}
