import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Field names whose values are secrets wherever they appear in a log line. */
const SECRET_FIELDS = [
  'password', 'currentPassword', 'newPassword', 'apiKey', 'api_key', 'key', 'token', 'access_token',
  'refresh_token', 'secret', 'authorization', 'x-api-key', 'passwordHash', 'encryptedKey', 'secretKey', 'webhookSecret',
  'stripe-signature',
];

/** JSON logs with secrets redacted at any of the first three levels of nesting. */
export function createLogger(level: string, name?: string, destination?: DestinationStream): Logger {
  const paths = SECRET_FIELDS.flatMap((f) => {
    const key = /^[a-zA-Z_$][\w$]*$/.test(f) ? `.${f}` : `["${f}"]`;
    return [key.slice(key.startsWith('.') ? 1 : 0), `*${key}`, `*.*${key}`];
  });
  const options = { level, name, redact: { paths, censor: '[redacted]' }, base: undefined };
  return destination ? pino(options, destination) : pino(options);
}
