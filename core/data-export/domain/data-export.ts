/** What an export holds (`all`: applications with their configs, prompts and conversations, and analytics). */
export const EXPORT_RESOURCES = ['all', 'applications', 'conversations', 'analytics'] as const;
export type ExportResources = (typeof EXPORT_RESOURCES)[number];

/** `json`: one document; `csv`: a ZIP of one CSV table per kind of record. */
export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_STATUSES = ['pending', 'running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** How long an export's download link works, from the request. */
export const EXPORT_LINK_HOURS = 24;
/** A pending or running export older than this no longer blocks a new one (its job was lost). */
export const EXPORT_STALE_MINUTES = 60;

export interface DataExport {
  id: string;
  ownerId: string;
  resources: ExportResources;
  format: ExportFormat;
  status: ExportStatus;
  fileName: string | null;
  byteSize: number | null;
  error: string | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
}

export interface DataExportView {
  id: string;
  resources: ExportResources;
  format: ExportFormat;
  status: ExportStatus;
  byteSize: number | null;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  expiresAt: string;
  /** Set once ready and until it expires; works only with its owner's bearer token. */
  downloadUrl: string | null;
}

export const toDataExportView = (e: DataExport, now: Date): DataExportView => ({
  id: e.id,
  resources: e.resources,
  format: e.format,
  status: e.status,
  byteSize: e.byteSize,
  error: e.error,
  createdAt: e.createdAt.toISOString(),
  completedAt: e.completedAt?.toISOString() ?? null,
  expiresAt: e.expiresAt.toISOString(),
  downloadUrl: e.status === 'ready' && e.expiresAt > now ? `/api/data-export/${e.id}/download` : null,
});

/* The records of an export. Only what a user wrote or the platform derived from it: never passwords,
 * API keys, provider keys, webhook secrets or billing data. Nested lists are async iterables, read from
 * the store page by page while the file is written, so no export holds all its rows in memory. */

export interface ExportedMessage {
  role: 'user' | 'assistant';
  content: string;
  status: 'complete' | 'interrupted' | 'failed';
  provider: string | null;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  latencyMs: number | null;
  rating: number | null;
  sources: unknown;
  createdAt: string;
}

export interface ExportedConversation {
  /** The conversation's id in the exporting account: an import's idempotency key within its application. */
  clientId: string;
  applicationClientId: string;
  title: string;
  status: 'active' | 'archived';
  source: 'dashboard' | 'api' | 'widget';
  createdAt: string;
  messages: AsyncIterable<ExportedMessage>;
}

export interface ExportedModelConfig {
  name: string;
  provider: string;
  modelId: string;
  settings: Record<string, unknown>;
  isDefault: boolean;
}

export interface ExportedPromptTemplate {
  name: string;
  content: string;
  isDefault: boolean;
}

export interface ExportedApplication {
  /** The application's id in the exporting account: the import's idempotency key. */
  clientId: string;
  name: string;
  description: string;
  allowedOrigins: string[];
  createdAt: string;
  modelConfigs: ExportedModelConfig[];
  promptTemplates: ExportedPromptTemplate[];
  /** Present when the export holds conversations. */
  conversations?: AsyncIterable<ExportedConversation>;
}

/** Derived from the stored messages of one conversation. */
export interface ConversationStats {
  conversationId: string;
  applicationId: string;
  source: string;
  messages: number;
  userMessages: number;
  assistantMessages: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  firstMessageAt: string | null;
  lastMessageAt: string | null;
}

/** Derived from the stored messages of one application on one UTC day. */
export interface DayStats {
  day: string;
  applicationId: string;
  conversations: number;
  messages: number;
  userMessages: number;
  assistantMessages: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ExportContent {
  exportedAt: string;
  resources: ExportResources;
  applications?: AsyncIterable<ExportedApplication>;
  /** Conversations without their applications (`resources: conversations`). */
  conversations?: AsyncIterable<ExportedConversation>;
  analytics?: { conversations: AsyncIterable<ConversationStats>; days: AsyncIterable<DayStats> };
}

/** The document an import takes, and a JSON export of `all` or `applications` is. */
export const EXPORT_DOCUMENT_FORMAT = 'ai-platform-export';
export const EXPORT_DOCUMENT_VERSION = 1;
