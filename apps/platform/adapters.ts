import type { Container } from 'inversify';
import type { PlatformAdapters } from './adapter-ports';
import { BILLING_TOKENS } from '../core-api/modules/billing.tokens';
import type { AppModule } from '../shared/app-module';
import { CHAT_TOKENS } from '../shared/modules/chat-engine.tokens';
import { TOKENS, type Token } from '../shared/tokens';

export type { PlatformAdapters } from './adapter-ports';

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
