import type { ChatAnswer, ChatMessageRequest, ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import { ATTR } from '../domain/attributes';
import type { TurnTrace } from '../domain/turn-trace';
import type { Tracer } from './tracer';
import { publicFailure } from './traced-chat';

/**
 * The AI service's part of a turn's trace (run apart from the core API): continued from the request's
 * `traceparent` under a `chat.engine` span, finished when the answer is whole (or the stream ends).
 */
export function engineTrace(tracer: Tracer | undefined, traceparent: string | undefined, conversationId: string): TurnTrace | undefined {
  const trace = tracer?.continueFrom(traceparent, 'chat.engine', { [ATTR.operationName]: 'chat', [ATTR.conversationId]: conversationId });
  trace?.keyTo({ conversationId });
  return trace;
}

export async function tracedSend(trace: TurnTrace | undefined, request: ChatMessageRequest, send: (request: ChatMessageRequest) => Promise<ChatAnswer>): Promise<ChatAnswer> {
  if (!trace) return send(request);
  try {
    const answer = await send({ ...request, trace });
    trace.root.set(ATTR.messageId, answer.message.id);
    return answer;
  } catch (error) {
    const { message, type } = publicFailure(error);
    trace.root.fail(message, type);
    throw error;
  } finally {
    trace.finish();
  }
}

export async function tracedStream(
  trace: TurnTrace | undefined,
  request: ChatMessageRequest,
  stream: (request: ChatMessageRequest) => Promise<AsyncIterable<ChatStreamEvent>>,
): Promise<AsyncIterable<ChatStreamEvent>> {
  if (!trace) return stream(request);
  let events: AsyncIterable<ChatStreamEvent>;
  try {
    events = await stream({ ...request, trace });
  } catch (error) {
    const { message, type } = publicFailure(error);
    trace.root.fail(message, type);
    trace.finish();
    throw error;
  }
  return (async function* () {
    try {
      for await (const event of events) {
        if (event.type === 'done') trace.root.set(ATTR.messageId, event.messageId);
        if (event.type === 'error') trace.root.fail(event.message, 'error');
        yield event;
      }
    } finally {
      trace.finish();
    }
  })();
}
