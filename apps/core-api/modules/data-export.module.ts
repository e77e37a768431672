import type { Container } from 'inversify';
import { join } from 'node:path';
import { LocalDiskExportFiles } from '../../../adapters/files/data-export/local-disk.export-files';
import { dataExportRouter } from '../../../adapters/http/data-export/data-export.router';
import { TypeOrmDataExportRepository } from '../../../adapters/persistence/data-export/type-orm-data-export.repository';
import { TypeOrmExportSource } from '../../../adapters/persistence/data-export/type-orm-export-source';
import { TypeOrmImportStore } from '../../../adapters/persistence/data-export/type-orm-import-store';
import {
  BUILD_EXPORT_JOB,
  BuildExportUseCase,
  DownloadExportUseCase,
  GetExportUseCase,
  ImportDataUseCase,
  ListExportsUseCase,
  RequestExportUseCase,
  SweepExpiredExportsUseCase,
  type BuildExportJob,
  type DataExportDeps,
} from '../../../core/data-export/use-cases/data-export.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { eventDeps } from '../../shared/modules/event.tokens';
import { GUARD_TOKENS } from '../../shared/modules/guard.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { ownJobQueue } from './job-queues';
import { DATA_EXPORT_TOKENS } from './data-export.tokens';

export interface DataExportModuleOptions {
  /** BullMQ key prefix of the export jobs (tests give each stack its own). */
  jobPrefix?: string;
  /** How often expired exports and their files are removed. */
  sweepIntervalMs?: number;
}

/** Data export (a job writing a file under DATA_DIR/exports, downloaded by its owner for 24 h) and bulk import. */
export function dataExportModule(options: DataExportModuleOptions = {}): AppModule {
  return {
    name: 'data-export',
    bind(c: Container) {
      const db = (get: Getter) => get(TOKENS.DataSource);
      provide(c, DATA_EXPORT_TOKENS.Repository, (get) => new TypeOrmDataExportRepository(db(get)));
      provide(c, DATA_EXPORT_TOKENS.Source, (get) => new TypeOrmExportSource(db(get)));
      provide(c, DATA_EXPORT_TOKENS.Files, (get) => new LocalDiskExportFiles(join(get(TOKENS.Config).dataDir, 'exports')));
      provide(c, DATA_EXPORT_TOKENS.ImportStore, (get) => new TypeOrmImportStore(db(get)));
      provide(c, DATA_EXPORT_TOKENS.JobQueue, (get) => ownJobQueue(get, options.jobPrefix ?? 'data-export'));
      const deps = (get: Getter): DataExportDeps => ({
        exports: get(DATA_EXPORT_TOKENS.Repository),
        source: get(DATA_EXPORT_TOKENS.Source),
        files: get(DATA_EXPORT_TOKENS.Files),
        queue: get(DATA_EXPORT_TOKENS.JobQueue),
        clock: get(TOKENS.Clock),
      });
      provide(c, RequestExportUseCase, (get) => new RequestExportUseCase(deps(get)));
      provide(c, ListExportsUseCase, (get) => new ListExportsUseCase(deps(get)));
      provide(c, GetExportUseCase, (get) => new GetExportUseCase(deps(get)));
      provide(c, DownloadExportUseCase, (get) => new DownloadExportUseCase(deps(get)));
      provide(c, BuildExportUseCase, (get) => new BuildExportUseCase(deps(get)));
      provide(c, SweepExpiredExportsUseCase, (get) => new SweepExpiredExportsUseCase(deps(get)));
      provide(c, ImportDataUseCase, (get) =>
        new ImportDataUseCase({
          store: get(DATA_EXPORT_TOKENS.ImportStore),
          guard: c.isBound(GUARD_TOKENS.ApplicationQuotaGuard) ? get(GUARD_TOKENS.ApplicationQuotaGuard) : undefined,
          ...eventDeps(c, get),
        }),
      );
    },
    routers: (c) => [
      dataExportRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        request: resolve(c, RequestExportUseCase),
        list: resolve(c, ListExportsUseCase),
        get: resolve(c, GetExportUseCase),
        download: resolve(c, DownloadExportUseCase),
        importData: resolve(c, ImportDataUseCase),
      }),
    ],
    async start(c: Container) {
      const queue = resolve(c, DATA_EXPORT_TOKENS.JobQueue);
      const build = resolve(c, BuildExportUseCase);
      const sweep = resolve(c, SweepExpiredExportsUseCase);
      const logger = resolve(c, TOKENS.Logger);
      queue.register<BuildExportJob>(BUILD_EXPORT_JOB, (job) => build.execute(job.exportId), { attempts: 1, backoffMs: 1000, concurrency: 1 });
      await queue.start();
      const run = () => void sweep.execute().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'expired export sweep failed'));
      run();
      const timer = setInterval(run, options.sweepIntervalMs ?? 3_600_000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await queue.stop();
      };
    },
  };
}
