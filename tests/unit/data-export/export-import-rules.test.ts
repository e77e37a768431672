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
    const { application: record, refused } = await readImportedApplication({
      ...base,
      modelConfigs: [{ name: 'A', provider: 'provider_a', modelId: 'gpt-4o' }, { name: 'B', provider: 'provider_b' }],
      promptTemplates: [{ name: 'T', content: '  Hi {{name}}  ' }],
      conversations: [{ title: '  spaced  ', messages: [{ role: 'user', content: '  hello  ', createdAt: '2026-01-02T03:04:05.000Z' }] }],
    });
    expect(refused).toEqual([]);
    // Without a default named, the first config is the default, as on creation.
    expect(record.modelConfigs.map((c) => [c.name, c.provider, c.isDefault])).toEqual([
      ['A', 'provider_a', true],
      ['B', 'provider_b', false],
    ]);
    expect(record.modelConfigs[1]!.modelId).toBeTruthy();
    expect(record.promptTemplates).toEqual([{ name: 'T', content: '  Hi {{name}}  ', variables: ['name'], isDefault: false }]);
    expect(record.conversations[0]).toMatchObject({ title: '  spaced  ', status: 'active', source: 'dashboard', configVersionClientId: null });
    expect(record.conversations[0]!.messages[0]).toMatchObject({ role: 'user', content: '  hello  ', status: 'complete', createdAt: new Date('2026-01-02T03:04:05.000Z') });
  });

  it('takes every kind of stored message: empty interrupted and failed answers, tool calls and their results, A/B versions', async () => {
    const { application, refused } = await readImportedApplication({
      ...base,
      modelConfigs: [
        {
          name: 'A',
          provider: 'provider_a',
          modelId: 'gpt-4o',
          controlCounters: { requestCount: 3, errorCount: 1, avgLatencyMs: 12.5, avgTokensUsed: 40 },
          versions: [{ clientId: 'v-1', version: 'v1', label: 'Cooler', settings: { temperature: 0.1 }, trafficPercent: 12.5, counters: { requestCount: 2, errorCount: 0, avgLatencyMs: 9, avgTokensUsed: 30 } }],
        },
      ],
      conversations: [
        {
          title: 'turn',
          configVersionClientId: 'v-1',
          messages: [
            { role: 'user', content: 'weather?' },
            { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } }] },
            { role: 'tool', content: '{"c":3}', toolCallId: 'call_1', toolName: 'weather', isError: false, latencyMs: 8 },
            { role: 'assistant', content: '', status: 'interrupted', error: 'The client aborted the stream', configVersionClientId: 'v-1' },
            { role: 'assistant', content: '', status: 'failed', error: 'The provider failed', configVersionClientId: 'v-1' },
            { role: 'assistant', content: 'It is 3 degrees', rating: 5, configVersionClientId: 'v-1' },
          ],
        },
      ],
    });
    expect(refused).toEqual([]);
    const [config] = application.modelConfigs;
    expect(config!.controlCounters).toEqual({ requestCount: 3, errorCount: 1, avgLatencyMs: 12.5, avgTokensUsed: 40 });
    expect(config!.versions).toEqual([
      expect.objectContaining({ clientId: 'v-1', version: 'v1', label: 'Cooler', provider: 'provider_a', modelId: 'gpt-4o', trafficShare: 1250, isActive: true }),
    ]);
    expect(config!.versions[0]!.settings.temperature).toBe(0.1);
    const messages = application.conversations[0]!.messages;
    expect(application.conversations[0]!.configVersionClientId).toBe('v-1');
    expect(messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'weather?', 'complete'],
      ['assistant', '', 'complete'],
      ['tool', '{"c":3}', 'complete'],
      ['assistant', '', 'interrupted'],
      ['assistant', '', 'failed'],
      ['assistant', 'It is 3 degrees', 'complete'],
    ]);
    expect(messages[1]!.toolCalls).toEqual([{ id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } }]);
    expect(messages[2]).toMatchObject({ toolCallId: 'call_1', toolName: 'weather', isError: false, latencyMs: 8, toolCalls: null });
    expect(messages[4]).toMatchObject({ error: 'The provider failed', configVersionClientId: 'v-1' });
    expect(messages[0]).toMatchObject({ toolCallId: null, toolName: null, isError: null, error: null });
  });

  it.each([
    [{ name: 'x' }, 'clientId'],
    [{ ...base, name: '' }, 'name'],
    [{ ...base, allowedOrigins: ['not an origin'] }, 'origin'],
    [{ ...base, conversations: 'many' }, 'conversations must be an array'],
    [{ ...base, modelConfigs: Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, provider: 'provider_a' })) }, 'at most 50 model configs'],
  ])('case %#: refuses the application as a whole, naming why', async (raw, named) => {
    const error = await readImportedApplication(raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(JSON.stringify({ message: (error as ValidationError).message, details: (error as ValidationError).details })).toContain(named);
  });

  const conversation = (messages: unknown[], extra: object = {}) => ({ ...base, conversations: [{ title: 'ok', messages: [{ role: 'user', content: 'fine' }] }, { title: 't', ...extra, messages }] });
  const versioned = { name: 'A', provider: 'provider_a', versions: [{ clientId: 'v-1', label: 'One' }] };
  it.each([
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_z' }] }, 'modelConfigs[0]', 'provider'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', settings: { temperature: 9 } }] }, 'modelConfigs[0]', 'settings'],
    [{ ...base, modelConfigs: ['a string'] }, 'modelConfigs[0]', 'must be an object'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', versions: [{ label: 'x' }, { label: 'X' }] }] }, 'modelConfigs[0]', 'versions[1].label'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', versions: [{ label: 'x', trafficPercent: 60 }, { label: 'y', trafficPercent: 50 }] }] }, 'modelConfigs[0]', '100%'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', versions: [{ label: 'x', counters: { requestCount: 1, errorCount: 2 } }] }] }, 'modelConfigs[0]', 'errorCount'],
    [{ ...base, modelConfigs: [versioned, versioned] }, 'modelConfigs[1]', 'v-1'],
    [{ ...base, promptTemplates: [{ name: 'T' }] }, 'promptTemplates[0]', 'content'],
    [{ ...base, modelConfigs: [{ name: 'A', provider: 'provider_a', isDefault: true }, { name: 'B', provider: 'provider_a', isDefault: true }] }, 'modelConfigs[1]', 'modelConfigs[0] is already the default'],
    [{ ...base, promptTemplates: [{ name: 'a', content: 'x', isDefault: true }, { name: 'b', content: 'y', isDefault: true }] }, 'promptTemplates[1]', 'promptTemplates[0] is already the default'],
    [conversation([{ role: 'system', content: 'x' }]), 'conversations[1]', 'messages[0].role'],
    [conversation([{ role: 'user', content: 'a' }, { role: 'user', content: 5 }]), 'conversations[1]', 'messages[1].content'],
    [conversation([{ role: 'user' }]), 'conversations[1]', 'messages[0].content'],
    [conversation([{ role: 'assistant', content: 'x', rating: 6 }]), 'conversations[1]', 'rating'],
    [conversation([{ role: 'user', content: 'x', rating: 4 }]), 'conversations[1]', 'messages[0].rating'],
    [conversation([{ role: 'assistant', content: '', status: 'failed', rating: 4 }]), 'conversations[1]', 'messages[0].rating'],
    [conversation([{ role: 'user', content: 'x', totalTokens: '7' }]), 'conversations[1]', 'totalTokens'],
    [conversation([{ role: 'tool', content: 'x', toolName: 'weather' }]), 'conversations[1]', 'messages[0].toolCallId'],
    [conversation([{ role: 'user', content: 'x', toolCalls: [{ id: 'a', name: 'b' }] }]), 'conversations[1]', 'messages[0].toolCalls'],
    [conversation([{ role: 'user', content: 'x', error: 'no' }]), 'conversations[1]', 'messages[0].error'],
    [conversation([{ role: 'user', content: 'x'.repeat(100_001) }]), 'conversations[1]', 'messages[0].content'],
    [conversation([{ role: 'assistant', content: 'x', configVersionClientId: 'v-9' }]), 'conversations[1]', 'v-9'],
    [conversation([], { configVersionClientId: 'v-9' }), 'conversations[1]', 'v-9'],
    [conversation([], { createdAt: 'yesterday' }), 'conversations[1]', 'createdAt'],
    [{ ...base, conversations: [{ title: 'ok' }, 7] }, 'conversations[1]', 'must be an object'],
  ])('case %#: refuses one item alone, listed with its reason, and keeps the rest', async (raw, item, named) => {
    const { application, refused } = await readImportedApplication(raw);
    expect(refused).toEqual([{ item, error: expect.stringContaining(named) }]);
    // The rest of the application is kept.
    const kept = (raw as { conversations?: unknown[]; modelConfigs?: unknown[]; promptTemplates?: unknown[] });
    expect(application.conversations).toHaveLength((kept.conversations?.length ?? 0) - (item.startsWith('conversations') ? 1 : 0));
    expect(application.modelConfigs).toHaveLength((kept.modelConfigs?.length ?? 0) - (item.startsWith('modelConfigs') ? 1 : 0));
  });

  it('refuses a conversation naming a version of a refused config, and keeps one naming an accepted version', async () => {
    const { application, refused } = await readImportedApplication({
      ...base,
      modelConfigs: [
        { name: 'Good', provider: 'provider_a', versions: [{ clientId: 'v-ok', label: 'ok' }] },
        { name: 'Bad', provider: 'provider_a', settings: { temperature: 9 }, versions: [{ clientId: 'v-bad', label: 'bad' }] },
      ],
      conversations: [
        { title: 'a', configVersionClientId: 'v-ok', messages: [] },
        { title: 'b', configVersionClientId: 'v-bad', messages: [] },
      ],
    });
    expect(refused.map((r) => r.item)).toEqual(['modelConfigs[1]', 'conversations[1]']);
    expect(application.conversations.map((c) => c.title)).toEqual(['a']);
  });
});
