/** A knowledge-base passage an answer drew on. */
export interface ChatSource {
  fileName?: string;
  excerpt?: string;
  score?: number;
  page?: number | null;
  section?: string | null;
}

/** One tool call of an answer, with its result once it came back. */
export interface ToolCallView {
  id: string;
  name: string;
  arguments: unknown;
  result?: { content: string; isError: boolean };
  /** Known from the stream's `tool_result` (or the final event's `toolCalls`), not from stored messages. */
  durationMs?: number;
}

/** What the answer's meta line shows: any may be missing (null: unknown). */
export interface AnswerMetaView {
  provider?: string | null;
  model?: string | null;
  usage?: { promptTokens?: number; completionTokens?: number; totalTokens?: number } | null;
  cost?: number | null;
  latencyMs?: number | null;
}

/** `streaming` while it arrives; `stopped`: the user stopped it and the partial answer is kept on screen. */
export type AnswerStatus = 'complete' | 'interrupted' | 'failed' | 'streaming' | 'stopped';

export type TranscriptEntry =
  | { kind: 'user'; key: string; content: string }
  | {
      kind: 'answer';
      key: string;
      /** The stored answer's id (for ratings), once known. */
      messageId?: string;
      content: string;
      status: AnswerStatus;
      toolCalls: ToolCallView[];
      meta?: AnswerMetaView;
      sources?: ChatSource[];
    };

export type AnswerEntry = Extract<TranscriptEntry, { kind: 'answer' }>;

/** A stored message as `GET /api/conversations/:id` (and the studio's draft chat) gives it. */
export interface StoredMessage {
  id?: string;
  role?: 'user' | 'assistant' | 'tool';
  content?: string;
  status?: 'complete' | 'interrupted' | 'failed';
  provider?: string | null;
  model?: string | null;
  usage?: AnswerMetaView['usage'];
  latencyMs?: number | null;
  cost?: number | null;
  sources?: ChatSource[];
  toolCalls?: { id?: string; name?: string; arguments?: unknown }[];
  toolCallId?: string;
  name?: string;
  isError?: boolean;
}
