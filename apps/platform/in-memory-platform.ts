import { randomBytes } from 'node:crypto';
import { Argon2PasswordHasher } from '../../adapters/crypto/argon2.password-hasher';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm.secret-box';
import { JwtTokenService } from '../../adapters/crypto/jwt.token-service';
import { InMemoryUsageLedger } from '../../adapters/persistence/billing/in-memory-usage-ledger';
import { InMemoryApplicationRepository } from '../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryConversationRepository } from '../../adapters/persistence/in-memory/in-memory-conversation.repository';
import { InMemoryRefreshTokenRepository } from '../../adapters/persistence/in-memory/in-memory-refresh-token.repository';
import { InMemoryUserRepository } from '../../adapters/persistence/in-memory/in-memory-user.repository';
import { InMemoryProviderKeyRepository } from '../../adapters/persistence/provider-keys/in-memory-provider-key.repository';
import { InMemoryExternalUserRepository } from '../../adapters/persistence/in-memory/in-memory-external-user.repository';
import { IssueExternalSessionUseCase, ResolveExternalUserUseCase } from '../../core/auth/use-cases/external-users.use-case';
import { ScriptedModelProvider } from '../../adapters/providers/scripted-model-provider';
import { FlexibleRateLimiter } from '../../adapters/rate-limit/flexible.rate-limiter';
import type { LlmProviderRegistry } from '../../core/ai/ports/llm-provider.port';
import { InProcessChatEngine } from '../../core/ai/use-cases/in-process-chat-engine';
import { CreateApplicationUseCase } from '../../core/applications/use-cases/create-application.use-case';
import { DeleteApplicationUseCase } from '../../core/applications/use-cases/delete-application.use-case';
import { GetApplicationUseCase } from '../../core/applications/use-cases/get-application.use-case';
import { ListApplicationsUseCase } from '../../core/applications/use-cases/list-applications.use-case';
import { UpdateApplicationUseCase } from '../../core/applications/use-cases/update-application.use-case';
import { LoginUseCase } from '../../core/auth/use-cases/login.use-case';
import { RefreshSessionUseCase } from '../../core/auth/use-cases/refresh-session.use-case';
import { RegisterUseCase } from '../../core/auth/use-cases/register.use-case';
import { SignOutUseCase } from '../../core/auth/use-cases/sign-out.use-case';
import { PlanCatalog, type Plan, type PlanTier } from '../../core/billing/domain/plans';
import type { OwnedResources } from '../../core/billing/ports/owned-resources.port';
import type { SubscriptionRepository } from '../../core/billing/ports/subscription-repository.port';
import type { Subscription } from '../../core/billing/domain/subscription';
import { GetUsageUseCase } from '../../core/billing/use-cases/get-usage.use-case';
import { KeysAndQuotaPolicy } from '../../core/billing/use-cases/keys-and-quota.policy';
import { ListPlansUseCase } from '../../core/billing/use-cases/list-plans.use-case';
import { PlanLimitGuards } from '../../core/billing/use-cases/plan-limit-guards';
import { platformAdmins } from '../../core/billing/use-cases/platform-admins';
import type { ChatPolicy } from '../../core/conversations/ports/chat-policy.port';
import { CreateConversationUseCase } from '../../core/conversations/use-cases/create-conversation.use-case';
import { GetConversationUseCase } from '../../core/conversations/use-cases/get-conversation.use-case';
import { ChatTurnRunner } from '../../core/conversations/use-cases/run-chat-turn';
import { SendMessageUseCase } from '../../core/conversations/use-cases/send-message.use-case';
import { StreamMessageUseCase } from '../../core/conversations/use-cases/stream-message.use-case';
import { systemClock, type Clock } from '../../core/shared/clock.port';
import { GetCurrentUserUseCase } from '../../core/users/use-cases/get-current-user.use-case';
import type { UserRepository } from '../../core/users/ports/user-repository.port';
import { PlatformClosedError } from '../../core/shared/platform-errors';
import { closedGuard, type CoreUseCaseClasses } from './use-cases';
import { coreFacadeOf } from './facade';
import type { PlatformCore } from './public-api';

export interface InMemoryPlatformOptions<M extends LlmProviderRegistry = ScriptedModelProvider> {
  /**
   * The model provider every provider id answers through (default: a new `ScriptedModelProvider`, which
   * echoes until answers are queued with `reply`).
   */
  model?: M;
  /** The plan new accounts are on (default `pro`; on `free` a chat needs the user's own provider key, as on the platform). */
  defaultPlan?: PlanTier;
  /** The plans on offer (default: the platform's). */
  plans?: Readonly<Record<PlanTier, Plan>>;
  /** E-mails that hold the Admin role. */
  adminEmails?: string[];
  /** The time the use cases read (default: the system clock). */
  clock?: Clock;
  /** Extra chat policies, run after keys and quota (which reserves and counts the tokens). */
  chatPolicies?: ChatPolicy[];
}

export interface InMemoryPlatform<M extends LlmProviderRegistry = ScriptedModelProvider> extends PlatformCore {
  /** The model provider of the platform: the scripted one unless `options.model` gave another (then that one, typed as given). */
  readonly model: M;
  /** Puts an account on a plan (what an admin or a payment does on the platform). */
  setPlan(userId: string, plan: PlanTier): Promise<void>;
  /** Nothing to release; afterwards every use case throws `PlatformClosedError`, as on `createPlatform`. */
  close(): Promise<void>;
}

/** Cheap argon2 parameters: an in-memory platform is for tests, where hashing must take a millisecond. */
const TEST_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/**
 * The core with in-memory adapters and a scriptable model provider, for other programs' tests: accounts,
 * applications, chat turns (with plan quotas and token counting) and usage, in memory, with no network,
 * database or Redis.
 */
export function createInMemoryPlatform<M extends LlmProviderRegistry = ScriptedModelProvider>(options: InMemoryPlatformOptions<M> = {}): InMemoryPlatform<M> {
  const clock = options.clock ?? systemClock;
  // Without `options.model`, M is its default, ScriptedModelProvider.
  const model = options.model ?? (new ScriptedModelProvider() as unknown as M);
  const users = new InMemoryUserRepository();
  const refreshTokens = new InMemoryRefreshTokenRepository();
  const session = {
    refreshTokens,
    tokens: new JwtTokenService({ secret: randomBytes(32).toString('hex') }),
    clock,
    adminEmails: (options.adminEmails ?? []).map((e) => e.trim().toLowerCase()),
  };
  const hasher = new Argon2PasswordHasher(TEST_HASHING);
  const applications = new InMemoryApplicationRepository();
  const conversations = new InMemoryConversationRepository(applications);
  const subscriptions = new UserSubscriptions(users, options.defaultPlan ?? 'pro');
  const owned: OwnedResources = { applications: (ownerId) => applications.countByOwner(ownerId), apiKeys: async () => 0 };
  const plans = new PlanCatalog(options.plans);
  const usage = new InMemoryUsageLedger();
  const billing = { subscriptions, clock, plans, usage, owned, admins: platformAdmins(users, session.adminEmails) };
  const quota = new KeysAndQuotaPolicy({
    ...billing,
    keys: new InMemoryProviderKeyRepository(),
    secretBox: new AesGcmSecretBox({ key: randomBytes(32).toString('hex') }),
  });
  const engine = new InProcessChatEngine({ conversations, providers: model, clock });
  const runner = new ChatTurnRunner({ engine, policies: [quota, ...(options.chatPolicies ?? [])] });
  const guards = new PlanLimitGuards(billing);
  const messages = { conversations, applications, runner };
  const external = { ...session, users, externalUsers: new InMemoryExternalUserRepository() };
  const resolveExternal = new ResolveExternalUserUseCase(external);
  let closed = false;
  const guard = closedGuard(() => closed);
  const area = <T extends Record<string, object>>(name: string, useCases: T): T =>
    Object.freeze(Object.fromEntries(Object.entries(useCases).map(([k, u]) => [k, guard(u, `${name}.${k}`)]))) as T;
  const useCases: CoreUseCaseClasses = {
    auth: area('auth', {
      register: new RegisterUseCase({ ...session, users, hasher }),
      login: new LoginUseCase({ ...session, users, hasher, limiter: new FlexibleRateLimiter({ keyPrefix: 'in-memory' }) }),
      refresh: new RefreshSessionUseCase({ ...session, users }),
      signOut: new SignOutUseCase(session),
    }),
    users: area('users', { me: new GetCurrentUserUseCase({ users }) }),
    applications: area('applications', {
      create: new CreateApplicationUseCase({ applications, guard: (ownerId) => guards.applications(ownerId) }),
      get: new GetApplicationUseCase({ applications }),
      list: new ListApplicationsUseCase({ applications }),
      update: new UpdateApplicationUseCase({ applications }),
      delete: new DeleteApplicationUseCase({ applications }),
    }),
    conversations: area('conversations', {
      create: new CreateConversationUseCase({ applications, engine, runner }),
      get: new GetConversationUseCase({ conversations, applications }),
      send: new SendMessageUseCase(messages),
      stream: new StreamMessageUseCase(messages),
    }),
    billing: area('billing', { plans: new ListPlansUseCase({ plans }), usage: new GetUsageUseCase(billing) }),
    externalUsers: area('externalUsers', { resolve: resolveExternal, session: new IssueExternalSessionUseCase({ ...external, resolve: resolveExternal }) }),
  };
  return {
    ...coreFacadeOf(useCases),
    model,
    async setPlan(userId, plan) {
      if (closed) throw new PlatformClosedError('setPlan()');
      if (!(await subscriptions.change(userId, { plan, status: 'active', startedAt: clock.now() }))) throw new Error(`No account ${userId}`);
    },
    async close() {
      closed = true;
    },
  };
}

/** Subscriptions of the in-memory accounts: each starts on the default plan from its registration. */
class UserSubscriptions implements SubscriptionRepository {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly users: Pick<UserRepository, 'findById'>,
    private readonly defaultPlan: PlanTier,
  ) {}

  async ensure(userId: string): Promise<Subscription | null> {
    const known = this.subscriptions.get(userId);
    if (known) return { ...known };
    const user = await this.users.findById(userId);
    if (!user) return null;
    const created: Subscription = { userId, plan: this.defaultPlan, status: 'active', startedAt: user.createdAt };
    this.subscriptions.set(userId, created);
    return { ...created };
  }

  async change(userId: string, change: Pick<Subscription, 'plan' | 'status' | 'startedAt'>): Promise<Subscription | null> {
    if (!(await this.users.findById(userId))) return null;
    const next: Subscription = { userId, ...change };
    this.subscriptions.set(userId, next);
    return { ...next };
  }
}
