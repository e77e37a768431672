/**
 * The platform as a library: the core composed in another Node program.
 *
 * Two ways in: `createPlatform` (the real adapters: PostgreSQL or embedded PGlite, Redis when configured,
 * the providers' SDKs, Stripe), and `createInMemoryPlatform` (in-memory adapters and a scripted model
 * provider, for tests). What this file exports is the public surface: the use cases by area with their
 * input and output types, the ports an embedding program may bring an adapter for, and the error types.
 * Everything else in the package is internal and may change in any release (docs/library.md).
 *
 * @packageDocumentation
 */

// First: stops a program on an older Node.js with one line before any module loads a native addon.
import './runtime-check';
import type { PublicUser } from '../../core/users/domain/user';
import type { Actor } from '../../core/shared/actor';

// Composition.
export { createPlatform } from './platform';
export type { Platform, PlatformOptions, PlatformService, PlanDefinition } from './platform';
export type { MountOptions } from './mount';
export { createInMemoryPlatform } from './in-memory-platform';
export type { InMemoryPlatform, InMemoryPlatformOptions } from './in-memory-platform';
export { platformConfig } from './settings';
export type { PlatformConfig, PlatformConfigView, PlatformSettings, PlatformSettingName } from './settings';
export type { PlatformAdapters } from './adapters';
export type { PlatformCore, PlatformUseCases } from './use-cases';
export { ScriptedModelProvider } from '../../adapters/providers/scripted-model-provider';
export type { ScriptedAnswer } from '../../adapters/providers/scripted-model-provider';
export { PLATFORM_VERSION } from '../shared/version';

// Errors: every use case throws these (the HTTP shell maps them to statuses).
export { ConfigError } from '../shared/config';
export {
  AppError,
  ValidationError,
  UnauthorizedError,
  PaymentRequiredError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitedError,
  UpstreamError,
  UpstreamTimeoutError,
  UnavailableError,
  isAppError,
} from '../../core/shared/errors';
export type { ErrorDetail, ErrorKind } from '../../core/shared/errors';
export { HTTP_STATUS_BY_ERROR_KIND, httpStatusOf } from '../../core/shared/error-status';

// Failures of the platform itself (configuration, start-up, lifecycle), not answers to a caller's input.
export { PlatformError, PlatformClosedError } from '../../core/shared/platform-errors';
export type { PlatformFailure } from '../../core/shared/platform-errors';
export { DataDirLockedError } from '../../adapters/persistence/pglite/data-dir-lock';
export type { LockHolder } from '../../adapters/persistence/pglite/data-dir-lock';
export { ListenError, RedisUnreachableError } from '../shared/startup-failure';

// Ports an embedding program may bring an adapter for (`PlatformAdapters`), and what they exchange.
export type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
export type { Mailer, MailMessage } from '../../core/auth/ports/mailer.port';
export type { Clock } from '../../core/shared/clock.port';
export type {
  LlmProvider,
  LlmProviderRegistry,
  ChatRequest,
  ChatResult,
  ChatTurn,
  StreamPart,
  TokenUsage,
  ModelSettings,
  ToolCall,
  ToolSpec,
  ToolChoiceSpec,
} from '../../core/ai/ports/llm-provider.port';
export type { AnsweringProvider, ConnectionName, ProviderId } from '../../core/ai/domain/provider-id';
export type { PaidTier, HostedSession, InvoiceSummary, InvoicePage, PaymentEvent } from '../../core/billing/domain/payments';
export type { ChatPolicy, ChatPlan, ChatOutcome, ChatTurn as ChatPolicyTurn } from '../../core/conversations/ports/chat-policy.port';
export type { SpanHandle, SpanAttributes, SpanKind, TurnTrace } from '../../core/traces/domain/turn-trace';
export type { SpanAttributeValue, SpanView, TraceView, TraceReader } from '../../core/traces/domain/trace-view';
export type { PublicCaller } from '../../core/public-api/domain/public-caller';
export type { ExternalUserRepository } from '../../core/auth/ports/external-user-repository.port';

// Who calls a use case, and the shapes the use cases answer.
export type { Actor, PlatformRole } from '../../core/shared/actor';
export type { PublicUser } from '../../core/users/domain/user';
export type { Session } from '../../core/auth/use-cases/issue-session';
export type { ExternalUserInput, ExternalUserView, ExternalSession, ResolveExternalUserUseCase, IssueExternalSessionUseCase } from '../../core/auth/use-cases/external-users.use-case';
export type { ApplicationView } from '../../core/applications/domain/application';
export type { ConversationView, MessageView, MessageSource, ConversationStatus, MessageStatus, MessageRole } from '../../core/conversations/domain/conversation';
export type { ChatAnswer, ChatStreamEvent, ConversationWithMessages, ProviderInfo } from '../../core/ai/ports/chat-engine.port';
export type { PlanView, UsageView } from '../../core/billing/domain/usage-view';
export type { Plan, PlanTier, PlanLimits, SubscriptionStatus } from '../../core/billing/domain/plans';
export type { Page } from '../../core/shared/pagination';

// The use cases (constructed by the platform; their `execute` is the API).
export type { RegisterUseCase } from '../../core/auth/use-cases/register.use-case';
export type { LoginUseCase } from '../../core/auth/use-cases/login.use-case';
export type { RefreshSessionUseCase } from '../../core/auth/use-cases/refresh-session.use-case';
export type { SignOutUseCase } from '../../core/auth/use-cases/sign-out.use-case';
export type { AuthenticateUseCase } from '../../core/auth/use-cases/authenticate.use-case';
export type { GetCurrentUserUseCase } from '../../core/users/use-cases/get-current-user.use-case';
export type { UpdateProfileUseCase } from '../../core/users/use-cases/update-profile.use-case';
export type { DeleteAccountUseCase } from '../../core/users/use-cases/delete-account.use-case';
export type { CreateApplicationUseCase } from '../../core/applications/use-cases/create-application.use-case';
export type { GetApplicationUseCase } from '../../core/applications/use-cases/get-application.use-case';
export type { ListApplicationsUseCase } from '../../core/applications/use-cases/list-applications.use-case';
export type { UpdateApplicationUseCase } from '../../core/applications/use-cases/update-application.use-case';
export type { DeleteApplicationUseCase } from '../../core/applications/use-cases/delete-application.use-case';
export type { CreateConversationUseCase } from '../../core/conversations/use-cases/create-conversation.use-case';
export type { GetConversationUseCase } from '../../core/conversations/use-cases/get-conversation.use-case';
export type { ListConversationsUseCase } from '../../core/conversations/use-cases/list-conversations.use-case';
export type { ArchiveConversationUseCase } from '../../core/conversations/use-cases/archive-conversation.use-case';
export type { SendMessageUseCase } from '../../core/conversations/use-cases/send-message.use-case';
export type { StreamMessageUseCase } from '../../core/conversations/use-cases/stream-message.use-case';
export type { ListProvidersUseCase } from '../../core/conversations/use-cases/list-providers.use-case';
export type { ListPlansUseCase } from '../../core/billing/use-cases/list-plans.use-case';
export type { GetUsageUseCase } from '../../core/billing/use-cases/get-usage.use-case';
export type { GetSubscriptionUseCase } from '../../core/billing/use-cases/get-subscription.use-case';
export type { SubscribeUseCase } from '../../core/billing/use-cases/subscribe.use-case';
export type { ChangePlanUseCase } from '../../core/billing/use-cases/change-plan.use-case';
export type { OpenPortalUseCase } from '../../core/billing/use-cases/open-portal.use-case';
export type { ListInvoicesUseCase } from '../../core/billing/use-cases/list-invoices.use-case';
export type { UploadDocumentUseCase } from '../../core/knowledge/use-cases/upload-document.use-case';
export type { ListDocumentsUseCase } from '../../core/knowledge/use-cases/list-documents.use-case';
export type { GetDocumentUseCase } from '../../core/knowledge/use-cases/get-document.use-case';
export type { DeleteDocumentUseCase } from '../../core/knowledge/use-cases/delete-document.use-case';
export type { SearchKnowledgeUseCase } from '../../core/knowledge/use-cases/search-knowledge.use-case';
export type { CreateModelConfigUseCase } from '../../core/model-configs/use-cases/create-model-config.use-case';
export type { ListModelConfigsUseCase } from '../../core/model-configs/use-cases/list-model-configs.use-case';
export type { GetModelConfigUseCase } from '../../core/model-configs/use-cases/get-model-config.use-case';
export type { UpdateModelConfigUseCase } from '../../core/model-configs/use-cases/update-model-config.use-case';
export type { DeleteModelConfigUseCase } from '../../core/model-configs/use-cases/delete-model-config.use-case';
export type { SetDefaultModelConfigUseCase } from '../../core/model-configs/use-cases/set-default-model-config.use-case';
export type { CreatePromptTemplateUseCase } from '../../core/prompts/use-cases/create-prompt-template.use-case';
export type { ListPromptTemplatesUseCase } from '../../core/prompts/use-cases/list-prompt-templates.use-case';
export type { GetPromptTemplateUseCase } from '../../core/prompts/use-cases/get-prompt-template.use-case';
export type { UpdatePromptTemplateUseCase } from '../../core/prompts/use-cases/update-prompt-template.use-case';
export type { DeletePromptTemplateUseCase } from '../../core/prompts/use-cases/delete-prompt-template.use-case';
export type { RenderPromptUseCase } from '../../core/prompts/use-cases/render-prompt.use-case';
export type { SaveProviderKeyUseCase } from '../../core/provider-keys/use-cases/save-provider-key.use-case';
export type { ListProviderKeysUseCase } from '../../core/provider-keys/use-cases/list-provider-keys.use-case';
export type { DeleteProviderKeyUseCase } from '../../core/provider-keys/use-cases/delete-provider-key.use-case';
export type { ValidateProviderKeyUseCase } from '../../core/provider-keys/use-cases/validate-provider-key.use-case';
export type { CreateApiKeyUseCase } from '../../core/api-keys/use-cases/create-api-key.use-case';
export type { ListApiKeysUseCase } from '../../core/api-keys/use-cases/list-api-keys.use-case';
export type { RevokeApiKeyUseCase } from '../../core/api-keys/use-cases/revoke-api-key.use-case';
export type { DeleteApiKeyUseCase } from '../../core/api-keys/use-cases/delete-api-key.use-case';
export type { AuthenticateApiKeyUseCase } from '../../core/api-keys/use-cases/authenticate-api-key.use-case';
export type { GetPublicApplicationUseCase } from '../../core/public-api/use-cases/get-public-application.use-case';
export type { SendPublicMessageUseCase } from '../../core/public-api/use-cases/send-public-message.use-case';
export type { StreamPublicMessageUseCase } from '../../core/public-api/use-cases/stream-public-message.use-case';
export type { GetAnalyticsUseCase } from '../../core/analytics/use-cases/get-analytics.use-case';

/** The caller a signed-in user is, for the use cases that take an actor: `actorOf(session.user)`. */
export function actorOf(user: Pick<PublicUser, 'id' | 'role'>): Actor {
  return { userId: user.id, role: user.role };
}
