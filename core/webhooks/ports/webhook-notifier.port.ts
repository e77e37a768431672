/** Tells a webhook's owner it was disabled (the notifications area, when composed). */
export interface WebhookNotifier {
  webhookDisabled(webhook: { id: string; ownerId: string; url: string }, reason: string): Promise<void>;
}
