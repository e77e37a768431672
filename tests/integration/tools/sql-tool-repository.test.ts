import { randomUUID } from 'node:crypto';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { SqlToolRepository } from '../../../adapters/persistence/tools/sql-tool.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { ConflictError } from '../../../core/shared/errors';
import { defaultAgentSettings } from '../../../core/tools/domain/agent-settings';
import type { NewTool } from '../../../core/tools/ports/tool-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('the SQL tool repository (%s)', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let tools: SqlToolRepository;
  let applicationId: string;
  let ownerId: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    tools = new SqlToolRepository(db.dataSource);
    const user = await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
    ownerId = user.id;
    const app = await new TypeOrmApplicationRepository(db.dataSource).create({ ownerId, name: 'Tools', description: '', slug: `tools-${randomUUID().slice(0, 8)}`, allowedOrigins: [] });
    applicationId = app.id;
  });
  afterAll(() => db?.close());

  const aTool = (name: string): NewTool => ({
    id: randomUUID(),
    ownerId,
    applicationId,
    name,
    description: 'd',
    parameters: { type: 'object', properties: { q: { type: 'string', description: 'a NUL \u0000 inside' } } },
    source: { type: 'http', method: 'POST', url: 'https://api.example.com/{{args.q}}', headers: { 'X-Key': '{{secrets.K}}' }, allowedHosts: [] },
    timeoutMs: 1000,
    secretsSealed: { K: 'sealed-value' },
  });

  it('stores, reads back, changes and deletes a tool, keeping names unique per application', async () => {
    const created = await tools.create(aTool('one'));
    expect(await tools.findById(created.id)).toEqual(created);
    expect(created.parameters).toEqual({ type: 'object', properties: { q: { type: 'string', description: 'a NUL  inside' } } });
    await expect(tools.create(aTool('one'))).rejects.toBeInstanceOf(ConflictError);
    const second = await tools.create(aTool('two'));
    await expect(tools.update(second.id, { name: 'one' })).rejects.toBeInstanceOf(ConflictError);
    const changed = await tools.update(created.id, { description: 'changed', timeoutMs: 5000, secretsSealed: {} });
    expect(changed).toMatchObject({ name: 'one', description: 'changed', timeoutMs: 5000, secretsSealed: {}, source: created.source });
    expect((await tools.listByApplication(applicationId)).map((t) => t.name)).toEqual(['one', 'two']);
    expect(await tools.delete(second.id)).toBe(true);
    expect(await tools.delete(second.id)).toBe(false);
    expect(await tools.update(second.id, { name: 'gone' })).toBeNull();
  });

  it('keeps agent settings, saved twice as one row', async () => {
    expect(await tools.agentSettings(applicationId)).toBeNull();
    const first = await tools.saveAgentSettings(applicationId, { ...defaultAgentSettings(), enabledTools: ['one'], toolChoice: { name: 'one' } });
    expect(first).toEqual({ ...defaultAgentSettings(), enabledTools: ['one'], toolChoice: { name: 'one' } });
    const second = await tools.saveAgentSettings(applicationId, { ...first, toolChoice: 'required', maxToolRounds: 20, parallelCalls: false });
    expect(await tools.agentSettings(applicationId)).toEqual(second);
    expect(second).toMatchObject({ toolChoice: 'required', maxToolRounds: 20, parallelCalls: false, enabledTools: ['one'] });
  });
});
