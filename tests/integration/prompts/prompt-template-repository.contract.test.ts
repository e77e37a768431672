import { randomUUID } from 'node:crypto';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryPromptTemplateRepository } from '../../../adapters/persistence/prompts/in-memory-prompt-template.repository';
import { TypeOrmPromptTemplateRepository } from '../../../adapters/persistence/prompts/type-orm-prompt-template.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { PromptTemplateRepository } from '../../../core/prompts/ports/prompt-template-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Subject {
  templates: PromptTemplateRepository;
  anApplication(): Promise<{ id: string; ownerId: string }>;
  close(): Promise<void>;
}

const variants: Array<[string, () => Promise<Subject>]> = [
  [
    'in-memory',
    async () => {
      const applications = new InMemoryApplicationRepository();
      return {
        templates: new InMemoryPromptTemplateRepository((id) => applications.apps.get(id)?.ownerId),
        anApplication: () => applications.create({ ownerId: randomUUID(), name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] }),
        close: async () => undefined,
      };
    },
  ],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Subject>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const users = new TypeOrmUserRepository(db.dataSource);
      const applications = new TypeOrmApplicationRepository(db.dataSource);
      return {
        templates: new TypeOrmPromptTemplateRepository(db.dataSource),
        anApplication: async () => {
          const user = await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
          return applications.create({ ownerId: user.id, name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] });
        },
        close: () => db.close(),
      };
    },
  ]),
];

describe.each(variants)('prompt template repository (%s)', (_name, open) => {
  let s: Subject;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(() => s.close());

  const aTemplate = (applicationId: string, fields: { makeDefault?: boolean; content?: string } = {}) =>
    s.templates.create({ applicationId, name: 'T', content: fields.content ?? 'Hello {{name}}', variables: ['name'], makeDefault: fields.makeDefault ?? false });

  const defaultsOf = async (applicationId: string) => (await s.templates.listByApplication(applicationId, 0, 100)).filter((t) => t.isDefault).map((t) => t.id);

  it('stores a template with its variables and finds it with its owner', async () => {
    const app = await s.anApplication();
    const t = await aTemplate(app.id, { content: '  {{name}}\n' });
    const found = await s.templates.findWithOwner(t.id);
    expect(found).toMatchObject({ ownerId: app.ownerId, template: { content: '  {{name}}\n', variables: ['name'], isDefault: false } });
    expect(await s.templates.findWithOwner(randomUUID())).toBeNull();
  });

  it('updates only what changes and lists oldest first with paging', async () => {
    const app = await s.anApplication();
    const first = await aTemplate(app.id);
    // Apart in time: the embedded database's clock counts whole milliseconds, and ties have no order.
    await new Promise((r) => setTimeout(r, 3));
    const second = await aTemplate(app.id);
    expect(await s.templates.update(first.id, { content: '{{a}}', variables: ['a'] })).toMatchObject({ name: 'T', content: '{{a}}', variables: ['a'] });
    expect((await s.templates.listByApplication(app.id, 1, 1)).map((t) => t.id)).toEqual([second.id]);
    await expect(s.templates.update(randomUUID(), { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('switches the default, unsets it, and leaves one default after concurrent switches', async () => {
    const app = await s.anApplication();
    const a = await aTemplate(app.id, { makeDefault: true });
    const b = await aTemplate(app.id, { makeDefault: true });
    expect(await defaultsOf(app.id)).toEqual([b.id]);
    await s.templates.setDefault(b.id, false);
    expect(await s.templates.findDefault(app.id)).toBeNull();
    const more = [a, b, await aTemplate(app.id), await aTemplate(app.id)];
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.templates.setDefault(more[i % more.length]!.id, true)));
    expect(await defaultsOf(app.id)).toHaveLength(1);
  });

  it('deletes a template, the default too', async () => {
    const app = await s.anApplication();
    const t = await aTemplate(app.id, { makeDefault: true });
    await s.templates.delete(t.id);
    expect(await s.templates.findDefault(app.id)).toBeNull();
    expect(await s.templates.findWithOwner(t.id)).toBeNull();
  });
});
