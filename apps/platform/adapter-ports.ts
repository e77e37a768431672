import type { LlmProviderRegistry } from '../../core/ai/ports/llm-provider.port';
import type { Mailer } from '../../core/auth/ports/mailer.port';
import type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
import type { Clock } from '../../core/shared/clock.port';

// Kept apart from `adapters.ts` (which binds them in the container): the public declarations name no Inversify type.

/**
 * Adapters a program embedding the platform may bring for a port, in place of the one the configuration
 * chooses. Each is used by every use case of the port, as the default would have been.
 */
export interface PlatformAdapters {
  /** Payments (default: Stripe from STRIPE_SECRET_KEY, or a gateway answering 503 without it). */
  paymentGateway?: PaymentGateway;
  /** Outgoing mail (default: SMTP_URL, or the log without it). */
  mailer?: Mailer;
  /** The model providers by id, and the platform's keys (default: provider_a..d on their SDKs). */
  llmProviders?: LlmProviderRegistry;
  /** The time the use cases read (default: the system clock). */
  clock?: Clock;
}
