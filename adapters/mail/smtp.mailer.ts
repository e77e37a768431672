import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../../core/auth/ports/mailer.port';

/** SMTP delivery when SMTP_URL is set (smtp://user:pass@host:port). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from = 'no-reply@localhost') {
    this.transport = createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: message.fromName ? { name: message.fromName, address: this.from } : this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    });
  }
}
