export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML, when the mail is branded (logo, footer). */
  html?: string;
  /** Display name of the sender (the address stays the platform's). */
  fromName?: string;
  replyTo?: string;
}

/** Outgoing e-mail: a development outbox folder, or SMTP. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
