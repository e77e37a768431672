import type { Readable } from 'node:stream';
import type { OwnerLimit } from '../../shared/owner-limit';
import type {
  ConversationStats,
  DataExport,
  DayStats,
  ExportContent,
  ExportedApplication,
  ExportedConversation,
  ExportFormat,
  ExportResources,
} from '../domain/data-export';
import type { ImportedApplication } from '../domain/data-import';

export interface DataExportRepository {
  /** A new pending export, or null while another of the owner's exports newer than `staleBefore` is pending or running. */
  create(request: { ownerId: string; resources: ExportResources; format: ExportFormat; createdAt: Date; expiresAt: Date; staleBefore: Date }): Promise<DataExport | null>;
  findById(id: string): Promise<DataExport | null>;
  /** The owner's exports, newest first (ties by id, descending), and how many the owner has in all. */
  listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: DataExport[]; total: number }>;
  /** pending → running; null when it is not pending (another worker has it, or it is done). */
  claim(id: string): Promise<DataExport | null>;
  complete(id: string, result: { fileName: string; byteSize: number; at: Date }): Promise<void>;
  fail(id: string, error: string, at: Date): Promise<void>;
  /** Deletes the exports expired before `now` and answers their files' names. */
  removeExpired(now: Date): Promise<string[]>;
  /** Which of these exports still exist (a deleted account's went with it). */
  existing(ids: string[]): Promise<Set<string>>;
}

/** Reads an owner's records for an export lazily, in pages. */
export interface ExportSource {
  applications(ownerId: string, withConversations: boolean): AsyncIterable<ExportedApplication>;
  conversations(ownerId: string): AsyncIterable<ExportedConversation>;
  conversationStats(ownerId: string): AsyncIterable<ConversationStats>;
  dayStats(ownerId: string): AsyncIterable<DayStats>;
}

export interface ExportFile {
  stream: Readable;
  byteSize: number;
  contentType: string;
  /** The name a browser saves it under. */
  downloadName: string;
}

/** Where export files are written and read back (DATA_DIR). */
export interface ExportFiles {
  /** Streams the content into a new file; answers its name and size. */
  write(exportId: string, format: ExportFormat, content: ExportContent): Promise<{ fileName: string; byteSize: number }>;
  open(fileName: string): Promise<ExportFile | null>;
  remove(fileName: string): Promise<void>;
  /** The export files present, each with the id of its export. */
  list(): Promise<Array<{ fileName: string; exportId: string }>>;
}

/** Stores imported applications, each with everything it holds in one transaction. */
export interface ImportStore {
  /** The application an earlier import of this client id created, if it still exists. */
  findImported(ownerId: string, clientId: string): Promise<string | null>;
  /**
   * Stores one application with its configs, prompts and conversations, and the client id, all or
   * nothing. Throws ConflictError when the client id was imported meanwhile; `limit.exceeded()` past the plan.
   */
  importApplication(ownerId: string, record: ImportedApplication, slug: string, limit: OwnerLimit | null): Promise<string>;
}
