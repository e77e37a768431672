import { CachedToolRepository } from '../../../adapters/cache/cached-tool-repository';
import { MemoryCache } from '../../../adapters/cache/memory.cache';
import { defaultAgentSettings, type AgentSettings } from '../../../core/tools/domain/agent-settings';
import type { Tool } from '../../../core/tools/domain/tool';
import type { ToolRepository } from '../../../core/tools/ports/tool-repository.port';
import { TurnToolsLoader } from '../../../core/tools/use-cases/turn-tools';

const APP = '0b6f3c1e-7a52-4a8f-9d43-1f0e2c3b4a5d';

const tool = (name: string): Tool => ({
  id: `id-${name}`,
  ownerId: 'owner',
  applicationId: APP,
  name,
  description: name,
  parameters: { type: 'object' },
  source: { type: 'builtin', builtin: 'search_knowledge' },
  timeoutMs: 1000,
  secretsSealed: {},
  createdAt: new Date(),
  updatedAt: new Date(),
});

/** A repository that counts the reads a turn would make (each one a statement on the real one). */
function countingRepository(settings: AgentSettings | null, tools: Tool[]) {
  const reads = { settings: 0, tools: 0 };
  let stored = settings;
  const inner: ToolRepository = {
    create: async () => tools[0]!,
    findById: async () => null,
    listByApplication: async () => (reads.tools++, tools),
    update: async () => null,
    delete: async () => true,
    agentSettings: async () => (reads.settings++, stored),
    saveAgentSettings: async (_app, s) => (stored = s),
  };
  return { reads, repository: new CachedToolRepository(inner, new MemoryCache({ ttlMs: 60_000 })) };
}

describe('the tools of a chat turn', () => {
  it('costs a turn without tools no read once the settings are cached, and reads the tools only when some are enabled', async () => {
    const { reads, repository } = countingRepository(null, [tool('lookup'), tool('other')]);
    const loader = new TurnToolsLoader(repository);
    expect(await loader.forApplication(APP, 'owner')).toBeUndefined();
    expect(await loader.forApplication(APP, 'owner')).toBeUndefined();
    expect(reads).toEqual({ settings: 1, tools: 0 });

    // Saving the settings invalidates them: the next turn sees the enabled tool, and only it.
    await repository.saveAgentSettings(APP, { ...defaultAgentSettings(), enabledTools: ['lookup'] });
    const turn = await loader.forApplication(APP, 'owner');
    expect(turn?.tools.map((t) => t.name)).toEqual(['lookup']);
    expect(turn?.ownerId).toBe('owner');
    expect(reads).toEqual({ settings: 2, tools: 1 });
  });

  it('offers nothing with toolChoice none or when the enabled tools are gone', async () => {
    const none = countingRepository({ ...defaultAgentSettings(), enabledTools: ['lookup'], toolChoice: 'none' }, [tool('lookup')]);
    expect(await new TurnToolsLoader(none.repository).forApplication(APP, 'owner')).toBeUndefined();
    expect(none.reads.tools).toBe(0);
    const gone = countingRepository({ ...defaultAgentSettings(), enabledTools: ['deleted'] }, [tool('lookup')]);
    expect(await new TurnToolsLoader(gone.repository).forApplication(APP, 'owner')).toBeUndefined();
  });
});
