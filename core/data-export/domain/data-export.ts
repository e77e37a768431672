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

/** A call an assistant message made to a tool: `arguments` as the model wrote them (parsed JSON or text). */
export interface ExportedToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/**
 * One stored message, whatever its kind: a user message, an assistant answer (complete, `interrupted`
 * with the part kept, possibly empty, or `failed` with its `error`), an assistant message that called
 * tools (`toolCalls`), or a tool's result (role `tool`, answering `toolCallId`). Version 1 files have
 * only the fields up to `sources`; the others read as null there.
 */
export interface ExportedMessage {
  role: 'user' | 'assistant' | 'tool';
  /** Exactly as stored; may be empty (a stream stopped before its first chunk, a failed answer, a turn of tool calls). */
  content: string;
  status: 'complete' | 'interrupted' | 'failed';
  /** Why a `failed` answer failed, as the user was told. */
  error: string | null;
  provider: string | null;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  latencyMs: number | null;
  rating: number | null;
  sources: unknown;
  /** The A/B version that answered (the `clientId` of a version in this application's model configs). */
  configVersionClientId: string | null;
  toolCalls: ExportedToolCall[] | null;
  /** A `tool` message: the call it answers, the tool's name, whether its content is an error. */
  toolCallId: string | null;
  toolName: string | null;
  isError: boolean | null;
  /**
   * How an answer came about, as stored (`messages.metadata`): who answered and each provider attempt
   * (docs/connections.md), whether its usage is an estimate, the annotation that answered it (docs/logs.md).
   */
  metadata: Record<string, unknown> | null;
  /*
   * Annotations go here once the platform has them (`annotations: [...]` on each message, and
   * EXPORT_DOCUMENT_VERSION one up): the reader in data-import.ts has the matching place.
   */
  createdAt: string;
}

export interface ExportedConversation {
  /** The conversation's id in the exporting account: an import's idempotency key within its application. */
  clientId: string;
  applicationClientId: string;
  title: string;
  status: 'active' | 'archived';
  source: 'dashboard' | 'api' | 'widget';
  /** The A/B version assigned when it started (a version's `clientId`), kept for the conversation's life. */
  configVersionClientId: string | null;
  createdAt: string;
  messages: AsyncIterable<ExportedMessage>;
}

/** Running figures of an A/B arm (a version, or the config's own share of the traffic). */
export interface ExportedCounters {
  requestCount: number;
  errorCount: number;
  avgLatencyMs: number;
  avgTokensUsed: number;
}

/** An A/B version of a model config. */
export interface ExportedConfigVersion {
  /** The version's id in the exporting account: what conversations and messages name it by. */
  clientId: string;
  version: string;
  label: string;
  provider: string;
  modelId: string;
  settings: Record<string, unknown>;
  /** 0 to 100, at most two decimals, as the versions endpoint shows it. */
  trafficPercent: number;
  isActive: boolean;
  counters: ExportedCounters;
  createdAt: string;
}

export interface ExportedModelConfig {
  name: string;
  provider: string;
  modelId: string;
  settings: Record<string, unknown>;
  isDefault: boolean;
  /** The figures of the traffic the config keeps for itself (the A/B control arm). */
  controlCounters: ExportedCounters;
  versions: ExportedConfigVersion[];
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
/**
 * 2: every kind of stored message (tool calls and results, failed answers with their error, empty
 * contents), A/B versions with their figures and assignments. Files of version 1 still import.
 */
export const EXPORT_DOCUMENT_VERSION = 2;
