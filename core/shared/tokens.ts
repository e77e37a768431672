/**
 * A provider-neutral token estimate (about four characters of English per token), used to trim
 * history and budget retrieved context before the provider's own count is known.
 */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
