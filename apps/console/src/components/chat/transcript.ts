import type { AnswerEntry, AnswerMetaView, StoredMessage, ToolCallView, TranscriptEntry } from './types';

/**
 * Stored messages as a transcript: an assistant message that only called tools is not an answer of its
 * own but the tool call blocks of the answer it leads to; each `tool` message is the result of its call's
 * block; the final text is one answer, with the meta (model, tokens, cost, time) of the message that
 * finished the turn.
 */
export function transcriptOf(messages: readonly StoredMessage[]): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  let open: AnswerEntry | null = null; // an answer whose turn is still calling tools
  messages.forEach((m, i) => {
    const key = m.id ?? `m${i}`;
    if (m.role === 'user') {
      open = null;
      entries.push({ kind: 'user', key, content: m.content ?? '' });
      return;
    }
    if (m.role === 'tool') {
      if (!open) {
        open = { kind: 'answer', key, content: '', status: 'complete', toolCalls: [] };
        entries.push(open);
      }
      const call = open.toolCalls.find((c) => c.id === m.toolCallId);
      const result = { content: m.content ?? '', isError: m.isError === true };
      if (call) call.result = result;
      else open.toolCalls.push({ id: m.toolCallId ?? key, name: m.name ?? '', arguments: undefined, result });
      return;
    }
    const calls: ToolCallView[] = (m.toolCalls ?? []).map((c, k) => ({ id: c.id ?? `${key}-${k}`, name: c.name ?? '', arguments: c.arguments }));
    const answer: AnswerEntry = open ?? { kind: 'answer', key, content: '', status: 'complete', toolCalls: [] };
    if (!open) entries.push(answer);
    answer.toolCalls.push(...calls);
    if (m.content) answer.content = answer.content ? `${answer.content}\n\n${m.content}` : m.content;
    answer.status = m.status ?? 'complete';
    answer.meta = metaOf(m);
    if (m.sources?.length) answer.sources = m.sources;
    // The turn goes on after a message that called tools; a message without calls ends it.
    if (calls.length && m.status !== 'failed' && m.status !== 'interrupted') open = answer;
    else {
      answer.messageId = m.id;
      open = null;
    }
  });
  return entries;
}

const metaOf = (m: StoredMessage): AnswerMetaView => ({ provider: m.provider, model: m.model, usage: m.usage, cost: m.cost, latencyMs: m.latencyMs });

/** The events of a streamed answer that the transcript shows (`POST /api/conversations/:id/stream` and alike). */
export type AnswerStreamEvent =
  | { type: 'chunk'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; toolCallId: string; name: string; content: string; isError: boolean; durationMs?: number }
  | {
      type: 'done';
      messageId?: string;
      fullResponse?: string;
      provider?: string;
      model?: string;
      usage?: AnswerMetaView['usage'];
      cost?: number | null;
      latencyMs?: number;
      sources?: AnswerEntry['sources'];
      toolCalls?: { id: string; name: string; arguments: unknown; isError?: boolean; durationMs?: number }[];
    }
  | { type: 'error'; message: string; statusCode?: number };

/** A streamed answer about to start. */
export const streamingAnswer = (key: string): AnswerEntry => ({ kind: 'answer', key, content: '', status: 'streaming', toolCalls: [] });

/** The answer after one more event of its stream (pure: a new object each time). */
export function applyAnswerEvent(answer: AnswerEntry, event: AnswerStreamEvent): AnswerEntry {
  switch (event.type) {
    case 'chunk':
      return { ...answer, content: answer.content + event.content };
    case 'tool_call':
      return { ...answer, toolCalls: [...answer.toolCalls, { id: event.id, name: event.name, arguments: event.arguments }] };
    case 'tool_result': {
      const result = { content: event.content, isError: event.isError };
      const known = answer.toolCalls.some((c) => c.id === event.toolCallId);
      const toolCalls = known
        ? answer.toolCalls.map((c) => (c.id === event.toolCallId ? { ...c, result, durationMs: event.durationMs } : c))
        : [...answer.toolCalls, { id: event.toolCallId, name: event.name, arguments: undefined, result, durationMs: event.durationMs }];
      return { ...answer, toolCalls };
    }
    case 'done': {
      const durations = new Map((event.toolCalls ?? []).map((c) => [c.id, c.durationMs]));
      return {
        ...answer,
        messageId: event.messageId,
        content: event.fullResponse ?? answer.content,
        status: 'complete',
        toolCalls: answer.toolCalls.map((c) => ({ ...c, durationMs: c.durationMs ?? durations.get(c.id) })),
        meta: { provider: event.provider, model: event.model, usage: event.usage, cost: event.cost, latencyMs: event.latencyMs },
        ...(event.sources?.length ? { sources: event.sources } : {}),
      };
    }
    case 'error':
      return { ...answer, status: 'failed' };
  }
}
