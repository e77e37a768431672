import { toApplicationForm, toApplicationInput } from '../../../apps/console/src/routes/applications/form';
import { ApiError, fieldErrors, fieldLabel, inWords, toApiError } from '../../../apps/console/src/lib/errors';
import { safeNext } from '../../../apps/console/src/lib/navigation';

describe('console form mapping', () => {
  it('turns the application form into the API body: origins one per line or comma-separated, an empty slug left out', () => {
    expect(toApplicationInput({ name: '  Harbour Help ', description: ' Moorings ', slug: '  ', allowedOrigins: 'https://a.example\n\n https://b.example, https://c.example \n' })).toEqual({
      name: 'Harbour Help',
      description: 'Moorings',
      allowedOrigins: ['https://a.example', 'https://b.example', 'https://c.example'],
    });
    expect(toApplicationInput({ name: 'X', description: '', slug: 'x-desk', allowedOrigins: '' })).toEqual({ name: 'X', description: '', slug: 'x-desk', allowedOrigins: [] });
  });

  it('turns an application back into the form, and round-trips', () => {
    const app = { id: '1', name: 'Desk', description: 'D', slug: 'desk', allowedOrigins: ['https://a.example', 'https://b.example'] };
    const form = toApplicationForm(app);
    expect(form).toEqual({ name: 'Desk', description: 'D', slug: 'desk', allowedOrigins: 'https://a.example\nhttps://b.example' });
    expect(toApplicationInput(form)).toEqual({ name: 'Desk', description: 'D', slug: 'desk', allowedOrigins: app.allowedOrigins });
    expect(toApplicationForm()).toEqual({ name: '', description: '', slug: '', allowedOrigins: '' });
  });

  it('puts the API’s messages on the fields they name (details, or a 409 naming the field)', () => {
    const detailed = toApiError(400, { statusCode: 400, message: 'Validation failed', error: 'Bad Request', details: [{ path: 'allowedOrigins[1]', message: 'not an origin' }, { path: 'name', message: 'name is required' }] });
    expect(fieldErrors(detailed, ['name', 'slug', 'allowedOrigins'])).toEqual({ name: 'name is required', allowedOrigins: 'not an origin' });
    const conflict = toApiError(409, { statusCode: 409, message: 'This slug is already taken', error: 'Conflict' });
    expect(fieldErrors(conflict, ['name', 'slug'])).toEqual({ slug: 'This slug is already taken' });
    expect(fieldErrors(toApiError(500, null), ['name'])).toEqual({});
    expect(fieldErrors(new Error('x'), ['name'])).toEqual({});
  });

  it('reads any error body defensively', () => {
    expect(toApiError(502, 'upstream text')).toEqual(expect.objectContaining({ status: 502, message: 'Request failed (502)', details: [] }));
    expect(toApiError(400, { message: 'Bad', details: [{ path: 1 }, null, { path: 'a', message: 'b' }] }).details).toEqual([{ path: 'a', message: 'b' }]);
    expect(new ApiError(404, 'gone').fieldMessage('name')).toBeUndefined();
  });

  it('returns after sign-in only to a path inside the console', () => {
    expect(safeNext('/applications?page=2')).toBe('/applications?page=2');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', null, undefined]) expect(safeNext(bad)).toBe('/');
  });
  it('shows a field path as the field’s words, in the message and on the field', () => {
    const error = toApiError(400, {
      statusCode: 400,
      message: 'settings.topP must be at most 1; settings.maxTokens must be at least 1',
      error: 'Bad Request',
      details: [
        { path: 'settings.topP', message: 'settings.topP must be at most 1' },
        { path: 'settings.maxTokens', message: 'settings.maxTokens must be at least 1' },
      ],
    });
    expect(error.message).toBe('Top P must be at most 1; Max tokens must be at least 1');
    expect(error.fieldMessage('settings.topP')).toBe('Top P must be at most 1');
    expect(fieldErrors(error, ['settings'])).toEqual({ settings: 'Top P must be at most 1' });
    // A path that opens a sentence without details, and one in the middle of a sentence that is not a path.
    expect(inWords('attributeMapping.displayName must be a string')).toBe('Display name must be a string');
    expect(inWords('Upload returns-policy.md again, or see example.com for help')).toBe('Upload returns-policy.md again, or see example.com for help');
    expect(inWords('returns.docx is too large; saml.certificate is required')).toBe('returns.docx is too large; Certificate is required');
    expect(fieldLabel('allowedOrigins[2]')).toBe('Allowed origins');
    expect(fieldLabel('name')).toBe('Name');
    expect(fieldLabel('customHeaders.Set-Cookie')).toBe('Set-Cookie');
  });
});
