import { catalogPrices } from '../../../core/ai/domain/model-catalog';
import { applyPriceOverrides } from '../../../core/analytics/domain/prices';
import { answerCost } from '../../../core/conversations/domain/answer-cost';
import { TITLE_LENGTH, titleFrom, UNTITLED } from '../../../core/conversations/domain/conversation';

describe('a conversation title from its first message', () => {
  it('keeps a short first line whole, with its white space collapsed', () => {
    expect(titleFrom('  Where is   my order?  ')).toBe('Where is my order?');
    expect(titleFrom('\n\n  Refund policy\nplease explain the details')).toBe('Refund policy');
  });

  it('cuts a long line on a word boundary within 60 characters, with an ellipsis', () => {
    const title = titleFrom('Could you please explain how the refund policy works for orders that were shipped abroad last month?');
    expect(title).toBe('Could you please explain how the refund policy works for…');
    expect(title.length).toBeLessThanOrEqual(TITLE_LENGTH);
  });

  it('drops trailing punctuation before the ellipsis, and cuts a single overlong word inside it', () => {
    expect(titleFrom('Hello there, I would like to know, honestly and precisely, what happens next')).toBe('Hello there, I would like to know, honestly and precisely…');
    const word = 'x'.repeat(100);
    expect(titleFrom(word)).toBe(`${'x'.repeat(TITLE_LENGTH - 1)}…`);
  });

  it('keeps a line of exactly 60 characters, and names an empty message "New conversation"', () => {
    const exact = 'a'.repeat(TITLE_LENGTH);
    expect(titleFrom(exact)).toBe(exact);
    expect(titleFrom('   \n  ')).toBe(UNTITLED);
  });
});

describe("an answer's cost at the platform's prices", () => {
  const usage = { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 };

  it("prices tokens in and out at the model's catalogue price, rounded to a billionth of a dollar", () => {
    // gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
    expect(answerCost(catalogPrices(), { provider: 'provider_a', model: 'gpt-4o-mini', usage })).toBe(0.00045);
  });

  it("follows the operator's prices over the catalogue's, and prices a model only they price", () => {
    const prices = applyPriceOverrides({ provider_a: { 'gpt-4o-mini': { inputPerMillion: 1, outputPerMillion: 2 } }, provider_d: { 'my-open-model': { inputPerMillion: 3, outputPerMillion: 0 } } });
    expect(answerCost(prices, { provider: 'provider_a', model: 'gpt-4o-mini', usage })).toBe(0.002);
    expect(answerCost(prices, { provider: 'provider_d', model: 'my-open-model', usage })).toBe(0.003);
  });

  it('is null when it cannot be known: no usage, no model, or a model without a price', () => {
    expect(answerCost(catalogPrices(), { provider: 'provider_a', model: 'gpt-4o-mini', usage: null })).toBeNull();
    expect(answerCost(catalogPrices(), { provider: null, model: null, usage })).toBeNull();
    expect(answerCost(catalogPrices(), { provider: 'provider_d', model: 'unpriced/model', usage })).toBeNull();
    expect(answerCost(catalogPrices(), { provider: 'provider_a', model: 'constructor', usage })).toBeNull();
  });
});
