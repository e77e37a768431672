import { session } from '../api/client';
import { NetworkError, toApiError } from './errors';
import { readSse, sseJson } from './sse';

/**
 * The events of a streamed answer (`POST /api/conversations/:id/stream`): with tools, a `tool_call` and its
 * `tool_result` per call first; then chunks; then `done` with what the answer's meta shows (model, usage,
 * cost at the platform's prices or null, latency).
 */
export type ChatEvent =
  | { type: 'chunk'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; toolCallId: string; name: string; content: string; isError: boolean; durationMs: number }
  | {
      type: 'done';
      messageId: string;
      fullResponse: string;
      provider: string;
      model: string;
      usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
      cost?: number | null;
      latencyMs?: number;
      sources?: { fileName?: string; excerpt?: string; score?: number }[];
      toolCalls?: { id: string; name: string; arguments: unknown; isError: boolean; durationMs: number }[];
    }
  | { type: 'error'; message: string; statusCode?: number };

/**
 * Sends a message and yields the answer's events as they arrive (fetch + the SSE reader: a POST body and
 * the bearer header, which EventSource cannot send). A refusal before the stream (400, 402, 404, 429)
 * is thrown as the API's error; a failure during it arrives as an `error` event.
 */
export function streamChat(conversationId: string, body: { content: string; provider?: string; model?: string }, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  return streamEvents<ChatEvent>(`/api/conversations/${encodeURIComponent(conversationId)}/stream`, body, signal);
}

/**
 * POSTs `body` to a streaming endpoint of the API and yields its SSE events (objects with a `type`) as they
 * arrive; a refusal before the stream is thrown as the API's error, a stop (abort) ends it quietly.
 */
export async function* streamEvents<E extends { type: string }>(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<E> {
  let res: Response;
  try {
    res = await session.fetch(
      new Request(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    throw new NetworkError('The platform could not be reached');
  }
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  for await (const message of readSse(res, signal)) {
    const event = sseJson<E>(message);
    if (event && typeof event === 'object' && 'type' in event) yield event;
  }
}
