import { DeployTemplateUseCase } from '../../../core/workflows/use-cases/templates.use-cases';
import { resolve } from '../../../apps/shared/tokens';
import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { waitFor } from '../../support/wait-for';

describe('application templates', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
    owner = await paidUserWithApplication(stack, 'pro');
  });
  afterAll(() => stack?.close());

  it('lists the catalogue', async () => {
    const res = await stack.client.get('/api/templates', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual(['support-bot', 'faq-widget', 'lead-qualifier', 'document-summariser']);
    expect((await stack.client.get('/api/templates')).status).toBe(401);
  });

  it.each([
    ['support-bot', 'How long do refunds take?'],
    ['faq-widget', 'What are your opening hours?'],
  ])('deploys %s with its config, prompt, theme and knowledge, and its first chat answers', async (id, question) => {
    const res = await stack.client.post(`/api/templates/${id}/deploy`, { name: `My ${id}` }, { token: owner.token });
    expect(res.status).toBe(201);
    const created = res.body;
    expect(created.application.name).toBe(`My ${id}`);
    expect(created.knowledgeDocuments.length).toBeGreaterThan(0);
    const app = await stack.client.get(`/api/applications/${created.application.id}`, { token: owner.token });
    expect(app.body.theme.themeId).toBe(created.theme);
    const configs = await stack.client.get(`/api/model-configs?applicationId=${created.application.id}`, { token: owner.token });
    expect(JSON.stringify(configs.body)).toContain(created.modelConfig.id);
    // The example documents are processed in the background and become searchable.
    await waitFor(async () => {
      const docs = await stack.client.get(`/api/knowledge?applicationId=${created.application.id}`, { token: owner.token });
      return docs.body.every((d: { status: string }) => d.status === 'ready');
    }, 20_000);
    const conversation = await stack.client.post('/api/conversations', { applicationId: created.application.id }, { token: owner.token });
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: question }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.provider).toBe('provider_a');
    expect(answer.body.message.content.length).toBeGreaterThan(0);
    expect(answer.body.sources?.length ?? 0).toBeGreaterThan(0);
  });

  it.each(['lead-qualifier', 'document-summariser'])('deploys %s with its workflow, and its first run completes', async (id) => {
    const res = await stack.client.post(`/api/templates/${id}/deploy`, {}, { token: owner.token });
    expect(res.status).toBe(201);
    const [workflow] = res.body.workflows;
    // Without the input its first step reads, the trigger is refused naming it (docs/workflows.md shows the summariser's).
    const bare = await stack.client.post(`/api/workflows/${workflow.id}/trigger`, { input: {} }, { token: owner.token });
    expect([bare.status, bare.body.message]).toEqual([400, id === 'lead-qualifier' ? 'input.company is required: step "score" reads {{input.company}}' : 'input.text is required: step "summarise" reads {{input.text}}']);
    const started = await stack.client.post(`/api/workflows/${workflow.id}/trigger`, { input: res.body.exampleInput }, { token: owner.token });
    expect(started.status).toBe(202);
    let run: any;
    await waitFor(async () => {
      run = (await stack.client.get(`/api/workflows/runs/${started.body.runId}`, { token: owner.token })).body;
      return ['completed', 'failed'].includes(run.status);
    }, 15_000);
    expect([run.status, run.error]).toEqual(['completed', null]);
    expect(run.steps[0]).toMatchObject({ kind: 'llm', status: 'completed' });
    expect(run.tokensUsed).toBeGreaterThan(0);
  });

  it('deploys all or nothing: a refused deployment leaves no application behind', async () => {
    const free = await registerUser(stack.client);
    const before = await stack.client.get('/api/applications', { token: free.access_token });
    // The Free plan's application limit is reached part-way: nothing of the template is stored.
    let refused;
    for (let i = 0; i < 20; i++) {
      refused = await stack.client.post('/api/templates/lead-qualifier/deploy', {}, { token: free.access_token });
      if (refused.status !== 201) break;
    }
    expect(refused!.status).toBe(402);
    const apps = await stack.client.get('/api/applications', { token: free.access_token });
    const workflows = await stack.client.get('/api/workflows', { token: free.access_token });
    expect(workflows.body.length).toBe(apps.body.length - before.body.length);
    expect((await stack.client.post('/api/templates/nope/deploy', {}, { token: owner.token })).status).toBe(404);
    expect((await stack.client.post('/api/templates/support-bot/deploy', { name: 'x'.repeat(300) }, { token: owner.token })).status).toBe(400);
  });

  it('rolls the whole deployment back when a later part fails (application, config, workflows, documents)', async () => {
    const deploy = resolve(stack.core.container, DeployTemplateUseCase) as unknown as { deps: { parts: { addPrompt: (...a: unknown[]) => Promise<unknown> } } };
    const parts = deploy.deps.parts;
    const original = parts.addPrompt;
    parts.addPrompt = async () => {
      throw new Error('prompt store down');
    };
    const before = (await stack.client.get('/api/applications', { token: owner.token })).body.length;
    try {
      const res = await stack.client.post('/api/templates/support-bot/deploy', { name: 'Doomed' }, { token: owner.token });
      expect(res.status).toBe(500);
    } finally {
      parts.addPrompt = original;
    }
    const apps = (await stack.client.get('/api/applications?limit=100', { token: owner.token })).body;
    expect(apps.length).toBe(before);
    expect(apps.map((a: { name: string }) => a.name)).not.toContain('Doomed');
  });
});
