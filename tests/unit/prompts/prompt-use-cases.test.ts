import { ConflictError, NotFoundError, ValidationError } from '../../../core/shared/errors';
import { CreatePromptTemplateUseCase } from '../../../core/prompts/use-cases/create-prompt-template.use-case';
import { DeletePromptTemplateUseCase } from '../../../core/prompts/use-cases/delete-prompt-template.use-case';
import { GetPromptTemplateUseCase } from '../../../core/prompts/use-cases/get-prompt-template.use-case';
import { ListPromptTemplatesUseCase } from '../../../core/prompts/use-cases/list-prompt-templates.use-case';
import { RenderPromptUseCase } from '../../../core/prompts/use-cases/render-prompt.use-case';
import { SetDefaultPromptTemplateUseCase } from '../../../core/prompts/use-cases/set-default-prompt-template.use-case';
import { UpdatePromptTemplateUseCase } from '../../../core/prompts/use-cases/update-prompt-template.use-case';
import { MAX_TEMPLATES_PER_APPLICATION } from '../../../core/prompts/domain/prompt-template';
import { anActor, anApplication, aWorld } from '../model-configs/model-configs.fixtures';

describe('prompt template use cases', () => {
  const world = aWorld();
  const create = new CreatePromptTemplateUseCase(world);
  const list = new ListPromptTemplatesUseCase(world);
  const get = new GetPromptTemplateUseCase(world);
  const update = new UpdatePromptTemplateUseCase(world);
  const remove = new DeletePromptTemplateUseCase(world);
  const setDefault = new SetDefaultPromptTemplateUseCase(world);
  const render = new RenderPromptUseCase(world);

  async function anOwnerWithApp() {
    const actor = anActor();
    return { actor, app: await anApplication(world, actor) };
  }

  it('creates a template whose variables are its placeholders, and keeps the content exactly', async () => {
    const { actor, app } = await anOwnerWithApp();
    const t = await create.execute({ applicationId: app.id, name: ' Greeting ', content: '  Hello {{name}} from {{ company }}, {{name}}!\n' }, actor);
    expect(t).toMatchObject({ id: expect.any(String), applicationId: app.id, name: 'Greeting', content: '  Hello {{name}} from {{ company }}, {{name}}!\n', variables: ['name', 'company'], isDefault: false });
    expect((await get.execute(t.id, actor)).variables).toEqual(['name', 'company']);
  });

  it('updates content and recomputes the variables', async () => {
    const { actor, app } = await anOwnerWithApp();
    const t = await create.execute({ applicationId: app.id, name: 'T', content: '{{a}}' }, actor);
    expect(await update.execute(t.id, { content: '{{b}} and {{c}}' }, actor)).toMatchObject({ name: 'T', variables: ['b', 'c'] });
  });

  it('keeps one default per application', async () => {
    const { actor, app } = await anOwnerWithApp();
    const a = await create.execute({ applicationId: app.id, name: 'A', content: 'a', isDefault: true }, actor);
    const b = await create.execute({ applicationId: app.id, name: 'B', content: 'b' }, actor);
    expect((await setDefault.execute(b.id, actor)).isDefault).toBe(true);
    const all = await list.execute({ applicationId: app.id }, actor);
    expect(all.filter((t) => t.isDefault).map((t) => t.id)).toEqual([b.id]);
    expect((await update.execute(b.id, { isDefault: false }, actor)).isDefault).toBe(false);
    expect((await update.execute(a.id, { isDefault: true }, actor)).isDefault).toBe(true);
  });

  it.each([
    ['no content', { name: 'T' }, 'content'],
    ['no name', { content: 'x' }, 'name'],
    ['empty content', { name: 'T', content: '' }, 'content'],
    ['content over 20000 characters', { name: 'T', content: 'x'.repeat(20_001) }, 'content'],
    ['a name over 100 characters', { name: 'x'.repeat(101), content: 'x' }, 'name'],
    ['51 different placeholders', { name: 'T', content: Array.from({ length: 51 }, (_, i) => `{{v${i}}}`).join(' ') }, 'content'],
  ])('refuses %s, naming the field', async (_case, fields, path) => {
    const { actor, app } = await anOwnerWithApp();
    const error = await create.execute({ applicationId: app.id, ...fields }, actor).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('holds at most a fixed number of templates per application', async () => {
    const { actor, app } = await anOwnerWithApp();
    for (let i = 0; i < MAX_TEMPLATES_PER_APPLICATION; i++) await create.execute({ applicationId: app.id, name: `T${i}`, content: 'x' }, actor);
    await expect(create.execute({ applicationId: app.id, name: 'One too many', content: 'x' }, actor)).rejects.toBeInstanceOf(ConflictError);
  });

  it("answers 404 for another user's templates and applications", async () => {
    const { actor, app } = await anOwnerWithApp();
    const t = await create.execute({ applicationId: app.id, name: 'T', content: '{{x}}' }, actor);
    const stranger = anActor();
    await expect(get.execute(t.id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(update.execute(t.id, { name: 'X' }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setDefault.execute(t.id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(remove.execute(t.id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(list.execute({ applicationId: app.id }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(render.execute({ templateId: t.id, variables: { x: 1 } }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(create.execute({ applicationId: app.id, name: 'T', content: 'x' }, stranger)).rejects.toBeInstanceOf(NotFoundError);
  });

  describe('render', () => {
    it('renders a stored template or given content and lists its variables', async () => {
      const { actor, app } = await anOwnerWithApp();
      const t = await create.execute({ applicationId: app.id, name: 'T', content: 'Hi {{name}}, you have {{n}} messages' }, actor);
      expect(await render.execute({ templateId: t.id, variables: { name: 'Ada', n: 3 } }, actor)).toEqual({ rendered: 'Hi Ada, you have 3 messages', variables: ['name', 'n'] });
      expect(await render.execute({ content: 'No placeholders' }, actor)).toEqual({ rendered: 'No placeholders', variables: [] });
    });

    it('answers 400 naming a placeholder that has no value', async () => {
      const { actor } = await anOwnerWithApp();
      const error = await render.execute({ content: '{{a}} {{b}}', variables: { a: 'x' } }, actor).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details.map((d: { path: string }) => d.path)).toEqual(['variables.b']);
    });

    it('does not substitute into substituted values, nor read the object prototype', async () => {
      const { actor } = await anOwnerWithApp();
      expect((await render.execute({ content: '{{a}}|{{b}}', variables: { a: '{{b}}', b: 'B' } }, actor)).rendered).toBe('{{b}}|B');
      await expect(render.execute({ content: '{{constructor}}', variables: {} }, actor)).rejects.toBeInstanceOf(ValidationError);
      const proto = JSON.parse('{"__proto__": "P"}');
      expect((await render.execute({ content: '{{__proto__}}', variables: proto }, actor)).rendered).toBe('P');
    });

    it.each([
      ['neither templateId nor content', { variables: {} }, 'templateId'],
      ['both templateId and content', { content: 'x', templateId: '00000000-0000-4000-8000-000000000000' }, 'templateId'],
      ['variables as an array', { content: 'x', variables: [] }, 'variables'],
      ['an object value', { content: '{{a}}', variables: { a: { nested: true } } }, 'variables.a'],
      ['a value over 20000 characters', { content: '{{a}}', variables: { a: 'x'.repeat(20_001) } }, 'variables.a'],
      ['201 values', { content: 'x', variables: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) }, 'variables'],
    ])('refuses %s', async (_case, body, path) => {
      const { actor } = await anOwnerWithApp();
      const error = await render.execute(body, actor).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  });
});
