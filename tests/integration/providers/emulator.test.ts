import { startEmulator, type Emulator } from '../../support/emulator/emulator';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] };

describe('provider emulator', () => {
  it('gives each provider a base URL under its own prefix', () => {
    expect(emulator.baseUrls).toEqual({
      provider_a: `${emulator.url}/provider_a/v1`,
      provider_b: `${emulator.url}/provider_b`,
      provider_c: `${emulator.url}/provider_c`,
      provider_d: `${emulator.url}/provider_d`,
    });
  });

  it('also serves unprefixed paths, telling the providers apart by what their SDKs send', async () => {
    await fetch(`${emulator.url}/v1/models`, { headers: { authorization: 'Bearer sk-a' } });
    await fetch(`${emulator.url}/v1/models`, { headers: { 'x-api-key': 'sk-ant-b', 'anthropic-version': '2023-06-01' } });
    await fetch(`${emulator.url}/v1beta/models`, { headers: { 'x-goog-api-key': 'AIzaSyC' } });
    expect(emulator.requests.map((r) => [r.provider, r.path, r.apiKey])).toEqual([
      ['provider_a', '/v1/models', 'sk-a'],
      ['provider_b', '/v1/models', 'sk-ant-b'],
      ['provider_c', '/v1beta/models', 'AIzaSyC'],
    ]);
  });

  it('answers refused keys in each provider’s native error format', async () => {
    const openai = await post(`${emulator.baseUrls.provider_a}/chat/completions`, chatBody, { authorization: 'Bearer sk-rejected-key-1234' });
    expect(openai.status).toBe(401);
    expect(await openai.json()).toEqual({ error: { message: expect.stringContaining('Incorrect API key'), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });

    const anthropic = await post(`${emulator.baseUrls.provider_b}/v1/messages`, {}, { 'x-api-key': 'sk-ant-rejected' });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const gemini = await post(`${emulator.baseUrls.provider_c}/v1beta/models/gemini-2.0-flash:generateContent`, {}, { 'x-goog-api-key': 'AIzaSyrejected' });
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: expect.arrayContaining([expect.objectContaining({ reason: 'API_KEY_INVALID' })]) } });

    const hf = await post(`${emulator.baseUrls.provider_d}/v1/chat/completions`, chatBody, { authorization: 'Bearer hf_rejected' });
    expect(hf.status).toBe(401);
    expect(await hf.json()).toEqual({ error: 'Invalid credentials in Authorization header' });
  });

  it('answers a key containing fail500 with the provider’s 500', async () => {
    const response = await post(`${emulator.baseUrls.provider_b}/v1/messages`, {}, { 'x-api-key': 'sk-ant-fail500' });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('answers a malformed body with a native 400 and an unknown path with a native 404', async () => {
    const malformed = await fetch(`${emulator.baseUrls.provider_a}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-x' }, body: '{nope' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const unknown = await fetch(`${emulator.baseUrls.provider_c}/v1beta/nothing-here`, { headers: { 'x-goog-api-key': 'AIzaSyX' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { status: 'NOT_FOUND' } });
  });

  it('validates what the real API would refuse', async () => {
    const noMaxTokens = await post(`${emulator.baseUrls.provider_b}/v1/messages`, { model: 'claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'x' }] }, { 'x-api-key': 'sk-ant-x' });
    expect(noMaxTokens.status).toBe(400);
    const wrongRole = await post(
      `${emulator.baseUrls.provider_c}/v1beta/models/gemini-2.0-flash:generateContent`,
      { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] },
      { 'x-goog-api-key': 'AIzaSyX' },
    );
    expect(wrongRole.status).toBe(400);
  });

  it('is switched over HTTP by other processes: behaviour, recorded requests, reset', async () => {
    const set = await post(`${emulator.url}/__emulator/behaviour`, { failStatus: 503 });
    expect(await set.json()).toMatchObject({ failStatus: 503, delayMs: 0 });
    expect(emulator.behaviour.failStatus).toBe(503);
    const failing = await post(`${emulator.baseUrls.provider_a}/chat/completions`, chatBody, { authorization: 'Bearer sk-x' });
    expect(failing.status).toBe(503);

    const recorded = await (await fetch(`${emulator.url}/__emulator/requests`)).json();
    expect(recorded).toEqual([{ provider: 'provider_a', method: 'POST', path: '/v1/chat/completions', query: {}, apiKey: 'sk-x', body: chatBody, headers: expect.objectContaining({ authorization: 'Bearer sk-x', 'content-type': 'application/json' }), aborted: false }]);

    const behaviour = emulator.behaviour;
    await post(`${emulator.url}/__emulator/reset`, {});
    expect(emulator.requests).toHaveLength(0);
    expect(emulator.behaviour).toBe(behaviour);
    expect(behaviour).toEqual({ delayMs: 0, chunkDelayMs: 0 });
  });

  it('answers with a fixed reply when told to', async () => {
    emulator.behaviour.reply = 'Always this.';
    const response = await post(`${emulator.baseUrls.provider_a}/chat/completions`, chatBody, { authorization: 'Bearer sk-x' });
    expect((await response.json()).choices[0].message.content).toBe('Always this.');
  });

  it('records a request as aborted when the client disconnects mid-stream', async () => {
    emulator.behaviour.chunkDelayMs = 100;
    const response = await post(`${emulator.baseUrls.provider_a}/chat/completions`, { ...chatBody, stream: true }, { authorization: 'Bearer sk-x' });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await emulator.waitFor((requests) => requests[0]?.aborted === true);
  });

  it('does not count a finished response as aborted', async () => {
    const response = await post(`${emulator.baseUrls.provider_a}/chat/completions`, { ...chatBody, stream: true }, { authorization: 'Bearer sk-x' });
    const text = await response.text();
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(emulator.requests[0]!.aborted).toBe(false);
  });

  it('streams Gemini as a JSON array when SSE is not asked for', async () => {
    const response = await post(
      `${emulator.baseUrls.provider_c}/v1beta/models/gemini-2.0-flash:streamGenerateContent`,
      { contents: [{ role: 'user', parts: [{ text: 'hi you' }] }] },
      { 'x-goog-api-key': 'AIzaSyX' },
    );
    const chunks = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[];
    expect(chunks.map((c) => c.candidates[0]!.content.parts[0]!.text).join('')).toBe('Echo: hi you');
  });

  it('embeds deterministically, texts sharing words closer than unrelated ones', async () => {
    const embed = async (input: string[]) =>
      (await (await post(`${emulator.baseUrls.provider_a}/embeddings`, { model: 'text-embedding-3-small', input, dimensions: 256 }, { authorization: 'Bearer sk-x' })).json()).data.map(
        (d: { embedding: number[] }) => d.embedding,
      ) as number[][];
    const [a, b, c] = await embed(['How do refunds work?', 'Refunds are paid within 14 days.', 'The office opens at nine.']);
    const [again] = await embed(['How do refunds work?']);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(again).toEqual(a);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });
});
