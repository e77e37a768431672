import { applyAnswerEvent, streamingAnswer, transcriptOf, type AnswerStreamEvent } from '../../../apps/console/src/components/chat/transcript';
import type { StoredMessage } from '../../../apps/console/src/components/chat/types';

const usage = { promptTokens: 77, completionTokens: 37, totalTokens: 114 };

describe('the chat transcript from stored messages', () => {
  it('makes a turn that called tools one answer: the calls as blocks with their results, the final text, its meta', () => {
    const messages: StoredMessage[] = [
      { id: 'u1', role: 'user', content: 'Where are orders 1 and 2?' },
      { id: 'a1', role: 'assistant', content: '', status: 'complete', toolCalls: [{ id: 'c1', name: 'order_status', arguments: { order: '1' } }, { id: 'c2', name: 'order_status', arguments: { order: '2' } }] },
      { id: 't1', role: 'tool', toolCallId: 'c1', name: 'order_status', content: '{"status":"shipped"}', isError: false },
      { id: 't2', role: 'tool', toolCallId: 'c2', name: 'order_status', content: 'HTTP 500', isError: true },
      { id: 'a2', role: 'assistant', content: 'One shipped, one failed.', status: 'complete', provider: 'provider_a', model: 'gpt-4o-mini', usage, latencyMs: 420, cost: 0.0000333 },
      { id: 'u2', role: 'user', content: 'Thanks' },
      { id: 'a3', role: 'assistant', content: 'You are welcome.', status: 'complete', provider: 'provider_a', model: 'gpt-4o-mini', usage, latencyMs: 100, cost: null },
    ];
    const entries = transcriptOf(messages);
    expect(entries.map((e) => e.kind)).toEqual(['user', 'answer', 'user', 'answer']);
    const answer = entries[1]!;
    expect(answer).toMatchObject({
      kind: 'answer',
      messageId: 'a2',
      content: 'One shipped, one failed.',
      status: 'complete',
      meta: { provider: 'provider_a', model: 'gpt-4o-mini', usage, latencyMs: 420, cost: 0.0000333 },
      toolCalls: [
        { id: 'c1', name: 'order_status', arguments: { order: '1' }, result: { content: '{"status":"shipped"}', isError: false } },
        { id: 'c2', name: 'order_status', arguments: { order: '2' }, result: { content: 'HTTP 500', isError: true } },
      ],
    });
    expect(entries[3]).toMatchObject({ messageId: 'a3', content: 'You are welcome.', toolCalls: [] });
  });

  it('keeps an answer interrupted during its tool calls as one answer without a rating id', () => {
    const entries = transcriptOf([
      { id: 'u1', role: 'user', content: 'Go' },
      { id: 'a1', role: 'assistant', content: 'Partial', status: 'interrupted', toolCalls: [{ id: 'c1', name: 'lookup', arguments: 'not json' }] },
    ]);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ status: 'interrupted', content: 'Partial', messageId: 'a1', toolCalls: [{ name: 'lookup', arguments: 'not json' }] });
  });
});

describe('the chat transcript from a stream', () => {
  it('builds the answer event by event: calls, their results and times, chunks, then the meta of the final event', () => {
    const events: AnswerStreamEvent[] = [
      { type: 'tool_call', id: 'c1', name: 'order_status', arguments: { order: '1' } },
      { type: 'tool_result', toolCallId: 'c1', name: 'order_status', content: 'shipped', isError: false, durationMs: 12 },
      { type: 'chunk', content: 'It ' },
      { type: 'chunk', content: 'shipped.' },
      { type: 'done', messageId: 'a9', fullResponse: 'It shipped.', provider: 'provider_b', model: 'claude', usage, cost: 0.001, latencyMs: 900 },
    ];
    let answer = streamingAnswer('pending');
    const seen: string[] = [];
    for (const event of events) {
      answer = applyAnswerEvent(answer, event);
      seen.push(`${answer.status}:${answer.content}:${answer.toolCalls.length}`);
    }
    expect(seen).toEqual(['streaming::1', 'streaming::1', 'streaming:It :1', 'streaming:It shipped.:1', 'complete:It shipped.:1']);
    expect(answer).toMatchObject({
      messageId: 'a9',
      toolCalls: [{ id: 'c1', name: 'order_status', arguments: { order: '1' }, result: { content: 'shipped', isError: false }, durationMs: 12 }],
      meta: { provider: 'provider_b', model: 'claude', usage, cost: 0.001, latencyMs: 900 },
    });
  });

  it('marks a failed stream without losing what arrived', () => {
    const answer = applyAnswerEvent(applyAnswerEvent(streamingAnswer('p'), { type: 'chunk', content: 'Half' }), { type: 'error', message: 'The provider failed' });
    expect(answer).toMatchObject({ status: 'failed', content: 'Half' });
  });
});
