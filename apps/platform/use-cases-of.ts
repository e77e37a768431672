import type { Container } from 'inversify';
import { ListApiKeysUseCase } from '../../core/api-keys/use-cases/list-api-keys.use-case';
import { CreateApiKeyUseCase } from '../../core/api-keys/use-cases/create-api-key.use-case';
import { RevokeApiKeyUseCase } from '../../core/api-keys/use-cases/revoke-api-key.use-case';
import { DeleteApiKeyUseCase } from '../../core/api-keys/use-cases/delete-api-key.use-case';
import { AuthenticateApiKeyUseCase } from '../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { GetAnalyticsUseCase } from '../../core/analytics/use-cases/get-analytics.use-case';
import { CreateApplicationUseCase } from '../../core/applications/use-cases/create-application.use-case';
import { DeleteApplicationUseCase } from '../../core/applications/use-cases/delete-application.use-case';
import { GetApplicationUseCase } from '../../core/applications/use-cases/get-application.use-case';
import { ListApplicationsUseCase } from '../../core/applications/use-cases/list-applications.use-case';
import { UpdateApplicationUseCase } from '../../core/applications/use-cases/update-application.use-case';
import { AuthenticateUseCase } from '../../core/auth/use-cases/authenticate.use-case';
import { LoginUseCase } from '../../core/auth/use-cases/login.use-case';
import { RefreshSessionUseCase } from '../../core/auth/use-cases/refresh-session.use-case';
import { RegisterUseCase } from '../../core/auth/use-cases/register.use-case';
import { RequestPasswordResetUseCase } from '../../core/auth/use-cases/request-password-reset.use-case';
import { ConfirmPasswordResetUseCase } from '../../core/auth/use-cases/confirm-password-reset.use-case';
import { SignOutUseCase } from '../../core/auth/use-cases/sign-out.use-case';
import { ChangePlanUseCase } from '../../core/billing/use-cases/change-plan.use-case';
import { GetSubscriptionUseCase } from '../../core/billing/use-cases/get-subscription.use-case';
import { GetUsageUseCase } from '../../core/billing/use-cases/get-usage.use-case';
import { ListInvoicesUseCase } from '../../core/billing/use-cases/list-invoices.use-case';
import { ListPlansUseCase } from '../../core/billing/use-cases/list-plans.use-case';
import { OpenPortalUseCase } from '../../core/billing/use-cases/open-portal.use-case';
import { SubscribeUseCase } from '../../core/billing/use-cases/subscribe.use-case';
import { ArchiveConversationUseCase } from '../../core/conversations/use-cases/archive-conversation.use-case';
import { CreateConversationUseCase } from '../../core/conversations/use-cases/create-conversation.use-case';
import { GetConversationUseCase } from '../../core/conversations/use-cases/get-conversation.use-case';
import { ListConversationsUseCase } from '../../core/conversations/use-cases/list-conversations.use-case';
import { ListProvidersUseCase } from '../../core/conversations/use-cases/list-providers.use-case';
import { SendMessageUseCase } from '../../core/conversations/use-cases/send-message.use-case';
import { StreamMessageUseCase } from '../../core/conversations/use-cases/stream-message.use-case';
import { DeleteDocumentUseCase } from '../../core/knowledge/use-cases/delete-document.use-case';
import { GetDocumentUseCase } from '../../core/knowledge/use-cases/get-document.use-case';
import { ListDocumentsUseCase } from '../../core/knowledge/use-cases/list-documents.use-case';
import { SearchKnowledgeUseCase } from '../../core/knowledge/use-cases/search-knowledge.use-case';
import { UploadDocumentUseCase } from '../../core/knowledge/use-cases/upload-document.use-case';
import { CreateModelConfigUseCase } from '../../core/model-configs/use-cases/create-model-config.use-case';
import { DeleteModelConfigUseCase } from '../../core/model-configs/use-cases/delete-model-config.use-case';
import { GetModelConfigUseCase } from '../../core/model-configs/use-cases/get-model-config.use-case';
import { ListModelConfigsUseCase } from '../../core/model-configs/use-cases/list-model-configs.use-case';
import { SetDefaultModelConfigUseCase } from '../../core/model-configs/use-cases/set-default-model-config.use-case';
import { UpdateModelConfigUseCase } from '../../core/model-configs/use-cases/update-model-config.use-case';
import { CreatePromptTemplateUseCase } from '../../core/prompts/use-cases/create-prompt-template.use-case';
import { DeletePromptTemplateUseCase } from '../../core/prompts/use-cases/delete-prompt-template.use-case';
import { GetPromptTemplateUseCase } from '../../core/prompts/use-cases/get-prompt-template.use-case';
import { ListPromptTemplatesUseCase } from '../../core/prompts/use-cases/list-prompt-templates.use-case';
import { RenderPromptUseCase } from '../../core/prompts/use-cases/render-prompt.use-case';
import { UpdatePromptTemplateUseCase } from '../../core/prompts/use-cases/update-prompt-template.use-case';
import { DeleteProviderKeyUseCase } from '../../core/provider-keys/use-cases/delete-provider-key.use-case';
import { ListProviderKeysUseCase } from '../../core/provider-keys/use-cases/list-provider-keys.use-case';
import { SaveProviderKeyUseCase } from '../../core/provider-keys/use-cases/save-provider-key.use-case';
import { ValidateProviderKeyUseCase } from '../../core/provider-keys/use-cases/validate-provider-key.use-case';
import { SendPublicMessageUseCase } from '../../core/public-api/use-cases/send-public-message.use-case';
import { StreamPublicMessageUseCase } from '../../core/public-api/use-cases/stream-public-message.use-case';
import { GetPublicApplicationUseCase } from '../../core/public-api/use-cases/get-public-application.use-case';
import { GetCurrentUserUseCase } from '../../core/users/use-cases/get-current-user.use-case';
import { UpdateProfileUseCase } from '../../core/users/use-cases/update-profile.use-case';
import { DeleteAccountUseCase } from '../../core/users/use-cases/delete-account.use-case';
import { IssueExternalSessionUseCase, ResolveExternalUserUseCase } from '../../core/auth/use-cases/external-users.use-case';
import { resolve, TOKENS, type Key } from '../shared/tokens';
import { TypeOrmExternalUserRepository } from '../../adapters/persistence/auth/type-orm-external-user.repository';
import type { UseCaseClasses, UseCaseGuard } from './use-cases';

/*
 * The use cases of a composed platform, read from its core API container. Kept apart from `use-cases.ts` (the
 * types and the closed guard the in-memory platform uses too): the container's keys are the use-case classes of
 * every area, loaded only with the composition (`composition.ts`).
 */

type Group = Record<string, Key<unknown>>;

const unguarded: UseCaseGuard = (useCase) => useCase;

/** A group whose members are read from the container when first used (the container builds each once). */
function lazyGroup<T extends object>(container: Container, keys: Group, area: string, guard: UseCaseGuard): T {
  const group = {} as Record<string, unknown>;
  for (const [name, key] of Object.entries(keys)) {
    let wrapped: object | undefined;
    Object.defineProperty(group, name, { enumerable: true, get: () => (wrapped ??= guard(resolve(container, key) as object, `${area}.${name}`)) });
  }
  return Object.freeze(group) as T;
}

/** The external-user use cases over the container's accounts, sessions and database, built on first use. */
function externalUsersOf(container: Container, guard: UseCaseGuard): UseCaseClasses['externalUsers'] {
  let built: UseCaseClasses['externalUsers'] | undefined;
  const build = () => {
    if (built) return built;
    const deps = {
      users: resolve(container, TOKENS.UserRepository),
      externalUsers: new TypeOrmExternalUserRepository(resolve(container, TOKENS.DataSource)),
      clock: resolve(container, TOKENS.Clock),
      adminEmails: resolve(container, TOKENS.Config).adminEmails,
      refreshTokens: resolve(container, TOKENS.RefreshTokenRepository),
      tokens: resolve(container, TOKENS.TokenService),
    };
    const resolveUser = new ResolveExternalUserUseCase(deps);
    built = {
      resolve: guard(resolveUser, 'externalUsers.resolve'),
      session: guard(new IssueExternalSessionUseCase({ ...deps, resolve: resolveUser }), 'externalUsers.session'),
    };
    return built;
  };
  const group = {} as UseCaseClasses['externalUsers'];
  Object.defineProperty(group, 'resolve', { enumerable: true, get: () => build().resolve });
  Object.defineProperty(group, 'session', { enumerable: true, get: () => build().session });
  return Object.freeze(group);
}

/** The core API container's use cases, by area. */
export function useCasesOf(container: Container, guard: UseCaseGuard = unguarded): UseCaseClasses {
  const g = <T extends object>(area: string, keys: Group) => lazyGroup<T>(container, keys, area, guard);
  return {
    auth: g('auth', { register: RegisterUseCase, login: LoginUseCase, refresh: RefreshSessionUseCase, signOut: SignOutUseCase, authenticate: AuthenticateUseCase, requestPasswordReset: RequestPasswordResetUseCase, confirmPasswordReset: ConfirmPasswordResetUseCase }),
    users: g('users', { me: GetCurrentUserUseCase, updateProfile: UpdateProfileUseCase, deleteAccount: DeleteAccountUseCase }),
    applications: g('applications', { create: CreateApplicationUseCase, get: GetApplicationUseCase, list: ListApplicationsUseCase, update: UpdateApplicationUseCase, delete: DeleteApplicationUseCase }),
    conversations: g('conversations', {
      create: CreateConversationUseCase,
      get: GetConversationUseCase,
      list: ListConversationsUseCase,
      archive: ArchiveConversationUseCase,
      send: SendMessageUseCase,
      stream: StreamMessageUseCase,
      providers: ListProvidersUseCase,
    }),
    billing: g('billing', {
      plans: ListPlansUseCase,
      usage: GetUsageUseCase,
      subscription: GetSubscriptionUseCase,
      subscribe: SubscribeUseCase,
      changePlan: ChangePlanUseCase,
      portal: OpenPortalUseCase,
      invoices: ListInvoicesUseCase,
    }),
    knowledge: g('knowledge', { upload: UploadDocumentUseCase, list: ListDocumentsUseCase, get: GetDocumentUseCase, delete: DeleteDocumentUseCase, search: SearchKnowledgeUseCase }),
    modelConfigs: g('modelConfigs', {
      create: CreateModelConfigUseCase,
      list: ListModelConfigsUseCase,
      get: GetModelConfigUseCase,
      update: UpdateModelConfigUseCase,
      delete: DeleteModelConfigUseCase,
      setDefault: SetDefaultModelConfigUseCase,
    }),
    prompts: g('prompts', {
      create: CreatePromptTemplateUseCase,
      list: ListPromptTemplatesUseCase,
      get: GetPromptTemplateUseCase,
      update: UpdatePromptTemplateUseCase,
      delete: DeletePromptTemplateUseCase,
      render: RenderPromptUseCase,
    }),
    providerKeys: g('providerKeys', { save: SaveProviderKeyUseCase, list: ListProviderKeysUseCase, delete: DeleteProviderKeyUseCase, validate: ValidateProviderKeyUseCase }),
    apiKeys: g('apiKeys', { create: CreateApiKeyUseCase, list: ListApiKeysUseCase, revoke: RevokeApiKeyUseCase, delete: DeleteApiKeyUseCase, authenticate: AuthenticateApiKeyUseCase }),
    publicApi: g('publicApi', { application: GetPublicApplicationUseCase, send: SendPublicMessageUseCase, stream: StreamPublicMessageUseCase }),
    analytics: g('analytics', { get: GetAnalyticsUseCase }),
    externalUsers: externalUsersOf(container, guard),
  };
}
