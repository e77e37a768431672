import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import { slugify } from '../../applications/domain/application';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import type { OwnerLimit } from '../../shared/owner-limit';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { str, validate } from '../../shared/validation';
import {
  EXPORT_FORMATS,
  EXPORT_LINK_HOURS,
  EXPORT_RESOURCES,
  EXPORT_STALE_MINUTES,
  toDataExportView,
  type DataExport,
  type DataExportView,
  type ExportContent,
  type ExportFormat,
  type ExportResources,
} from '../domain/data-export';
import { importDocumentSchema, MAX_IMPORT_RECORDS, readImportedApplication, type RefusedItem } from '../domain/data-import';
import type { DataExportRepository, ExportFile, ExportFiles, ExportSource, ImportStore } from '../ports/data-export.ports';

export const BUILD_EXPORT_JOB = 'data-export.build';
export interface BuildExportJob {
  exportId: string;
}

export interface DataExportDeps {
  exports: DataExportRepository;
  source: ExportSource;
  files: ExportFiles;
  queue: JobQueue;
  clock: Clock;
}

const requestSchema = yup.object({
  resources: str().oneOf([...EXPORT_RESOURCES], `resources must be one of ${EXPORT_RESOURCES.join(', ')}`).default('all'),
  format: str().oneOf([...EXPORT_FORMATS], `format must be one of ${EXPORT_FORMATS.join(', ')}`).default('json'),
});

/** The caller's own export, or a 404 that does not tell "not yours" from "does not exist". */
async function ownExport(exports: DataExportRepository, id: string, actor: Actor): Promise<DataExport> {
  if (!isUuid(id)) throw new NotFoundError('Export');
  const found = await exports.findById(id);
  if (!found || found.ownerId !== actor.userId) throw new NotFoundError('Export');
  return found;
}

/**
 * Starts an export of the caller's data as a background job; the answer names the export, whose
 * status (and, once ready, download link) `GET /api/data-export/:id` reports. One at a time per user.
 */
export class RequestExportUseCase {
  constructor(private readonly deps: Pick<DataExportDeps, 'exports' | 'queue' | 'clock'>) {}

  async execute(input: unknown, actor: Actor): Promise<DataExportView> {
    const body = await validate(requestSchema, input ?? {});
    const now = this.deps.clock.now();
    const created = await this.deps.exports.create({
      ownerId: actor.userId,
      resources: body.resources as ExportResources,
      format: body.format as ExportFormat,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EXPORT_LINK_HOURS * 3_600_000),
      staleBefore: new Date(now.getTime() - EXPORT_STALE_MINUTES * 60_000),
    });
    if (!created) throw new ConflictError('An export of yours is still being prepared; wait for it to finish');
    await this.deps.queue.enqueue<BuildExportJob>(BUILD_EXPORT_JOB, { exportId: created.id }, { id: created.id });
    return toDataExportView(created, now);
  }
}

export class GetExportUseCase {
  constructor(private readonly deps: Pick<DataExportDeps, 'exports' | 'clock'>) {}

  async execute(id: string, actor: Actor): Promise<DataExportView> {
    return toDataExportView(await ownExport(this.deps.exports, id, actor), this.deps.clock.now());
  }
}

/**
 * The caller's exports, newest first, paged by `?page=&limit=`, each as `GetExportUseCase` answers it:
 * an expired one stays listed (without a download link) until the sweep deletes it.
 */
export class ListExportsUseCase {
  constructor(private readonly deps: Pick<DataExportDeps, 'exports' | 'clock'>) {}

  async execute(query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<DataExportView>> {
    const page = parsePageRequest(query);
    const { items, total } = await this.deps.exports.listByOwner(actor.userId, offsetOf(page), page.limit);
    const now = this.deps.clock.now();
    return { data: items.map((e) => toDataExportView(e, now)), total, page: page.page, limit: page.limit };
  }
}

/** The file of a ready export, for its owner only and until it expires (then 404, like any other's). */
export class DownloadExportUseCase {
  constructor(private readonly deps: DataExportDeps) {}

  async execute(id: string, actor: Actor): Promise<ExportFile> {
    const found = await ownExport(this.deps.exports, id, actor);
    if (found.expiresAt <= this.deps.clock.now()) throw new NotFoundError('Export', 'This export has expired; request a new one');
    if (found.status !== 'ready' || !found.fileName) throw new ConflictError(`This export is ${found.status}, not ready for download`);
    const file = await this.deps.files.open(found.fileName);
    if (!file) throw new NotFoundError('Export', 'This export file is no longer available; request a new one');
    return file;
  }
}

/** The job: reads the owner's records page by page and streams them into the export file. */
export class BuildExportUseCase {
  constructor(private readonly deps: DataExportDeps) {}

  async execute(exportId: string): Promise<void> {
    const job = await this.deps.exports.claim(exportId);
    if (!job) return;
    try {
      const { fileName, byteSize } = await this.deps.files.write(job.id, job.format, this.contentOf(job));
      await this.deps.exports.complete(job.id, { fileName, byteSize, at: this.deps.clock.now() });
    } catch (error) {
      await this.deps.exports.fail(job.id, 'The export could not be written', this.deps.clock.now());
      throw error;
    }
  }

  private contentOf(job: DataExport): ExportContent {
    const { source } = this.deps;
    const all = job.resources === 'all';
    return {
      exportedAt: this.deps.clock.now().toISOString(),
      resources: job.resources,
      applications: all || job.resources === 'applications' ? source.applications(job.ownerId, all) : undefined,
      conversations: job.resources === 'conversations' ? source.conversations(job.ownerId) : undefined,
      analytics:
        all || job.resources === 'analytics' ? { conversations: source.conversationStats(job.ownerId), days: source.dayStats(job.ownerId) } : undefined,
    };
  }
}

/** Deletes expired exports and their files, and the files of exports that are gone (a deleted account's). */
export class SweepExpiredExportsUseCase {
  constructor(private readonly deps: DataExportDeps) {}

  async execute(): Promise<number> {
    const names = await this.deps.exports.removeExpired(this.deps.clock.now());
    for (const name of names) await this.deps.files.remove(name);
    const present = await this.deps.files.list();
    const existing = await this.deps.exports.existing(present.map((f) => f.exportId));
    const orphans = present.filter((f) => !existing.has(f.exportId));
    for (const f of orphans) await this.deps.files.remove(f.fileName);
    return names.length + orphans.length;
  }
}

export interface ImportResult {
  index: number;
  status: 'created' | 'skipped' | 'failed';
  /** The application created, or the one an earlier import of the same clientId created. */
  applicationId?: string;
  /** Why the application was refused as a whole (nothing of it was stored). */
  error?: string;
  /** Created: the items of the application left out, each with its reason (absent when none was). */
  refused?: RefusedItem[];
}

export interface ImportReport {
  results: ImportResult[];
  created: number;
  skipped: number;
  failed: number;
}

/** Optional: how many applications the actor's plan allows (the billing area plugs it in). */
export type ImportQuotaGuard = (ownerId: string) => Promise<OwnerLimit | null>;

/**
 * Bulk import of applications with their model configs (and A/B versions), prompt templates and
 * conversations. Each record is checked and stored on its own, in one transaction, and reported as
 * created (with the items it left out, each with its reason), skipped (its `clientId` was imported
 * before: importing again changes nothing) or failed with the reason (nothing of it stored).
 */
export class ImportDataUseCase {
  constructor(private readonly deps: { store: ImportStore; guard?: ImportQuotaGuard; events?: EventPublisher; unitOfWork?: UnitOfWork }) {}

  async execute(input: unknown, actor: Actor): Promise<ImportReport> {
    const body = await validate(importDocumentSchema, input);
    const records = body.applications;
    if (!Array.isArray(records)) throw ValidationError.field('applications', 'applications must be an array');
    if (records.length === 0) throw ValidationError.field('applications', 'applications must hold at least one record');
    if (records.length > MAX_IMPORT_RECORDS) throw ValidationError.field('applications', `applications may hold at most ${MAX_IMPORT_RECORDS} records`);
    const results: ImportResult[] = [];
    for (let index = 0; index < records.length; index++) {
      results.push(await this.importOne(records[index], index, actor));
    }
    const tally = (status: ImportResult['status']) => results.filter((r) => r.status === status).length;
    return { results, created: tally('created'), skipped: tally('skipped'), failed: tally('failed') };
  }

  private async importOne(raw: unknown, index: number, actor: Actor): Promise<ImportResult> {
    try {
      const { application: record, refused } = await readImportedApplication(raw);
      const earlier = await this.deps.store.findImported(actor.userId, record.clientId);
      if (earlier) return { index, status: 'skipped', applicationId: earlier };
      const limit = (await this.deps.guard?.(actor.userId)) ?? null;
      const base = slugify(record.name);
      for (let attempt = 0; attempt < 5; attempt++) {
        const slug = attempt === 0 ? base : `${base.slice(0, 50)}-${randomBytes(3).toString('hex')}`;
        try {
          // The application and its `application.created` event commit together.
          const applicationId = await (this.deps.unitOfWork ?? noUnitOfWork).run(async () => {
            const id = await this.deps.store.importApplication(actor.userId, record, slug, limit);
            await this.deps.events?.publish({ type: 'application.created', ownerId: actor.userId, applicationId: id, data: { applicationId: id, name: record.name } });
            return id;
          });
          return { index, status: 'created', applicationId, ...(refused.length ? { refused } : {}) };
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error;
          const raced = await this.deps.store.findImported(actor.userId, record.clientId);
          if (raced) return { index, status: 'skipped', applicationId: raced };
        }
      }
      return { index, status: 'failed', error: 'Could not find a free slug for this application' };
    } catch (error) {
      if (error instanceof AppError) return { index, status: 'failed', error: error.message };
      throw error;
    }
  }
}
