import type { ListApiKeysUseCase } from '../../core/api-keys/use-cases/list-api-keys.use-case';
import type { CreateApiKeyUseCase } from '../../core/api-keys/use-cases/create-api-key.use-case';
import type { RevokeApiKeyUseCase } from '../../core/api-keys/use-cases/revoke-api-key.use-case';
import type { DeleteApiKeyUseCase } from '../../core/api-keys/use-cases/delete-api-key.use-case';
import type { AuthenticateApiKeyUseCase } from '../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { GetAnalyticsUseCase } from '../../core/analytics/use-cases/get-analytics.use-case';
import type { CreateApplicationUseCase } from '../../core/applications/use-cases/create-application.use-case';
import type { DeleteApplicationUseCase } from '../../core/applications/use-cases/delete-application.use-case';
import type { GetApplicationUseCase } from '../../core/applications/use-cases/get-application.use-case';
import type { ListApplicationsUseCase } from '../../core/applications/use-cases/list-applications.use-case';
import type { UpdateApplicationUseCase } from '../../core/applications/use-cases/update-application.use-case';
import type { AuthenticateUseCase } from '../../core/auth/use-cases/authenticate.use-case';
import type { LoginUseCase } from '../../core/auth/use-cases/login.use-case';
import type { RefreshSessionUseCase } from '../../core/auth/use-cases/refresh-session.use-case';
import type { RegisterUseCase } from '../../core/auth/use-cases/register.use-case';
import type { RequestPasswordResetUseCase } from '../../core/auth/use-cases/request-password-reset.use-case';
import type { ConfirmPasswordResetUseCase } from '../../core/auth/use-cases/confirm-password-reset.use-case';
import type { SignOutUseCase } from '../../core/auth/use-cases/sign-out.use-case';
import type { ChangePlanUseCase } from '../../core/billing/use-cases/change-plan.use-case';
import type { GetSubscriptionUseCase } from '../../core/billing/use-cases/get-subscription.use-case';
import type { GetUsageUseCase } from '../../core/billing/use-cases/get-usage.use-case';
import type { ListInvoicesUseCase } from '../../core/billing/use-cases/list-invoices.use-case';
import type { ListPlansUseCase } from '../../core/billing/use-cases/list-plans.use-case';
import type { OpenPortalUseCase } from '../../core/billing/use-cases/open-portal.use-case';
import type { SubscribeUseCase } from '../../core/billing/use-cases/subscribe.use-case';
import type { ArchiveConversationUseCase } from '../../core/conversations/use-cases/archive-conversation.use-case';
import type { CreateConversationUseCase } from '../../core/conversations/use-cases/create-conversation.use-case';
import type { GetConversationUseCase } from '../../core/conversations/use-cases/get-conversation.use-case';
import type { ListConversationsUseCase } from '../../core/conversations/use-cases/list-conversations.use-case';
import type { ListProvidersUseCase } from '../../core/conversations/use-cases/list-providers.use-case';
import type { SendMessageUseCase } from '../../core/conversations/use-cases/send-message.use-case';
import type { StreamMessageUseCase } from '../../core/conversations/use-cases/stream-message.use-case';
import type { DeleteDocumentUseCase } from '../../core/knowledge/use-cases/delete-document.use-case';
import type { GetDocumentUseCase } from '../../core/knowledge/use-cases/get-document.use-case';
import type { ListDocumentsUseCase } from '../../core/knowledge/use-cases/list-documents.use-case';
import type { SearchKnowledgeUseCase } from '../../core/knowledge/use-cases/search-knowledge.use-case';
import type { UploadDocumentUseCase } from '../../core/knowledge/use-cases/upload-document.use-case';
import type { CreateModelConfigUseCase } from '../../core/model-configs/use-cases/create-model-config.use-case';
import type { DeleteModelConfigUseCase } from '../../core/model-configs/use-cases/delete-model-config.use-case';
import type { GetModelConfigUseCase } from '../../core/model-configs/use-cases/get-model-config.use-case';
import type { ListModelConfigsUseCase } from '../../core/model-configs/use-cases/list-model-configs.use-case';
import type { SetDefaultModelConfigUseCase } from '../../core/model-configs/use-cases/set-default-model-config.use-case';
import type { UpdateModelConfigUseCase } from '../../core/model-configs/use-cases/update-model-config.use-case';
import type { CreatePromptTemplateUseCase } from '../../core/prompts/use-cases/create-prompt-template.use-case';
import type { DeletePromptTemplateUseCase } from '../../core/prompts/use-cases/delete-prompt-template.use-case';
import type { GetPromptTemplateUseCase } from '../../core/prompts/use-cases/get-prompt-template.use-case';
import type { ListPromptTemplatesUseCase } from '../../core/prompts/use-cases/list-prompt-templates.use-case';
import type { RenderPromptUseCase } from '../../core/prompts/use-cases/render-prompt.use-case';
import type { UpdatePromptTemplateUseCase } from '../../core/prompts/use-cases/update-prompt-template.use-case';
import type { DeleteProviderKeyUseCase } from '../../core/provider-keys/use-cases/delete-provider-key.use-case';
import type { ListProviderKeysUseCase } from '../../core/provider-keys/use-cases/list-provider-keys.use-case';
import type { SaveProviderKeyUseCase } from '../../core/provider-keys/use-cases/save-provider-key.use-case';
import type { ValidateProviderKeyUseCase } from '../../core/provider-keys/use-cases/validate-provider-key.use-case';
import type { SendPublicMessageUseCase } from '../../core/public-api/use-cases/send-public-message.use-case';
import type { StreamPublicMessageUseCase } from '../../core/public-api/use-cases/stream-public-message.use-case';
import type { GetPublicApplicationUseCase } from '../../core/public-api/use-cases/get-public-application.use-case';
import type { GetCurrentUserUseCase } from '../../core/users/use-cases/get-current-user.use-case';
import type { UpdateProfileUseCase } from '../../core/users/use-cases/update-profile.use-case';
import type { DeleteAccountUseCase } from '../../core/users/use-cases/delete-account.use-case';
import type { IssueExternalSessionUseCase, ResolveExternalUserUseCase } from '../../core/auth/use-cases/external-users.use-case';
import { PlatformClosedError } from '../../core/shared/platform-errors';

/**
 * The core's use-case classes a platform composes, the in-memory one included (internal: what a library caller
 * gets is the facade over them, `facade.ts`, typed by `public-api.ts`).
 */
export interface CoreUseCaseClasses {
  auth: { register: RegisterUseCase; login: LoginUseCase; refresh: RefreshSessionUseCase; signOut: SignOutUseCase };
  users: { me: GetCurrentUserUseCase };
  applications: { create: CreateApplicationUseCase; get: GetApplicationUseCase; list: ListApplicationsUseCase; update: UpdateApplicationUseCase; delete: DeleteApplicationUseCase };
  conversations: { create: CreateConversationUseCase; get: GetConversationUseCase; send: SendMessageUseCase; stream: StreamMessageUseCase };
  billing: { plans: ListPlansUseCase; usage: GetUsageUseCase };
  /** The embedding program's own users: each external id mapped to one platform account, and sessions for them. */
  externalUsers: { resolve: ResolveExternalUserUseCase; session: IssueExternalSessionUseCase };
}

/** The use-case classes of the core composed with its real adapters, grouped by area (internal). */
export interface UseCaseClasses extends CoreUseCaseClasses {
  auth: CoreUseCaseClasses['auth'] & { authenticate: AuthenticateUseCase; requestPasswordReset: RequestPasswordResetUseCase; confirmPasswordReset: ConfirmPasswordResetUseCase };
  users: CoreUseCaseClasses['users'] & { updateProfile: UpdateProfileUseCase; deleteAccount: DeleteAccountUseCase };
  conversations: CoreUseCaseClasses['conversations'] & { list: ListConversationsUseCase; archive: ArchiveConversationUseCase; providers: ListProvidersUseCase };
  billing: CoreUseCaseClasses['billing'] & {
    subscription: GetSubscriptionUseCase;
    subscribe: SubscribeUseCase;
    changePlan: ChangePlanUseCase;
    portal: OpenPortalUseCase;
    invoices: ListInvoicesUseCase;
  };
  knowledge: { upload: UploadDocumentUseCase; list: ListDocumentsUseCase; get: GetDocumentUseCase; delete: DeleteDocumentUseCase; search: SearchKnowledgeUseCase };
  modelConfigs: {
    create: CreateModelConfigUseCase;
    list: ListModelConfigsUseCase;
    get: GetModelConfigUseCase;
    update: UpdateModelConfigUseCase;
    delete: DeleteModelConfigUseCase;
    setDefault: SetDefaultModelConfigUseCase;
  };
  prompts: {
    create: CreatePromptTemplateUseCase;
    list: ListPromptTemplatesUseCase;
    get: GetPromptTemplateUseCase;
    update: UpdatePromptTemplateUseCase;
    delete: DeletePromptTemplateUseCase;
    render: RenderPromptUseCase;
  };
  providerKeys: { save: SaveProviderKeyUseCase; list: ListProviderKeysUseCase; delete: DeleteProviderKeyUseCase; validate: ValidateProviderKeyUseCase };
  apiKeys: { create: CreateApiKeyUseCase; list: ListApiKeysUseCase; revoke: RevokeApiKeyUseCase; delete: DeleteApiKeyUseCase; authenticate: AuthenticateApiKeyUseCase };
  publicApi: { application: GetPublicApplicationUseCase; send: SendPublicMessageUseCase; stream: StreamPublicMessageUseCase };
  analytics: { get: GetAnalyticsUseCase };
}

/** Wraps a use case so its methods refuse to run once the platform is closed. */
export type UseCaseGuard = <T extends object>(useCase: T, name: string) => T;

/** A guard throwing `PlatformClosedError` from every method of a use case once `isClosed()` answers true. */
export function closedGuard(isClosed: () => boolean): UseCaseGuard {
  return <T extends object>(useCase: T, name: string): T =>
    new Proxy(useCase, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const kind = (value as { constructor: { name: string } }).constructor.name;
        return function guarded(this: unknown, ...args: unknown[]) {
          if (isClosed()) {
            const error = new PlatformClosedError(`${name}.${String(prop)}()`);
            // Failing the way the method fails: a rejected promise, a stream that throws, or a throw.
            if (kind === 'AsyncFunction') return Promise.reject(error);
            if (kind === 'AsyncGeneratorFunction') return (async function* refused() { throw error; })();
            throw error;
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}
