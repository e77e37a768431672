/** E-mail branding of an application (SPEC 2.11): sender name, reply-to, header logo, footer. */
export interface EmailBranding {
  fromName?: string;
  replyTo?: string;
  headerLogoUrl?: string;
  footerText?: string;
}

/** The branding a mail to a user may carry: that of an application the user owns, else none. */
export interface MailBranding {
  forUser(userId: string, applicationId: string): Promise<EmailBranding | null>;
}
