import { readSse, sseJson } from '../../../apps/console/src/lib/sse';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../../support/test-stack';

/** A Response whose body arrives in exactly these pieces (split anywhere, even inside a character). */
function arriving(pieces: (string | Uint8Array)[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
        controller.close();
      },
    }),
    { headers: { 'Content-Type': 'text/event-stream' } },
  );
}

async function collect(response: Response) {
  const out = [];
  for await (const message of readSse(response)) out.push(message);
  return out;
}

describe('console SSE reader', () => {
  it('reads messages split across chunks, multi-line data, named events and comments', async () => {
    const snowman = new TextEncoder().encode('☃');
    const res = arriving(['data: {"type":"chunk","content":"Hel', 'lo"}\n', '\n: keep-alive\n\nevent: done\ndata: line one\ndata: line two\n\ndata: ', snowman.slice(0, 1), snowman.slice(1), '\r\n\r\n']);
    const messages = await collect(res);
    expect(messages.map((m) => [m.event, m.data])).toEqual([
      [undefined, '{"type":"chunk","content":"Hello"}'],
      ['done', 'line one\nline two'],
      [undefined, '☃'],
    ]);
    expect(sseJson(messages[0]!)).toEqual({ type: 'chunk', content: 'Hello' });
    expect(sseJson(messages[1]!)).toBeUndefined();
  });

  it('stops reading when aborted', async () => {
    const controller = new AbortController();
    let pull = 0;
    const res = new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          pull++;
          c.enqueue(new TextEncoder().encode(`data: ${pull}\n\n`));
          return new Promise((r) => setTimeout(r, 5));
        },
      }),
    );
    const seen: string[] = [];
    for await (const message of readSse(res, controller.signal)) {
      seen.push(message.data);
      if (seen.length === 3) controller.abort();
    }
    expect(seen.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(seen.length).toBeLessThanOrEqual(4);
  });

  describe('against the platform’s own stream', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startCoreApi({ providers: true });
    });
    afterAll(() => stack?.close());

    it('reads a streamed answer token by token, ending with done', async () => {
      stack.emulator!.behaviour.reply = 'The tide turns twice a day.';
      const owner = await paidUserWithApplication(stack);
      const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      const res = await fetch(`${stack.listening.url}/api/conversations/${conversation.body.id}/stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner.token}` },
        body: JSON.stringify({ content: 'When does the tide turn?', provider: 'provider_a' }),
      });
      expect(res.status).toBe(200);
      const events = (await collect(res)).map((m) => sseJson<{ type: string; content?: string; fullResponse?: string }>(m)!);
      const chunks = events.filter((e) => e.type === 'chunk');
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.map((c) => c.content).join('')).toBe('The tide turns twice a day.');
      expect(events.at(-1)).toMatchObject({ type: 'done', fullResponse: 'The tide turns twice a day.' });
    });
  });
});
