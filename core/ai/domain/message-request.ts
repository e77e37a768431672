import * as yup from 'yup';
import { num, str, validate } from '../../shared/validation';
import type { ChatMessageRequest } from '../ports/chat-engine.port';

/** The message body of SPEC 4.4 (`content`, `provider`, `model`, `temperature`, `max_tokens`, `system_prompt`). */
const schema = yup.object({
  content: str().required('content is required').max(100_000, 'content must be at most 100000 characters'),
  provider: str().max(50),
  model: str().max(200),
  temperature: num(),
  max_tokens: num(),
  top_p: num(),
  frequency_penalty: num(),
  presence_penalty: num(),
  system_prompt: yup.string().transform((_v: unknown, o: unknown) => o).max(20_000, 'system_prompt must be at most 20000 characters'),
});

/** Reads a message body into the engine's request; settings are range-checked later, per provider and model. */
export async function parseMessageRequest(body: unknown): Promise<ChatMessageRequest> {
  const b = await validate(schema, body);
  const settings: Record<string, unknown> = {};
  if (b.temperature !== undefined) settings.temperature = b.temperature;
  if (b.max_tokens !== undefined) settings.maxTokens = b.max_tokens;
  if (b.top_p !== undefined) settings.topP = b.top_p;
  if (b.frequency_penalty !== undefined) settings.frequencyPenalty = b.frequency_penalty;
  if (b.presence_penalty !== undefined) settings.presencePenalty = b.presence_penalty;
  if (b.system_prompt !== undefined) settings.systemPrompt = b.system_prompt;
  return { content: b.content, provider: b.provider, model: b.model, settings };
}
