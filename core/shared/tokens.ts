/**
 * A provider-neutral token estimate (about four characters of English per token), used to trim
 * history and budget retrieved context before the provider's own count is known.
 */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Usage estimated from the texts, for answers whose provider count never arrived (a stream cut short). */
export function estimateUsage(prompt: string, completion: string): { promptTokens: number; completionTokens: number; totalTokens: number } {
  const promptTokens = estimateTokens(prompt);
  const completionTokens = estimateTokens(completion);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
