import { createInMemoryPlatform } from '../../../apps/platform/in-memory-platform';
import { ScriptedModelProvider } from '../../../adapters/providers/scripted-model-provider';
import { PaymentRequiredError, UpstreamError } from '../../../core/shared/errors';
import { PlatformClosedError } from '../../../core/shared/platform-errors';

const signUp = { email: 'dev@example.com', password: 'correct horse battery', displayName: 'Dev' };

describe('the in-memory platform', () => {
  it('registers, creates an application, chats with the scripted model and counts the usage', async () => {
    const platform = createInMemoryPlatform();
    const model = platform.model as ScriptedModelProvider;
    model.reply({ content: 'Four.', usage: { promptTokens: 12, completionTokens: 3 } });

    const { user } = await platform.auth.register.execute(signUp);
    const actor = { userId: user.id, role: user.role };
    const app = await platform.applications.create.execute({ actor, name: 'Support bot' });
    const conversation = await platform.conversations.create.execute({ actor, applicationId: app.id });
    const answer = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'What is two plus two?' });

    expect(answer.message).toMatchObject({ role: 'assistant', content: 'Four.' });
    expect(answer.usage).toEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
    expect(model.lastUserMessage).toBe('What is two plus two?');
    const second = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'And three?' });
    expect(second.message.content).toBe('Echo: And three?');
    expect(model.requests.at(-1)!.messages.map((m) => m.content)).toEqual(['What is two plus two?', 'Four.', 'And three?']);

    const usage = await platform.billing.usage.execute({ actor });
    expect(usage).toMatchObject({ plan: 'pro', usage: { tokensUsed: 15 + second.usage.totalTokens, messages: 2, applications: 1 } });
    const stored = await platform.conversations.get.execute({ actor, id: conversation.id });
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    await platform.close();
  });

  it('keeps the platform rules: Free needs an own key, a provider failure is an upstream error, another user sees nothing', async () => {
    const platform = createInMemoryPlatform({ defaultPlan: 'free' });
    const { user } = await platform.auth.register.execute(signUp);
    const actor = { userId: user.id, role: user.role };
    const app = await platform.applications.create.execute({ actor, name: 'Bot' });
    const conversation = await platform.conversations.create.execute({ actor, applicationId: app.id });
    const refused = await platform.conversations.send.execute({ actor, id: conversation.id, content: 'Hi' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    // Worded for the program calling the library (the calls that lift it), with the limit as data.
    expect((refused as PaymentRequiredError).limit).toEqual({ limit: 'platformKeys', plan: 'free', max: null, whose: 'own', provider: 'provider_a' });
    expect((refused as Error).message).toMatch(/^The account's plan \("free"\) does not include the platform's provider keys, so provider_a needs the user's own key: save it with providerKeys\.save\(/);
    expect((refused as Error).message).toContain('setPlan(userId, plan)');
    expect((refused as Error).message).not.toContain('under Provider keys');

    // The plan's application limit, likewise.
    const limited = createInMemoryPlatform({ defaultPlan: 'free' });
    const owner = await limited.auth.register.execute(signUp);
    const ownerActor = { userId: owner.user.id, role: owner.user.role };
    const max = (await limited.billing.plans.execute()).find((p) => p.id === 'free')!.limits.applications!;
    for (let i = 0; i < max; i++) await limited.applications.create.execute({ actor: ownerActor, name: `App ${i}` });
    await expect(limited.applications.create.execute({ actor: ownerActor, name: 'One more' })).rejects.toMatchObject({
      kind: 'payment_required',
      limit: { limit: 'applications', plan: 'free', max, whose: 'own' },
      message: expect.stringContaining(`allows ${max} applications, and all are in use. To create another, put the account on a plan`),
    });

    await platform.setPlan(user.id, 'starter');
    (platform.model as ScriptedModelProvider).reply(new UpstreamError('provider_a failed (500)'));
    await expect(platform.conversations.send.execute({ actor, id: conversation.id, content: 'Hi' })).rejects.toBeInstanceOf(UpstreamError);

    const other = await platform.auth.register.execute({ ...signUp, email: 'other@example.com' });
    await expect(platform.applications.get.execute({ actor: { userId: other.user.id, role: other.user.role }, id: app.id })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it("maps the program's own users to one account each, types the model as given, and refuses calls once closed", async () => {
    const platform = createInMemoryPlatform();
    platform.model.reply('Typed.'); // ScriptedModelProvider without a cast
    const first = await platform.externalUsers.session.execute({ externalId: 'u-1', displayName: 'Ada' });
    const again = await platform.externalUsers.resolve.execute({ externalId: 'u-1' });
    expect(again).toEqual({ user: first.user, created: false });
    expect(first).toMatchObject({ created: true, user: { displayName: 'Ada', role: 'developer' }, access_token: expect.any(String) });
    expect((await platform.users.me.execute({ actor: { userId: first.user.id, role: first.user.role } })).id).toBe(first.user.id);

    await platform.close();
    await expect(platform.externalUsers.resolve.execute({ externalId: 'u-1' })).rejects.toBeInstanceOf(PlatformClosedError);
    await expect(platform.setPlan(first.user.id, 'pro')).rejects.toBeInstanceOf(PlatformClosedError);
  });
});
