import * as yup from 'yup';
import { ValidationError } from '../../../core/shared/errors';
import { canonicalId, isUuid } from '../../../core/shared/ids';
import { idField, str, uuidField, validate } from '../../../core/shared/validation';

describe('validate', () => {
  const schema = yup.object({
    name: str().required(),
    nested: yup.object({ title: str() }).default(undefined),
    list: yup.array().of(yup.object({ n: str() })).default(undefined),
  });

  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'])(
    'strips a "%s" key at any level instead of failing inside yup',
    async (key) => {
      const input = JSON.parse(`{"name":"a","${key}":{},"nested":{"title":"t","${key}":1},"list":[{"n":"x","${key}":[]}]}`);
      await expect(validate(schema, input)).resolves.toEqual({ name: 'a', nested: { title: 't' }, list: [{ n: 'x' }] });
    },
  );

  it('refuses input that is not an object with a 400-kind error', async () => {
    for (const input of [true, 0, '', null, [], undefined]) {
      await expect(validate(schema, input)).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('reports a wrong type as a validation error, never a TypeError', async () => {
    const slugLike = yup.object({ slug: str().transform((v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v)) });
    await expect(validate(slugLike, { slug: 0 })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('ids', () => {
  const id = '0b7e7f6a-3c2d-4e5f-8a9b-1c2d3e4f5a6b';

  it('accepts only the canonical lower-case spelling as an id', () => {
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(false);
    expect(isUuid('not-a-uuid')).toBe(false);
  });

  it('canonicalizes a UUID in any case and nothing else', () => {
    expect(canonicalId(id.toUpperCase())).toBe(id);
    expect(canonicalId(id)).toBe(id);
    expect(canonicalId(`${id}x`)).toBeUndefined();
  });

  it('takes body ids in their canonical spelling, and uuidField refuses other text', async () => {
    const schema = yup.object({ applicationId: idField(), apiKeyId: uuidField('apiKeyId').nullable() });
    await expect(validate(schema, { applicationId: ` ${id.toUpperCase()} `, apiKeyId: null })).resolves.toEqual({ applicationId: id, apiKeyId: null });
    await expect(validate(schema, { apiKeyId: 'nope' })).rejects.toMatchObject({ details: [{ path: 'apiKeyId', message: 'apiKeyId must be a UUID' }] });
  });
});
