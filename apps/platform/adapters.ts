import type { Container } from 'inversify';
import type { LlmProviderRegistry } from '../../core/ai/ports/llm-provider.port';
import type { Mailer } from '../../core/auth/ports/mailer.port';
import type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
import type { Clock } from '../../core/shared/clock.port';
import { BILLING_TOKENS } from '../core-api/modules/billing.tokens';
import type { AppModule } from '../shared/app-module';
import { CHAT_TOKENS } from '../shared/modules/chat-engine.tokens';
import { TOKENS, type Token } from '../shared/tokens';

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

const SLOTS: { [K in keyof PlatformAdapters]-?: Token<NonNullable<PlatformAdapters[K]>> } = {
  paymentGateway: BILLING_TOKENS.PaymentGateway,
  mailer: TOKENS.Mailer,
  llmProviders: CHAT_TOKENS.LlmProviderRegistry,
  clock: TOKENS.Clock,
};

/** The names `PlatformAdapters` accepts. */
export const ADAPTER_NAMES = Object.keys(SLOTS) as (keyof PlatformAdapters)[];

/** Bound after every other module of an app: replaces the bindings of the ports given an adapter. */
export function adapterOverrides(adapters: PlatformAdapters = {}): AppModule {
  return {
    name: 'adapter-overrides',
    bind(c: Container) {
      for (const name of Object.keys(adapters) as (keyof PlatformAdapters)[]) {
        const adapter = adapters[name];
        if (adapter === undefined) continue;
        const slot = SLOTS[name];
        if (!slot) throw new TypeError(`Unknown adapter "${String(name)}": expected one of ${ADAPTER_NAMES.join(', ')}`);
        if (c.isBound(slot)) c.unbind(slot);
        c.bind(slot).toConstantValue(adapter);
      }
    },
  };
}
