import type { HostedSession, InvoicePage, PaidTier, PaymentEvent } from '../domain/payments';

/**
 * The payment processor (Stripe in production, its local fake in tests). Never called on the chat
 * path: checkout, portal and invoices answer user requests, overage goes from a background job.
 */
export interface PaymentGateway {
  /** Throws UnavailableError (503) naming what to configure when payments are not set up on this install. */
  assertAvailable(): void;
  /** Whether a paid plan has a price at the processor (it can be subscribed to). */
  sells(plan: PaidTier): boolean;
  /** Creates the user's customer; the same user always gets the same customer (idempotent per user). */
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  subscriptionCheckout(input: { customerId: string; userId: string; plan: PaidTier }): Promise<HostedSession>;
  licenseCheckout(input: { customerId: string; userId: string; itemId: string; name: string; priceCents: number; currency: string; authorId: string }): Promise<HostedSession>;
  portalSession(customerId: string): Promise<{ url: string }>;
  invoices(customerId: string, page: { limit: number; startingAfter?: string }): Promise<InvoicePage>;
  /** Reports overage tokens as metered usage; `identifier` makes a repeated report count once. */
  reportOverage(input: { customerId: string; tokens: number; identifier: string; at: Date }): Promise<void>;
  /**
   * The request header that carries the processor's webhook signature, lower case (default `stripe-signature`):
   * what the webhook route hands to `parseWebhook`.
   */
  readonly signatureHeader?: string;
  /** Verifies a webhook's signature (and age) on its raw body; throws ValidationError when it fails. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
}
