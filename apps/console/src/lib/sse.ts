import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';

/**
 * Reads a `text/event-stream` answer of a `fetch` (which, unlike EventSource, can POST a body and send
 * headers) message by message, as they arrive. The SSE format is parsed by eventsource-parser.
 */
export async function* readSse(response: Response, signal?: AbortSignal): AsyncGenerator<EventSourceMessage> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

/** A message's data as JSON, or undefined when it is not JSON (`[DONE]` markers, comments). */
export function sseJson<T = unknown>(message: EventSourceMessage): T | undefined {
  try {
    return JSON.parse(message.data) as T;
  } catch {
    return undefined;
  }
}
