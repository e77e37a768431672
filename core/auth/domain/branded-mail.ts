import type { EmailBranding } from '../ports/mail-branding.port';
import type { MailMessage } from '../ports/mailer.port';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A mail with an application's e-mail branding: its sender name and reply-to, its footer under the text,
 * and an HTML part with its header logo. Every branded value is escaped; the logo is an https URL.
 */
export function brandMail(message: MailMessage, branding: EmailBranding | null): MailMessage {
  if (!branding || !Object.values(branding).some(Boolean)) return message;
  const text = branding.footerText ? `${message.text}\n\n--\n${branding.footerText}` : message.text;
  const logo = branding.headerLogoUrl
    ? `<p><img src="${escape(branding.headerLogoUrl)}" alt="${escape(branding.fromName ?? '')}" style="max-height:48px"></p>\n`
    : '';
  const body = message.text.split(/\n{2,}/).map((p) => `<p>${escape(p).replace(/\n/g, '<br>')}</p>`).join('\n');
  const footer = branding.footerText ? `\n<hr>\n<p style="color:#6b7280;font-size:12px">${escape(branding.footerText).replace(/\n/g, '<br>')}</p>` : '';
  return {
    ...message,
    text,
    html: `<!doctype html>\n<html><body style="font-family:system-ui,sans-serif;color:#1f2937">\n${logo}${body}${footer}\n</body></html>\n`,
    ...(branding.fromName ? { fromName: branding.fromName } : {}),
    ...(branding.replyTo ? { replyTo: branding.replyTo } : {}),
  };
}
