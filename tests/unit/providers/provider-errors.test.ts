import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../../core/shared/errors';
import { alternatingTurns } from '../../../adapters/providers/chat-turns';
import { finishVectors, l2Normalize } from '../../../adapters/providers/embedding-vectors';
import { HttpStatusError, toProviderError } from '../../../adapters/providers/provider-errors';

/** The shapes the SDKs throw, reduced to what the mapping reads. */
const withStatus = (status: number, message: string) => Object.assign(new Error(message), { status });

describe('toProviderError', () => {
  it.each([
    [401, 424],
    [403, 424],
    [400, 400],
    [404, 400],
    [422, 400],
    [429, 429],
    [500, 502],
    [503, 502],
    [529, 502],
  ])('maps a provider %i to UpstreamError %i', (status, expected) => {
    const error = toProviderError('provider_a', withStatus(status, 'boom'));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(expected);
    expect(error.message.startsWith('provider_a ')).toBe(true);
  });

  it('reads the status @huggingface/inference keeps on httpResponse', () => {
    const error = Object.assign(new Error('Failed to perform inference: nope'), { httpResponse: { status: 401 } });
    expect(toProviderError('provider_d', error)).toMatchObject({ status: 424 });
    expect(toProviderError('provider_d', error).message).toMatch(/^provider_d \(Hugging Face\) rejected the API key:/);
  });

  it('answers a refused key with 424 naming the provider, its service and the key’s last 4 characters only', () => {
    const key = 'sk-proj-abcdefghijklmnop1234WXYZ';
    const error = toProviderError('provider_a', withStatus(401, `Incorrect API key provided: ${key}`), key);
    expect(error).toMatchObject({ status: 424 });
    expect(error.message).toMatch(/^provider_a \(OpenAI\) rejected the API key ending in "WXYZ": /);
    expect(error.message).toContain('under Provider keys');
    expect(error.message).not.toContain('/api/');
    expect(error.message).not.toContain('abcdefgh');
  });

  it('treats Gemini’s 400 API_KEY_INVALID as a refused key', () => {
    const error = Object.assign(withStatus(400, 'API key not valid'), { errorDetails: [{ reason: 'API_KEY_INVALID' }] });
    expect(toProviderError('provider_c', error, 'AIzaSyKEY-4567')).toMatchObject({ status: 424 });
    expect(toProviderError('provider_c', error, 'AIzaSyKEY-4567').message).toMatch(/^provider_c \(Google Gemini\) rejected the API key ending in "4567"/);
  });

  it('maps an SDK timeout and a 408 to UpstreamTimeoutError', () => {
    class APIConnectionTimeoutError extends Error {}
    expect(toProviderError('provider_b', new APIConnectionTimeoutError('Request timed out.'))).toBeInstanceOf(UpstreamTimeoutError);
    expect(toProviderError('provider_b', withStatus(408, 'slow'))).toBeInstanceOf(UpstreamTimeoutError);
  });

  it('never repeats the key, key-like strings or URLs from the provider’s message', () => {
    const key = 'sk-abcdefghijklmnop';
    const error = toProviderError('provider_a', new HttpStatusError(500, `upstream said ${key} and hf_secretsecret at https://user:pw@proxy.local/x`), key);
    expect(error.message).toBe('provider_a failed: upstream said [redacted] and [redacted] at <url>');
  });

  it('prefers the message of the parsed error body', () => {
    const anthropic = Object.assign(withStatus(400, '400 {"type":"error"}'), { error: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } } });
    expect(toProviderError('provider_b', anthropic).message).toBe('provider_b refused the request: max_tokens: too large');
    const openai = Object.assign(withStatus(400, '400 Bad'), { error: { message: 'Invalid value for temperature' } });
    expect(toProviderError('provider_a', openai).message).toBe('provider_a refused the request: Invalid value for temperature');
  });

  it('describes network failures without the address', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) });
    expect(toProviderError('provider_d', refused).message).toBe('provider_d failed: could not reach the service (ECONNREFUSED)');
    expect(toProviderError('provider_d', new TypeError('terminated')).message).toBe('provider_d failed: the connection closed before the answer was complete');
  });

  it('passes core errors through unchanged', () => {
    const error = ValidationError.field('x', 'x is wrong');
    expect(toProviderError('provider_a', error)).toBe(error);
  });
});

describe('alternatingTurns', () => {
  it('opens with the user and joins consecutive turns of one role', () => {
    expect(
      alternatingTurns([
        { role: 'assistant', content: 'hi' },
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
        { role: 'user', content: 'd' },
      ]),
    ).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: 'c' },
      { role: 'user', content: 'd' },
    ]);
  });
});

describe('embedding vectors', () => {
  it('normalizes to unit length and leaves a zero vector at zero', () => {
    expect(l2Normalize([3, 4])).toEqual([0.6, 0.8]);
    expect(l2Normalize([0, 0])).toEqual([0, 0]);
  });

  it('refuses a count or a dimension other than promised', () => {
    expect(() => finishVectors('provider_a', [[1, 0]], 2, 2)).toThrow('provider_a failed: returned 1 vectors for 2 texts');
    expect(() => finishVectors('provider_a', [[1, 0, 0]], 1, 2)).toThrow('provider_a failed: returned 3-dimensional vectors, expected 2');
  });
});
