import type { ProviderId } from '../../ai/domain/provider-id';
import type { TokenUsage } from '../../ai/ports/llm-provider.port';

/** A regular-expression engine that runs in time linear in the text (no backtracking), so no pattern can stall the process. */
export interface RegexEngine {
  /** Throws on a pattern the engine cannot take. */
  compile(pattern: string, caseSensitive: boolean): void;
  matches(pattern: string, caseSensitive: boolean, text: string): boolean;
}

/** JSON Schema validation. */
export interface JsonSchemaValidator {
  /** Throws on a schema that is not valid. */
  compile(schema: Record<string, unknown>): void;
  /** What does not match, in words; empty when the value matches. */
  errors(schema: Record<string, unknown>, value: unknown): string[];
}

/** The judge's model call: one prompt on the owner's key (or the platform's, counted against the plan). */
export interface JudgeModel {
  complete(request: { ownerId: string; provider: ProviderId; model: string; system: string; prompt: string; signal?: AbortSignal }): Promise<{ text: string; usage: TokenUsage }>;
}

/** The platform's embeddings, for semantic similarity: one unit vector per text. */
export interface SimilarityEmbedder {
  embed(ownerId: string, texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Reads an uploaded dataset file into rows; refuses (PayloadTooLargeError) past `maxRows`. */
export interface DatasetFileParser {
  parse(bytes: Buffer, format: 'csv' | 'jsonl', maxRows: number): Promise<Array<Record<string, unknown>>>;
}
