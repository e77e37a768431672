import type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
import { UnavailableError } from '../../core/shared/errors';

const MESSAGE =
  'Billing is not configured on this install (STRIPE_SECRET_KEY is unset); plans are set by an admin with PUT /api/admin/users/{id}/plan';

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
