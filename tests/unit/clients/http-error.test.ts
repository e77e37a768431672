import { errorFromResponse } from '../../../adapters/clients/http-error';

describe('errorFromResponse: the AI service and marketplace errors, back as core errors', () => {
  it('keeps a provider refusal relayed as 400 an upstream failure, with its status and message', () => {
    const error = errorFromResponse('AI service', 400, { statusCode: 400, message: 'provider_b refused the request: max_tokens: too large', error: 'Bad Request' });
    expect(error).toMatchObject({ kind: 'upstream_failure', status: 400, message: 'provider_b refused the request: max_tokens: too large' });
  });

  it('reads any other 400 as a validation error with its details', () => {
    const details = [{ field: 'temperature', message: 'must be at most 2' }];
    const error = errorFromResponse('AI service', 400, { statusCode: 400, message: 'Invalid settings', error: 'Bad Request', details });
    expect(error).toMatchObject({ kind: 'validation', message: 'Invalid settings', details });
    // Only the provider's own wording counts: a user's text that mentions a refusal does not.
    expect(errorFromResponse('AI service', 400, { message: 'content: provider_a refused the request: no' })).toMatchObject({ kind: 'validation' });
  });

  it('tells a relayed key refusal (424) from a refused service token (a deployment fault, never a 401)', () => {
    const refusal = 'provider_a (OpenAI) rejected the API key ending in "WXYZ": check it';
    expect(errorFromResponse('AI service', 424, { message: refusal })).toMatchObject({ kind: 'upstream_failure', status: 424, message: refusal });
    expect(errorFromResponse('AI service', 401, { message: 'Missing or invalid service token' })).toMatchObject({ kind: 'upstream_failure', status: 502 });
  });
});
