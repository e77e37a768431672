/**
 * The emulator's deterministic "model": answers derived from the request, token counts, and
 * embeddings in which texts sharing words are close (so retrieval tests behave sensibly).
 */

export interface Prompt {
  system?: string;
  /** The text of the last user turn. */
  lastUser: string;
  /** Every input text (system and turns), for the prompt token count. */
  allText: string;
}

export interface Completion {
  /** The answer as the pieces it is streamed in; joined they are the whole answer. */
  pieces: string[];
  text: string;
  /** True when maxTokens cut the answer short. */
  truncated: boolean;
  promptTokens: number;
  completionTokens: number;
}

const SYSTEM_ECHO_CHARS = 200;

/** `[system: …] Echo: <last user message>`, or the fixed reply; one token per word, cut at maxTokens. */
export function complete(prompt: Prompt, maxTokens: number | undefined, reply?: string): Completion {
  const system = prompt.system?.trim();
  const full = reply ?? `${system ? `[system: ${system.slice(0, SYSTEM_ECHO_CHARS)}] ` : ''}Echo: ${prompt.lastUser}`;
  const all = splitPieces(full);
  const limit = maxTokens !== undefined && maxTokens > 0 ? maxTokens : all.length;
  const pieces = all.slice(0, limit);
  return {
    pieces,
    text: pieces.join(''),
    truncated: pieces.length < all.length,
    promptTokens: countTokens(prompt.allText),
    completionTokens: pieces.length,
  };
}

/** Words with their trailing whitespace, so that the pieces join back to the text exactly. */
export function splitPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+\s*/g) ?? [];
  return pieces.length ? pieces : [text];
}

export const countTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Text of a message content given as a string or as typed parts (`[{ type: 'text', text }]`). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
  }
  return '';
}

const EMBEDDING_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'text-embedding-004': 768,
  'embedding-001': 768,
  'gemini-embedding-001': 3072,
  'sentence-transformers/all-MiniLM-L6-v2': 384,
  'BAAI/bge-small-en-v1.5': 384,
  'BAAI/bge-base-en-v1.5': 768,
};

/** The dimension asked for, else the model's native one, else the fallback. */
export function embeddingDimension(model: string | undefined, requested: unknown, fallback: number): number {
  if (typeof requested === 'number' && Number.isInteger(requested) && requested > 0) return requested;
  const bare = model?.replace(/^models\//, '');
  return (bare && EMBEDDING_DIMENSIONS[bare]) || fallback;
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'are', 'was', 'with', 'what', 'how', 'who', 'this', 'that', 'from', 'you', 'your', 'does', 'can', 'our']);

/**
 * Feature hashing of the text's words: each word adds ±1 at two hashed positions; the vector is
 * L2-normalized. Identical texts give identical vectors, texts sharing words a high cosine.
 */
export function embed(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w));
  for (const word of words) {
    const h1 = fnv1a(word);
    const h2 = fnv1a(`${word}#`);
    vector[h1 % dimension]! += h1 & 1 ? 1 : -1;
    vector[h2 % dimension]! += h2 & 1 ? 0.5 : -0.5;
  }
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
