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
export type { PlatformConfig, PlatformConfigView, PlatformSettings, PlatformSettingName, ProviderPrefix, SecretField } from './settings';
export type { AppConfig } from '../shared/config';
export type { PlatformAdapters } from './adapter-ports';
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
export type { ErrorDetail, ErrorKind, PlanLimitHit } from '../../core/shared/errors';
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
export type { ExternalUserInput, ExternalUserView, ExternalSession } from '../../core/auth/use-cases/external-users.use-case';
export type { ApplicationView } from '../../core/applications/domain/application';
export type { ConversationView, MessageView, MessageSource, ConversationStatus, MessageStatus, MessageRole } from '../../core/conversations/domain/conversation';
export type { ChatAnswer, ChatStreamEvent, ConversationWithMessages, ProviderInfo } from '../../core/ai/ports/chat-engine.port';
export type { PlanView, UsageView } from '../../core/billing/domain/usage-view';
export type { Plan, PlanTier, PlanLimits, SubscriptionStatus } from '../../core/billing/domain/plans';
export type { Page } from '../../core/shared/pagination';
export type { User } from '../../core/users/domain/user';
export type { Application, ThemeCustomization } from '../../core/applications/domain/application';
export type { Conversation, ConversationSource, MessageToolCall } from '../../core/conversations/domain/conversation';
export type { AnswerToolCall, ToolStop } from '../../core/ai/ports/chat-engine.port';
export type { AnsweredBy, ResiliencePolicy } from '../../core/ai/domain/resilience';
export type { OpenedConnection } from '../../core/connections/ports/connection-endpoints.port';
export type { RecordedSpan, TraceKeys } from '../../core/traces/domain/span';
export type { TraceOptions } from '../../core/traces/domain/turn-trace';
export type { ApiKey, ApiKeyView, CreatedApiKeyView } from '../../core/api-keys/domain/api-key';
export type { AuthenticatedKey } from '../../core/api-keys/use-cases/authenticate-api-key.use-case';
export type { KnowledgeDocumentView, EmbeddingProvider } from '../../core/knowledge/domain/knowledge-document';
export type { SearchMode } from '../../core/knowledge/domain/hybrid-ranking';
export type { SearchResult } from '../../core/knowledge/use-cases/search-knowledge.use-case';
export type { ModelConfigView } from '../../core/model-configs/domain/model-config';
export type { PromptTemplateView } from '../../core/prompts/domain/prompt-template';
export type { RenderedPrompt } from '../../core/prompts/use-cases/render-prompt.use-case';
export type { ProviderKeyView, SavedProviderKeyView } from '../../core/provider-keys/domain/provider-key';
export type { KeyValidation } from '../../core/provider-keys/use-cases/validate-provider-key.use-case';
export type { PublicAnswer, PublicApplicationView } from '../../core/public-api/domain/public-views';
export type { SubscriptionView } from '../../core/billing/use-cases/change-plan.use-case';
export type { SubscriptionDetails } from '../../core/billing/use-cases/get-subscription.use-case';
export type { AnalyticsConversations, AnalyticsCosts, AnalyticsOverview, AnalyticsPeriod, AnalyticsUsage, ConversationStats, CostSplit, UsageFigures } from '../../core/analytics/domain/analytics-views';
export type { KeyKind, ToolCallCount } from '../../core/analytics/domain/analytics';
export type { ModelPrice, PriceTable } from '../../core/ai/domain/model-catalog';
export type { ConnectionKind } from '../../core/connections/domain/connection';
export type { DocumentFormat } from '../../core/knowledge/domain/document-format';
export type { DocumentStatus } from '../../core/knowledge/domain/knowledge-document';
export type { FallbackTarget, RetryPolicy } from '../../core/ai/domain/resilience';
export type { OAuthConfig, StripeConfig } from '../shared/config';
export type { PGliteMemorySettings } from '../../adapters/persistence/pglite/pglite-memory';
export type { PublicBranding, WidgetPosition } from '../../core/branding/domain/branding';
export type { RateLimitDecision } from '../../core/shared/rate-limiter.port';
export type { ThemeOverrides, ColorName, LayoutName, TypographyName } from '../../core/themes/domain/theme';
export type { TracesConfig, OtlpExportConfig } from '../shared/traces-config';
// The values the unions above are made of.
export { EMBEDDING_PROVIDERS } from '../../core/knowledge/domain/knowledge-document';
export { SEARCH_MODES } from '../../core/knowledge/domain/hybrid-ranking';
export { CONNECTION_KINDS } from '../../core/connections/domain/connection';
export { COLOR_NAMES, LAYOUT_NAMES, TYPOGRAPHY_NAMES } from '../../core/themes/domain/theme';
export { WIDGET_POSITIONS } from '../../core/branding/domain/branding';
export { PLATFORM_ROLES } from '../../core/shared/actor';
export { PLAN_TIERS, SUBSCRIPTION_STATUSES } from '../../core/billing/domain/plans';
export { PAID_TIERS } from '../../core/billing/domain/payments';
export { PROVIDER_IDS } from '../../core/ai/domain/provider-id';

// The use cases: one calling convention, `execute({ actor, ...fields })`, with typed inputs and answers.
export type * from './public-api';

/** The caller a signed-in user is, for the use cases that take an actor: `actorOf(session.user)`. */
export function actorOf(user: Pick<PublicUser, 'id' | 'role'>): Actor {
  return { userId: user.id, role: user.role };
}
