import * as yup from 'yup';
import { EVENT_TYPES } from '../../events/domain/domain-event';
import { ValidationError } from '../../shared/errors';
import { str } from '../../shared/validation';
import type { WebhookSender } from '../ports/webhook-sender.port';

export const urlField = () => str().max(2048, 'url must be at most 2048 characters');
export const eventsField = () =>
  yup
    .array(str().required().oneOf([...EVENT_TYPES], `events must be among ${EVENT_TYPES.join(', ')}`))
    .min(1, 'events must name at least one event type')
    .max(EVENT_TYPES.length);
export const descriptionField = () => str().max(500, 'description must be at most 500 characters');

/** A URL that parses and that the sender would deliver to: the rule of every outbound call (scheme, credentials, every resolved address). */
export async function checkedUrl(sender: WebhookSender, url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw ValidationError.field('url', 'url must be an absolute URL');
  }
  const problem = await sender.problemWith(parsed.href);
  if (problem) throw ValidationError.field('url', problem);
  return parsed.href;
}
