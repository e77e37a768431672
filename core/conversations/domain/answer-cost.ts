import { catalogPrices, type PriceTable } from '../../ai/domain/model-catalog';
import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import type { TokenUsage } from '../../ai/ports/llm-provider.port';
import { costOf, priceOf, roundUsd } from '../../analytics/domain/prices';

/**
 * What one answer cost in US dollars at the platform's prices (the catalogue's, with the operator's
 * MODEL_PRICES_FILE over them, the table analytics uses), rounded to a billionth; null when it cannot
 * be known: no provider, model or usage recorded, or a model the table has no price for. The one place
 * a message's or a stream's `cost` is computed.
 */
export function answerCost(
  prices: PriceTable,
  answer: { provider?: string | null; model?: string | null; usage?: TokenUsage | null },
): number | null {
  const { provider, model, usage } = answer;
  if (!provider || !model || !usage) return null;
  const price = priceOf(prices, provider, model);
  return price ? roundUsd(costOf(price, usage.promptTokens, usage.completionTokens)) : null;
}

/** An owner's stream with its final `done` event priced (the public API's and the hosted page's streams are not). */
export async function* withAnswerCost(events: AsyncIterable<ChatStreamEvent>, prices: PriceTable): AsyncIterable<ChatStreamEvent> {
  for await (const event of events) yield event.type === 'done' ? { ...event, cost: answerCost(prices, event) } : event;
}

/** The catalogue's prices, for compositions that were given no table. */
export const defaultPrices = (): PriceTable => catalogPrices();
