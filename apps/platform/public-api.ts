import type { Actor } from '../../core/shared/actor';
import type { PublicUser } from '../../core/users/domain/user';
import type { Session } from '../../core/auth/use-cases/issue-session';
import type { ExternalSession, ExternalUserInput, ExternalUserView } from '../../core/auth/use-cases/external-users.use-case';
import type { ApplicationView } from '../../core/applications/domain/application';
import type { ConversationView } from '../../core/conversations/domain/conversation';
import type { ChatAnswer, ChatStreamEvent, ConversationWithMessages, ProviderInfo } from '../../core/ai/ports/chat-engine.port';
import type { PlanView, UsageView } from '../../core/billing/domain/usage-view';
import type { PlanTier, SubscriptionStatus } from '../../core/billing/domain/plans';
import type { InvoicePage, PaidTier } from '../../core/billing/domain/payments';
import type { SubscriptionView } from '../../core/billing/use-cases/change-plan.use-case';
import type { SubscriptionDetails } from '../../core/billing/use-cases/get-subscription.use-case';
import type { Page } from '../../core/shared/pagination';
import type { KnowledgeDocumentView, EmbeddingProvider } from '../../core/knowledge/domain/knowledge-document';
import type { SearchResult } from '../../core/knowledge/use-cases/search-knowledge.use-case';
import type { SearchMode } from '../../core/knowledge/domain/hybrid-ranking';
import type { ModelConfigView } from '../../core/model-configs/domain/model-config';
import type { PromptTemplateView } from '../../core/prompts/domain/prompt-template';
import type { RenderedPrompt } from '../../core/prompts/use-cases/render-prompt.use-case';
import type { ProviderId } from '../../core/ai/domain/provider-id';
import type { ProviderKeyView, SavedProviderKeyView } from '../../core/provider-keys/domain/provider-key';
import type { KeyValidation } from '../../core/provider-keys/use-cases/validate-provider-key.use-case';
import type { ApiKeyView, CreatedApiKeyView } from '../../core/api-keys/domain/api-key';
import type { AuthenticatedKey } from '../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { PublicCaller } from '../../core/public-api/domain/public-caller';
import type { PublicAnswer, PublicApplicationView } from '../../core/public-api/domain/public-views';
import type { AnalyticsConversations, AnalyticsCosts, AnalyticsOverview, AnalyticsUsage } from '../../core/analytics/domain/analytics-views';

/*
 * The use cases as a library caller sees them: one calling convention for all of them. `execute` takes one
 * object: who calls (`actor`, a signed-in user; `caller`, an admitted API key, for the public API), the
 * resource acted on (`id`, where there is one), the operation's fields, and `signal` where a call can be
 * aborted. Every input type is closed, so a misspelled or unknown field is a compile error in the caller's
 * code; the use cases still check every value at run time, as the REST API checks request bodies.
 */

/** An operation of the platform: one object in, a promise of the answer out. */
export interface UseCase<Input, Output> {
  execute(input: Input): Promise<Output>;
}

/** An operation with nothing to ask but who calls. */
export interface AsActor {
  /** The signed-in user the operation acts for (`actorOf(session.user)`). */
  actor: Actor;
}

/** An operation on one resource of its area, named by its id. */
export interface OnResource extends AsActor {
  /** The id of the resource (application, conversation, document, model config, prompt template, API key). */
  id: string;
}

/** Which page of a list (1-based) and how many items per page. */
export interface PageQuery {
  page?: number;
  limit?: number;
}

/** A call that may be aborted (the provider request stops). */
export interface Abortable {
  signal?: AbortSignal;
}

// Accounts and sessions.
export interface RegisterInput {
  email: string;
  password: string;
  displayName: string;
}
export interface LoginInput {
  email: string;
  password: string;
}
export interface RefreshSessionInput {
  refresh_token: string;
}
export interface SignOutInput {
  refresh_token: string;
}
export interface AuthenticateInput {
  /** An access token a login, a registration or `externalUsers.session` answered. */
  accessToken: string;
}
export interface RequestPasswordResetInput {
  email: string;
  /** An application of the account whose e-mail branding the mail carries (ignored unless the account owns it). */
  applicationId?: string;
}
export interface ConfirmPasswordResetInput {
  /** The token the reset mail carried. */
  token: string;
  password: string;
}
export interface UpdateProfileInput extends AsActor {
  displayName?: string;
}
export interface DeleteAccountInput extends AsActor {
  /** The account's current password. */
  password: string;
}

export interface RegisterUseCase extends UseCase<RegisterInput, Session> {}
export interface LoginUseCase extends UseCase<LoginInput, Session> {}
export interface RefreshSessionUseCase extends UseCase<RefreshSessionInput, { access_token: string; refresh_token: string }> {}
export interface SignOutUseCase extends UseCase<SignOutInput, { signedOut: boolean }> {}
/** The caller an access token stands for; an `UnauthorizedError` when it is not valid. */
export interface AuthenticateUseCase extends UseCase<AuthenticateInput, Actor> {}
/** Mails a single-use reset token through the platform's `Mailer`; answers the same whether or not the account exists. */
export interface RequestPasswordResetUseCase extends UseCase<RequestPasswordResetInput, { message: string }> {}
/** Sets a new password with a reset token (once), and signs out every session of the account. */
export interface ConfirmPasswordResetUseCase extends UseCase<ConfirmPasswordResetInput, { success: true }> {}
export interface GetCurrentUserUseCase extends UseCase<AsActor, PublicUser> {}
export interface UpdateProfileUseCase extends UseCase<UpdateProfileInput, PublicUser> {}
export interface DeleteAccountUseCase extends UseCase<DeleteAccountInput, void> {}
export interface ResolveExternalUserUseCase extends UseCase<ExternalUserInput, ExternalUserView> {}
export interface IssueExternalSessionUseCase extends UseCase<ExternalUserInput, ExternalSession> {}

// Applications.
export interface CreateApplicationInput extends AsActor {
  name: string;
  description?: string;
  /** Platform-unique; derived from the name when absent. */
  slug?: string;
  /** Browser origins the widget and the public API accept requests from. */
  allowedOrigins?: string[];
  /** A team of the caller's to create it in (its Owner owns it). */
  teamId?: string;
}
export interface UpdateApplicationInput extends OnResource {
  name?: string;
  description?: string;
  slug?: string;
  allowedOrigins?: string[];
  hostedPage?: { enabled?: boolean };
  retrieval?: { mode?: SearchMode };
}
export interface ListApplicationsInput extends AsActor, PageQuery {
  teamId?: string;
}
export interface CreateApplicationUseCase extends UseCase<CreateApplicationInput, ApplicationView> {}
export interface GetApplicationUseCase extends UseCase<OnResource, ApplicationView> {}
export interface ListApplicationsUseCase extends UseCase<ListApplicationsInput, Page<ApplicationView>> {}
export interface UpdateApplicationUseCase extends UseCase<UpdateApplicationInput, ApplicationView> {}
export interface DeleteApplicationUseCase extends UseCase<OnResource, void> {}

// Conversations and chat turns.
export interface CreateConversationInput extends AsActor {
  applicationId: string;
  title?: string;
}
export interface ListConversationsInput extends AsActor, PageQuery {
  applicationId?: string;
  teamId?: string;
}
/** A user message in a conversation (`id`), with the model and settings of this turn where they differ from the application's. */
export interface SendMessageInput extends OnResource, Abortable {
  content: string;
  provider?: string;
  model?: string;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  system_prompt?: string;
}
export interface CreateConversationUseCase extends UseCase<CreateConversationInput, ConversationView> {}
export interface GetConversationUseCase extends UseCase<OnResource, ConversationWithMessages> {}
export interface ListConversationsUseCase extends UseCase<ListConversationsInput, Page<ConversationView>> {}
export interface ArchiveConversationUseCase extends UseCase<OnResource, void> {}
/** Runs a chat turn and answers the whole reply. */
export interface SendMessageUseCase extends UseCase<SendMessageInput, ChatAnswer> {}
/** Runs a chat turn and answers its events as they come (deltas, then the final message). */
export interface StreamMessageUseCase extends UseCase<SendMessageInput, AsyncIterable<ChatStreamEvent>> {}
export interface ListProvidersUseCase extends UseCase<AsActor, ProviderInfo[]> {}

// Plans and billing.
export interface SubscribeInput extends AsActor {
  plan: PaidTier;
}
export interface ChangePlanInput extends AsActor {
  /** The account whose plan changes (the actor must be an admin). */
  userId: string;
  plan: PlanTier;
  /** `active` unless given. */
  status?: SubscriptionStatus;
}
export interface ListInvoicesInput extends AsActor {
  limit?: number;
  /** The invoice id the previous page ended with (`nextCursor`). */
  startingAfter?: string;
}
/** The plans on offer (no caller needed). */
export interface ListPlansUseCase extends UseCase<Record<string, never> | void, PlanView[]> {}
export interface GetUsageUseCase extends UseCase<AsActor, UsageView> {}
export interface GetSubscriptionUseCase extends UseCase<AsActor, SubscriptionDetails> {}
/** Opens the payment gateway's checkout for a paid plan. */
export interface SubscribeUseCase extends UseCase<SubscribeInput, { url: string; sessionId: string }> {}
export interface ChangePlanUseCase extends UseCase<ChangePlanInput, SubscriptionView> {}
export interface OpenPortalUseCase extends UseCase<AsActor, { url: string }> {}
export interface ListInvoicesUseCase extends UseCase<ListInvoicesInput, InvoicePage> {}

// Knowledge.
export interface UploadDocumentInput extends AsActor {
  applicationId: string;
  /** The document: its file name (its type is checked by content) and bytes. */
  file: { name: string; bytes: Uint8Array };
  chunkSize?: number;
  chunkOverlap?: number;
  embeddingProvider?: EmbeddingProvider;
  embeddingModel?: string;
}
export interface ListDocumentsInput extends AsActor, PageQuery {
  applicationId?: string;
}
export interface SearchKnowledgeInput extends AsActor {
  applicationId: string;
  query: string;
  limit?: number;
  mode?: SearchMode;
  /** Exactly what the chat would get, under the application's retrieval settings (`limit` and `mode` are then refused). */
  asChat?: boolean;
}
export interface UploadDocumentUseCase extends UseCase<UploadDocumentInput, KnowledgeDocumentView> {}
export interface ListDocumentsUseCase extends UseCase<ListDocumentsInput, Page<KnowledgeDocumentView>> {}
export interface GetDocumentUseCase extends UseCase<OnResource, KnowledgeDocumentView> {}
export interface DeleteDocumentUseCase extends UseCase<OnResource, void> {}
export interface SearchKnowledgeUseCase extends UseCase<SearchKnowledgeInput, SearchResult[]> {}

// Model configs.
/** A model config's settings as given (each checked against the provider's and model's ranges). */
export interface ModelConfigSettingsInput {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  systemPrompt?: string;
}
export interface ModelConfigFields {
  name?: string;
  displayName?: string;
  provider?: string;
  modelId?: string;
  settings?: ModelConfigSettingsInput;
  isDefault?: boolean;
}
export interface CreateModelConfigInput extends AsActor, ModelConfigFields {
  applicationId: string;
}
export interface UpdateModelConfigInput extends OnResource, ModelConfigFields {
  applicationId?: string;
}
export interface ListByApplicationInput extends AsActor, PageQuery {
  applicationId?: string;
}
export interface CreateModelConfigUseCase extends UseCase<CreateModelConfigInput, ModelConfigView> {}
export interface ListModelConfigsUseCase extends UseCase<ListByApplicationInput, ModelConfigView[]> {}
export interface GetModelConfigUseCase extends UseCase<OnResource, ModelConfigView> {}
export interface UpdateModelConfigUseCase extends UseCase<UpdateModelConfigInput, ModelConfigView> {}
export interface DeleteModelConfigUseCase extends UseCase<OnResource, void> {}
export interface SetDefaultModelConfigUseCase extends UseCase<OnResource, ModelConfigView> {}

// Prompt templates.
export interface CreatePromptTemplateInput extends AsActor {
  applicationId: string;
  name: string;
  content: string;
  isDefault?: boolean;
}
export interface UpdatePromptTemplateInput extends OnResource {
  applicationId?: string;
  name?: string;
  content?: string;
  isDefault?: boolean;
}
export interface RenderPromptInput extends AsActor {
  /** A stored template to render, or `content` to render as given. */
  templateId?: string;
  content?: string;
  variables?: Record<string, unknown>;
}
export interface CreatePromptTemplateUseCase extends UseCase<CreatePromptTemplateInput, PromptTemplateView> {}
export interface ListPromptTemplatesUseCase extends UseCase<ListByApplicationInput, PromptTemplateView[]> {}
export interface GetPromptTemplateUseCase extends UseCase<OnResource, PromptTemplateView> {}
export interface UpdatePromptTemplateUseCase extends UseCase<UpdatePromptTemplateInput, PromptTemplateView> {}
export interface DeletePromptTemplateUseCase extends UseCase<OnResource, void> {}
export interface RenderPromptUseCase extends UseCase<RenderPromptInput, RenderedPrompt> {}

// The users' own provider keys.
export interface ProviderKeyInput extends AsActor {
  provider: ProviderId;
}
export interface SaveProviderKeyInput extends ProviderKeyInput {
  apiKey: string;
}
export interface SaveProviderKeyUseCase extends UseCase<SaveProviderKeyInput, SavedProviderKeyView> {}
export interface ListProviderKeysUseCase extends UseCase<AsActor, ProviderKeyView[]> {}
export interface DeleteProviderKeyUseCase extends UseCase<ProviderKeyInput, void> {}
/** Asks the provider whether the stored key works. */
export interface ValidateProviderKeyUseCase extends UseCase<ProviderKeyInput & Abortable, KeyValidation> {}

// API keys and the public API.
export interface CreateApiKeyInput extends AsActor {
  name?: string;
  /** The application the key is scoped to; every application of the owner when absent or null. */
  applicationId?: string | null;
  /** Requests per minute. */
  rateLimit?: number;
}
export interface ListApiKeysInput extends AsActor, PageQuery {
  teamId?: string;
}
export interface AuthenticateApiKeyInput {
  /** The key as a client presents it. */
  key: string;
}
export interface CreateApiKeyUseCase extends UseCase<CreateApiKeyInput, CreatedApiKeyView> {}
export interface ListApiKeysUseCase extends UseCase<ListApiKeysInput, ApiKeyView[]> {}
export interface RevokeApiKeyUseCase extends UseCase<OnResource, ApiKeyView> {}
export interface DeleteApiKeyUseCase extends UseCase<OnResource, void> {}
/** The key a client presented, admitted (its caller for the public API is `{ key: answer.key, source: 'api' }`). */
export interface AuthenticateApiKeyUseCase extends UseCase<AuthenticateApiKeyInput, AuthenticatedKey> {}

export interface AsPublicCaller {
  /** The admitted API key calling the public API, and where the request comes from. */
  caller: PublicCaller;
}
export interface GetPublicApplicationInput extends AsPublicCaller {
  applicationId?: string;
}
export interface SendPublicMessageInput extends AsPublicCaller, Abortable {
  applicationId: string;
  message: string;
  /** A conversation this key started; a new one when absent. */
  conversationId?: string;
}
export interface GetPublicApplicationUseCase extends UseCase<GetPublicApplicationInput, PublicApplicationView> {}
export interface SendPublicMessageUseCase extends UseCase<SendPublicMessageInput, PublicAnswer> {}
export interface StreamPublicMessageUseCase extends UseCase<SendPublicMessageInput, { conversationId: string; events: AsyncIterable<ChatStreamEvent> }> {}

// Analytics.
export interface AnalyticsInput extends AsActor {
  /** Only the applications of this team (with no `applicationId`). */
  teamId?: string;
  /** One application of the caller's; all of them when absent. */
  applicationId?: string;
  /** The first UTC day (YYYY-MM-DD); 30 days before `to` when absent. */
  from?: string;
  /** The last UTC day (YYYY-MM-DD); today when absent. */
  to?: string;
}
export interface AnalyticsOverviewUseCase extends UseCase<AnalyticsInput, AnalyticsOverview> {}
export interface AnalyticsUsageUseCase extends UseCase<AnalyticsInput, AnalyticsUsage> {}
export interface AnalyticsConversationsUseCase extends UseCase<AnalyticsInput, AnalyticsConversations> {}
export interface AnalyticsCostsUseCase extends UseCase<AnalyticsInput, AnalyticsCosts> {}

/**
 * The use cases both platforms have (`createInMemoryPlatform` and `createPlatform`): accounts, applications,
 * conversations with chat turns, plans and the usage they count, the program's own users. Code written
 * against these runs on either.
 */
export interface PlatformCore {
  auth: { register: RegisterUseCase; login: LoginUseCase; refresh: RefreshSessionUseCase; signOut: SignOutUseCase };
  users: { me: GetCurrentUserUseCase };
  applications: { create: CreateApplicationUseCase; get: GetApplicationUseCase; list: ListApplicationsUseCase; update: UpdateApplicationUseCase; delete: DeleteApplicationUseCase };
  conversations: { create: CreateConversationUseCase; get: GetConversationUseCase; send: SendMessageUseCase; stream: StreamMessageUseCase };
  billing: { plans: ListPlansUseCase; usage: GetUsageUseCase };
  /** The embedding program's own users: each external id mapped to one platform account, and sessions for them. */
  externalUsers: { resolve: ResolveExternalUserUseCase; session: IssueExternalSessionUseCase };
}

/** The use cases of the core composed with its real adapters, grouped by area. */
export interface PlatformUseCases extends PlatformCore {
  auth: PlatformCore['auth'] & { authenticate: AuthenticateUseCase; requestPasswordReset: RequestPasswordResetUseCase; confirmPasswordReset: ConfirmPasswordResetUseCase };
  users: PlatformCore['users'] & { updateProfile: UpdateProfileUseCase; deleteAccount: DeleteAccountUseCase };
  conversations: PlatformCore['conversations'] & { list: ListConversationsUseCase; archive: ArchiveConversationUseCase; providers: ListProvidersUseCase };
  billing: PlatformCore['billing'] & {
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
  analytics: { overview: AnalyticsOverviewUseCase; usage: AnalyticsUsageUseCase; conversations: AnalyticsConversationsUseCase; costs: AnalyticsCostsUseCase };
}
