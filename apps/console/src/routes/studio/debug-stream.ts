import { streamEvents } from '../../lib/chat-stream';
import type { StudioConfig } from './queries';

/** The events of a debug turn: the conversations' stream format (SSE `chunk`, `tool_call`, `tool_result`, then `done` or `error`). */
export type DebugEvent =
  | { type: 'chunk'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; toolCallId: string; name: string; content: string; isError: boolean; durationMs: number }
  | {
      type: 'done';
      conversationId: string;
      messageId: string;
      fullResponse: string;
      provider: string;
      model: string;
      latencyMs?: number;
      usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
      sources?: { fileName?: string; excerpt?: string; score?: number }[];
      /** Present once the platform prices answers in the stream (the shared transcript's work). */
      cost?: number;
    }
  | { type: 'error'; message: string; statusCode?: number };

export interface DebugRequest {
  content: string;
  conversationId?: string;
  variables: Record<string, string>;
  config: Partial<StudioConfig>;
}

/**
 * One debug turn on the draft (`POST /api/applications/:appId/studio/debug/stream`), yielding its events as they
 * arrive. A refusal before the stream is thrown as the API's error; a failure during it arrives as an `error` event.
 */
export function streamDebug(appId: string, body: DebugRequest, signal?: AbortSignal): AsyncGenerator<DebugEvent> {
  return streamEvents<DebugEvent>(`/api/applications/${encodeURIComponent(appId)}/studio/debug/stream`, body, signal);
}
