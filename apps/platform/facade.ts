import { PaymentRequiredError, ValidationError, type PlanLimitHit } from '../../core/shared/errors';
import type { Actor } from '../../core/shared/actor';
import type { CoreUseCaseClasses, UseCaseClasses } from './use-cases';
import type * as P from './public-api';
import type { PublicCaller } from '../../core/public-api/domain/public-caller';
import type { ExternalUserInput } from '../../core/auth/use-cases/external-users.use-case';

/*
 * The facade a library caller uses: every use case takes one object (who calls, the resource, the fields) and
 * hands it to the core's use case in that use case's own argument order. Groups are read on each call, so a
 * platform that builds its use cases on first use (`createPlatform`) still does.
 */

/** The object a use case was given, or a `ValidationError`: a caller in plain JavaScript may pass anything. */
function objectOf(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ValidationError('The input must be an object');
  return input as Record<string, unknown>;
}

/** The `actor` of an input, checked for shape (the use cases check what it may do). */
function actorOf(input: Record<string, unknown>): Actor {
  const actor = input.actor as Partial<Actor> | undefined;
  if (!actor || typeof actor !== 'object' || typeof actor.userId !== 'string' || typeof actor.role !== 'string') {
    throw ValidationError.field('actor', 'actor is required: { userId, role } of the signed-in user (actorOf(session.user))');
  }
  return actor as Actor;
}

/** The `id` of an input: a string, or a `ValidationError` naming it. */
function idOf(input: Record<string, unknown>, field = 'id'): string {
  const id = input[field];
  if (typeof id !== 'string') throw ValidationError.field(field, `${field} is required (a string)`);
  return id;
}

/** The fields of an input without those the facade took out (who calls, the resource, the signal). */
function fieldsOf(input: Record<string, unknown>, ...taken: string[]): Record<string, unknown> {
  const rest = { ...input };
  for (const name of taken) delete rest[name];
  return rest;
}

function signalOf(input: Record<string, unknown>): AbortSignal | undefined {
  return input.signal instanceof AbortSignal ? input.signal : undefined;
}

type Run<I, O> = (input: Record<string, unknown>) => Promise<O> | O;

function useCase<I, O>(run: Run<I, O>): P.UseCase<I, O> {
  return Object.freeze({
    execute: async (input: I) => {
      try {
        return await run(objectOf(input));
      } catch (error) {
        throw addressedToCode(error);
      }
    },
  });
}

const LIFT_PLAN =
  'put the account on a plan that allows more (billing.changePlan({ actor: <an admin>, userId, plan }) on createPlatform, ' +
  'setPlan(userId, plan) on createInMemoryPlatform), or start accounts on one with the defaultPlan and plans options';

/**
 * A plan limit's refusal worded for the program calling the library: the console user's text names pages and
 * upgrade buttons, this one the calls and options that lift the limit. The limit stays on the error as data.
 */
export function libraryLimitMessage(hit: PlanLimitHit): string {
  const whose = hit.whose === 'team owner' ? "The team owner's plan" : "The account's plan";
  const plan = `${whose} ("${hit.plan}")`;
  const lift = hit.whose === 'team owner' ? LIFT_PLAN.replace('put the account', "put the team owner's account") : LIFT_PLAN;
  switch (hit.limit) {
    case 'applications':
    case 'apiKeys': {
      const what = hit.limit === 'applications' ? 'applications' : 'API keys';
      return `${plan} allows ${hit.max} ${what}, and all are in use. To create another, ${lift}.`;
    }
    case 'platformKeys':
      return `${plan} does not include the platform's provider keys, so ${hit.provider} needs the user's own key: save it with providerKeys.save({ actor, provider: '${hit.provider}', apiKey }), or ${lift}.`;
    case 'messages':
      return `${plan} allows ${hit.max} messages per month, and this period's are used up until ${hit.resetsOn}. To chat before then, ${lift}.`;
    case 'tokens':
      return `${plan} includes ${hit.max} platform tokens per month, and this period's are used up until ${hit.resetsOn}. To chat before then, save the user's own ${hit.provider} key (providerKeys.save; own keys are never metered), or ${lift}.`;
  }
}

/** A plan limit's refusal as the library words it (same class and `limit`); any other error as it was. */
function addressedToCode(error: unknown): unknown {
  if (!(error instanceof PaymentRequiredError) || !error.limit) return error;
  const worded = new PaymentRequiredError(libraryLimitMessage(error.limit), error.limit);
  worded.stack = `${worded.name}: ${worded.message}\n${(error.stack ?? '').split('\n').slice(1).join('\n')}`;
  return worded;
}

/** A use case acting for `actor` with the rest of the input as its body. */
const asActor = <I, O>(call: (fields: Record<string, unknown>, actor: Actor) => Promise<O>) => useCase<I, O>((i) => call(fieldsOf(i, 'actor'), actorOf(i)));
/** A use case acting for `actor` on the resource `id`. */
const onResource = <I, O>(call: (id: string, actor: Actor) => Promise<O>) => useCase<I, O>((i) => call(idOf(i), actorOf(i)));
/** A use case acting for `actor` on the resource `id` with the rest of the input as its body. */
const onResourceWith = <I, O>(call: (id: string, fields: Record<string, unknown>, actor: Actor) => Promise<O>) =>
  useCase<I, O>((i) => call(idOf(i), fieldsOf(i, 'actor', 'id'), actorOf(i)));

/** The facade of the use cases both platforms have. */
export function coreFacadeOf(u: CoreUseCaseClasses): P.PlatformCore {
  return {
    auth: Object.freeze({
      register: useCase((i) => u.auth.register.execute(i)),
      login: useCase((i) => u.auth.login.execute(i)),
      refresh: useCase((i) => u.auth.refresh.execute(i)),
      signOut: useCase((i) => u.auth.signOut.execute(i)),
    }),
    users: Object.freeze({ me: useCase((i) => u.users.me.execute(actorOf(i))) }),
    applications: Object.freeze({
      create: asActor((f, a) => u.applications.create.execute(f, a)),
      get: onResource((id, a) => u.applications.get.execute(id, a)),
      list: asActor((f, a) => u.applications.list.execute(f, a)),
      update: onResourceWith((id, f, a) => u.applications.update.execute(id, f, a)),
      delete: onResource((id, a) => u.applications.delete.execute(id, a)),
    }),
    conversations: Object.freeze({
      create: asActor((f, a) => u.conversations.create.execute(f, a)),
      get: onResource((id, a) => u.conversations.get.execute(id, a)),
      send: useCase((i) => u.conversations.send.execute(idOf(i), fieldsOf(i, 'actor', 'id', 'signal'), actorOf(i), signalOf(i))),
      stream: useCase((i) => u.conversations.stream.execute(idOf(i), fieldsOf(i, 'actor', 'id', 'signal'), actorOf(i), signalOf(i))),
    }),
    billing: Object.freeze({
      plans: useCase(() => u.billing.plans.execute()),
      usage: useCase((i) => u.billing.usage.execute(actorOf(i))),
    }),
    externalUsers: Object.freeze({
      resolve: useCase((i) => u.externalUsers.resolve.execute(i as unknown as ExternalUserInput)),
      session: useCase((i) => u.externalUsers.session.execute(i as unknown as ExternalUserInput)),
    }),
  };
}

/** The bytes of an upload as the core reads them. */
function fileOf(file: unknown): { name: string; bytes: Buffer } | undefined {
  if (file === undefined || file === null) return undefined;
  const { name, bytes } = file as { name?: unknown; bytes?: unknown };
  if (typeof name !== 'string' || !(bytes instanceof Uint8Array)) throw ValidationError.field('file', 'file must be { name: string, bytes: Uint8Array }');
  return { name, bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** `true`/`false` as the query string carries them; anything else as given (refused by the use case). */
const flag = (value: unknown) => (typeof value === 'boolean' ? String(value) : value);

/** The facade of every use case of a platform composed with its real adapters. */
export function facadeOf(u: UseCaseClasses): P.PlatformUseCases {
  const core = coreFacadeOf(u);
  return {
    ...core,
    auth: Object.freeze({
      ...core.auth,
      authenticate: useCase((i) => u.auth.authenticate.execute(idOf(i, 'accessToken'))),
      requestPasswordReset: useCase((i) => u.auth.requestPasswordReset.execute(i)),
      confirmPasswordReset: useCase((i) => u.auth.confirmPasswordReset.execute(i)),
    }),
    users: Object.freeze({
      ...core.users,
      updateProfile: asActor((f, a) => u.users.updateProfile.execute(f, a)),
      deleteAccount: asActor((f, a) => u.users.deleteAccount.execute(f, a)),
    }),
    conversations: Object.freeze({
      ...core.conversations,
      list: asActor((f, a) => u.conversations.list.execute(f, a)),
      archive: onResource((id, a) => u.conversations.archive.execute(id, a)),
      providers: useCase((i) => u.conversations.providers.execute(actorOf(i))),
    }),
    billing: Object.freeze({
      ...core.billing,
      subscription: useCase((i) => u.billing.subscription.execute(actorOf(i))),
      subscribe: asActor((f, a) => u.billing.subscribe.execute(a, f)),
      changePlan: useCase((i) => u.billing.changePlan.execute(idOf(i, 'userId'), fieldsOf(i, 'actor', 'userId'), actorOf(i))),
      portal: useCase((i) => u.billing.portal.execute(actorOf(i))),
      invoices: asActor((f, a) => u.billing.invoices.execute(a, f)),
    }),
    knowledge: Object.freeze({
      upload: useCase((i) => u.knowledge.upload.execute({ fields: fieldsOf(i, 'actor', 'file'), file: fileOf(i.file) }, actorOf(i))),
      list: asActor((f, a) => u.knowledge.list.execute(f, a)),
      get: onResource((id, a) => u.knowledge.get.execute(id, a)),
      delete: onResource((id, a) => u.knowledge.delete.execute(id, a)),
      search: asActor((f, a) => u.knowledge.search.execute({ ...f, asChat: flag(f.asChat) }, a)),
    }),
    modelConfigs: Object.freeze({
      create: asActor((f, a) => u.modelConfigs.create.execute(f, a)),
      list: asActor((f, a) => u.modelConfigs.list.execute(f, a)),
      get: onResource((id, a) => u.modelConfigs.get.execute(id, a)),
      update: onResourceWith((id, f, a) => u.modelConfigs.update.execute(id, f, a)),
      delete: onResource((id, a) => u.modelConfigs.delete.execute(id, a)),
      setDefault: onResource((id, a) => u.modelConfigs.setDefault.execute(id, a)),
    }),
    prompts: Object.freeze({
      create: asActor((f, a) => u.prompts.create.execute(f, a)),
      list: asActor((f, a) => u.prompts.list.execute(f, a)),
      get: onResource((id, a) => u.prompts.get.execute(id, a)),
      update: onResourceWith((id, f, a) => u.prompts.update.execute(id, f, a)),
      delete: onResource((id, a) => u.prompts.delete.execute(id, a)),
      render: asActor((f, a) => u.prompts.render.execute(f, a)),
    }),
    providerKeys: Object.freeze({
      save: useCase((i) => u.providerKeys.save.execute(i.provider, fieldsOf(i, 'actor', 'provider'), actorOf(i))),
      list: useCase((i) => u.providerKeys.list.execute(actorOf(i))),
      delete: useCase((i) => u.providerKeys.delete.execute(i.provider, actorOf(i))),
      validate: useCase((i) => u.providerKeys.validate.execute(i.provider, actorOf(i), signalOf(i))),
    }),
    apiKeys: Object.freeze({
      create: asActor((f, a) => u.apiKeys.create.execute(f, a)),
      list: asActor((f, a) => u.apiKeys.list.execute(f, a)),
      revoke: onResource((id, a) => u.apiKeys.revoke.execute(id, a)),
      delete: onResource((id, a) => u.apiKeys.delete.execute(id, a)),
      authenticate: useCase((i) => u.apiKeys.authenticate.execute(i.key)),
    }),
    publicApi: Object.freeze({
      application: useCase((i) => u.publicApi.application.execute(fieldsOf(i, 'caller'), callerOf(i))),
      send: useCase((i) => u.publicApi.send.execute(fieldsOf(i, 'caller', 'signal'), callerOf(i), signalOf(i))),
      stream: useCase((i) => u.publicApi.stream.execute(fieldsOf(i, 'caller', 'signal'), callerOf(i), signalOf(i))),
    }),
    analytics: Object.freeze({
      overview: asActor((f, a) => u.analytics.get.overview(f, a)),
      usage: asActor((f, a) => u.analytics.get.usage(f, a)),
      conversations: asActor((f, a) => u.analytics.get.conversations(f, a)),
      costs: asActor((f, a) => u.analytics.get.costs(f, a)),
    }),
  };
}

/** The `caller` of a public-API input: an admitted key (`apiKeys.authenticate`). */
function callerOf(input: Record<string, unknown>): PublicCaller {
  const caller = input.caller as Partial<PublicCaller> | undefined;
  if (!caller || typeof caller !== 'object' || !caller.key || typeof caller.key !== 'object') {
    throw ValidationError.field('caller', 'caller is required: { key, source } with the key apiKeys.authenticate answered');
  }
  return { source: 'api', ...caller } as PublicCaller;
}
