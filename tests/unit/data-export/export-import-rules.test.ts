import { csvField } from '../../../adapters/files/data-export/csv-zip-export.writer';
import { readImportedApplication } from '../../../core/data-export/domain/data-import';
import { ValidationError } from '../../../core/shared/errors';

describe('CSV cells of an export', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\tindent', "'\tindent"],
  ])('%j is written as %j', (value, cell) => {
    expect(csvField(value)).toBe(cell);
  });

  it('writes numbers, booleans and empty values as they are, and objects as JSON', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField({ a: [1, 'x'] })).toBe('"{""a"":[1,""x""]}"');
  });
});

describe('a record of an import', () => {
  const base = { clientId: 'c-1', name: 'Bot' };

  it('takes an application with its configs, templates and conversations, keeping texts exactly', async () => {
    const record = await readImportedApplication({
      ...base,
      modelConfigs: [{ name: 'A', provider: 'provider_a', modelId: 'gpt-4o' }, { name: 'B', provider: 'provider_b' }],
      promptTemplates: [{ name: 'T', content: '  Hi {{name}}  ' }],
      conversations: [{ title: '  spaced  ', messages: [{ role: 'user', content: '  hello  ', createdAt: '2026-01-02T03:04:05.000Z' }] }],
    });
    // Without a default named, the first config is the default, as on creation.
    expect(record.modelConfigs.map((c) => [c.name, c.provider, c.isDefault])).toEqual([
      ['A', 'provider_a', true],
      ['B', 'provider_b', false],
    ]);
    expect(record.modelConfigs[1]!.modelId).toBeTruthy();
    expect(record.promptTemplates).toEqual([{ name: 'T', content: '  Hi {{name}}  ', variables: ['name'], isDefault: false }]);
    expect(record.conversations[0]).toMatchObject({ title: '  spaced  ', status: 'active', source: 'dashboard' });
    expect(record.conversations[0]!.messages[0]).toMatchObject({ role: 'user', content: '  hello  ', status: 'complete', createdAt: new Date('2026-01-02T03:04:05.000Z') });
  });

  it.each([
    [{ name: 'x' }, 'clientId'],
    [{ ...base, name: '' }, 'name'],
    [{ ...base, allowedOrigins: ['not an origin'] }, 'origin'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_z' }] }, 'modelConfigs[0].provider'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', settings: { temperature: 9 } }] }, 'modelConfigs[0].settings'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', isDefault: true }, { name: 'B', provider: 'provider_a', isDefault: true }] }, 'default'],
    [{ ...base, conversations: [{ title: 't', messages: [{ role: 'system', content: 'x' }] }] }, 'role'],
    [{ ...base, conversations: [{ title: 't', messages: [{ role: 'user', content: 5 }] }] }, 'content'],
    [{ ...base, conversations: [{ title: 't', messages: [{ role: 'user', content: 'x', rating: 6 }] }] }, 'rating'],
    [{ ...base, conversations: [{ title: 't', messages: [{ role: 'user', content: 'x', totalTokens: '7' }] }] }, 'totalTokens'],
    [{ ...base, conversations: [{ title: 't', createdAt: 'yesterday' }] }, 'createdAt'],
  ])('refuses %j naming %s', async (raw, named) => {
    const error = await readImportedApplication(raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(JSON.stringify({ message: (error as ValidationError).message, details: (error as ValidationError).details })).toContain(named);
  });
});
