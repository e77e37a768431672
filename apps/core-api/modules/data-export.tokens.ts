import type { DataExportRepository, ExportFiles, ExportSource, ImportStore } from '../../../core/data-export/ports/data-export.ports';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import { token } from '../../shared/tokens';

export const DATA_EXPORT_TOKENS = {
  Repository: token<DataExportRepository>('DataExportRepository'),
  Source: token<ExportSource>('ExportSource'),
  Files: token<ExportFiles>('ExportFiles'),
  ImportStore: token<ImportStore>('ImportStore'),
  JobQueue: token<JobQueue>('DataExportJobQueue'),
} as const;
