import type { BrandingRepository } from '../../../core/branding/ports/branding-repository.port';
import type { PlanFeatures } from '../../../core/branding/ports/plan-features.port';
import type { MailBranding } from '../../../core/auth/ports/mail-branding.port';
import { token } from '../../shared/tokens';

export const BRANDING_TOKENS = {
  BrandingRepository: token<BrandingRepository>('BrandingRepository'),
  PlanFeatures: token<PlanFeatures>('PlanFeatures'),
  /** Read by the accounts module when bound: e-mail branding for the mails it sends. */
  MailBranding: token<MailBranding>('MailBranding'),
} as const;
