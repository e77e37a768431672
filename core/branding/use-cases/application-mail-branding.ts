import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { EmailBranding, MailBranding } from '../../auth/ports/mail-branding.port';
import { isUuid } from '../../shared/ids';
import type { BrandingRepository } from '../ports/branding-repository.port';

/**
 * The e-mail branding of an application, for mails to its owner only: a mail to anyone else never
 * carries a stranger's sender name, logo or footer (which would make it a phishing tool).
 */
export class ApplicationMailBranding implements MailBranding {
  constructor(private readonly deps: { applications: ApplicationRepository; branding: BrandingRepository }) {}

  async forUser(userId: string, applicationId: string): Promise<EmailBranding | null> {
    const app = isUuid(applicationId) ? await this.deps.applications.findById(applicationId) : null;
    if (!app || app.ownerId !== userId) return null;
    return (await this.deps.branding.find(app.id))?.email ?? null;
  }
}
