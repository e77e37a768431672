import type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
import { UnavailableError } from '../../core/shared/errors';

/** Said to people: the operator's setting (STRIPE_SECRET_KEY) and the admin's plan endpoint are in the docs, not here. */
const MESSAGE = "Payments are not set up on this platform: plans are set by the platform's administrator.";

const refuse = (): never => {
  throw new UnavailableError(MESSAGE);
};

/** The gateway without STRIPE_SECRET_KEY: every payment endpoint answers 503 saying so; admins set plans by hand. */
export const unconfiguredPaymentGateway: PaymentGateway = {
  assertAvailable: refuse,
  sells: () => false,
  createCustomer: async () => refuse(),
  subscriptionCheckout: async () => refuse(),
  licenseCheckout: async () => refuse(),
  portalSession: async () => refuse(),
  invoices: async () => refuse(),
  reportOverage: async () => refuse(),
  parseWebhook: refuse,
};
