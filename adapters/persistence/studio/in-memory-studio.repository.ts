import { randomUUID } from 'node:crypto';
import type { StudioConfig } from '../../../core/studio/domain/studio-config';
import { MAX_VERSIONS_PER_APPLICATION, type StudioDraft, type StudioRepository, type StudioVersion } from '../../../core/studio/ports/studio-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';

/** Studio drafts and versions in memory, for unit tests. `emails` answers publishers' addresses. */
export class InMemoryStudioRepository implements StudioRepository {
  readonly drafts = new Map<string, StudioDraft>();
  readonly versions: StudioVersion[] = [];

  constructor(
    private readonly applicationExists: (id: string) => boolean,
    private readonly emails: (userId: string) => string | undefined = () => undefined,
  ) {}

  async findDraft(applicationId: string) {
    const d = this.drafts.get(applicationId);
    return d ? structuredClone(d) : null;
  }

  async saveDraft(d: { applicationId: string; config: StudioConfig; basedOnVersion: number | null; updatedBy: string }) {
    if (!this.applicationExists(d.applicationId)) throw new NotFoundError('Application');
    const draft: StudioDraft = { ...structuredClone(d), updatedAt: new Date() };
    this.drafts.set(d.applicationId, draft);
    return structuredClone(draft);
  }

  async publish(v: { applicationId: string; note: string; config: StudioConfig; publishedBy: string }) {
    if (!this.applicationExists(v.applicationId)) throw new NotFoundError('Application');
    const last = Math.max(0, ...this.of(v.applicationId).map((x) => x.number));
    if (last >= MAX_VERSIONS_PER_APPLICATION) throw new ConflictError(`An application keeps at most ${MAX_VERSIONS_PER_APPLICATION} published versions`);
    const email = this.emails(v.publishedBy);
    const version: StudioVersion = {
      id: randomUUID(),
      applicationId: v.applicationId,
      number: last + 1,
      note: v.note,
      config: structuredClone(v.config),
      publishedBy: email ? { id: v.publishedBy, email } : null,
      publishedAt: new Date(),
    };
    this.versions.push(version);
    this.drafts.set(v.applicationId, { applicationId: v.applicationId, config: structuredClone(v.config), basedOnVersion: version.number, updatedBy: v.publishedBy, updatedAt: new Date() });
    return structuredClone(version);
  }

  async listVersions(applicationId: string, offset: number, limit: number) {
    const all = this.of(applicationId).sort((a, b) => b.number - a.number);
    return { data: all.slice(offset, offset + limit).map((v) => structuredClone(v)), total: all.length };
  }

  async findVersion(applicationId: string, number: number) {
    const found = this.of(applicationId).find((v) => v.number === number);
    return found ? structuredClone(found) : null;
  }

  async latestVersion(applicationId: string) {
    return (await this.listVersions(applicationId, 0, 1)).data[0] ?? null;
  }

  private of(applicationId: string): StudioVersion[] {
    return this.versions.filter((v) => v.applicationId === applicationId);
  }
}
