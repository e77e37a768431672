export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail: a development outbox folder, or SMTP. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
