import type { OutboundUrlRules } from '../../shared/outbound-url-rules.port';

/** What one POST to a receiver came to. */
export interface SendResult {
  outcome: 'succeeded' | 'failed' | 'timeout' | 'refused';
  statusCode: number | null;
  durationMs: number;
  /** Why it failed (status, timeout, refused address); never the secret or the body sent. */
  error: string | null;
}

export interface SignedMessage {
  url: string;
  /** The signing secret (`whsec_…`). */
  secret: string;
  /** `webhook-id`: the event id, the same on every retry. */
  messageId: string;
  timestamp: Date;
  body: string;
}

/**
 * Signs (Standard Webhooks v1) and POSTs a message to a receiver through the SSRF-safe client:
 * only public addresses (or the operator's allowed ranges), no redirects, bounded time and body.
 */
export interface WebhookSender extends OutboundUrlRules {
  send(message: SignedMessage): Promise<SendResult>;
  /** A fresh signing secret in the Standard Webhooks format (`whsec_` + base64). */
  newSecret(): string;
}
