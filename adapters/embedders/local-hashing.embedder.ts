import type { Embedder } from '../../core/knowledge/ports/embedder.port';

/**
 * The built-in offline embedder: no key, no network, the same vector for the same text on every machine.
 * Feature hashing of lower-cased word unigrams, word bigrams and character trigrams (words padded with a
 * boundary mark) into `dimension` buckets, with a hash-derived sign so collisions cancel out on average,
 * sublinear term frequency (1 + ln tf), then L2 normalization. Lexical, not semantic: it ranks texts
 * sharing words and word fragments, which is what retrieval without a provider can offer.
 */
export class LocalHashingEmbedder implements Embedder {
  readonly model: string;

  constructor(readonly dimension = 384) {
    if (!Number.isInteger(dimension) || dimension < 8 || dimension > 8192) {
      throw new RangeError('dimension must be an integer from 8 to 8192');
    }
    this.model = `local-hash-${dimension}`;
  }

  async embed(texts: string[], options: { apiKey?: string; signal?: AbortSignal } = {}): Promise<number[][]> {
    options.signal?.throwIfAborted();
    return texts.map((text) => embedOne(text, this.dimension));
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// Each kind of feature starts from its own seed, so "ab" the word and "ab" the trigram never meet.
const UNIGRAM_SEED = FNV_OFFSET;
const BIGRAM_SEED = fnvStep(FNV_OFFSET, 0x0b);
const TRIGRAM_SEED = fnvStep(FNV_OFFSET, 0x03);
const WORD_BOUNDARY = 0x23; // '#', never part of a word
const WORD_SEPARATOR = 0x20;

// Words weigh most; trigrams are many per word, so each counts for less.
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.7;
const TRIGRAM_WEIGHT = 0.3;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** One FNV-1a step over a UTF-16 code unit, in 32-bit arithmetic. */
function fnvStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME) >>> 0;
}

function fnvRange(hash: number, text: string, start: number, end: number): number {
  let h = hash;
  for (let i = start; i < end; i++) h = fnvStep(h, text.charCodeAt(i));
  return h;
}

/** Murmur3's finalizer: spreads FNV's weak low bits before taking a bucket and a sign. */
function mix(hash: number): number {
  let h = hash;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function count(counts: Map<number, number>, hash: number): void {
  counts.set(hash, (counts.get(hash) ?? 0) + 1);
}

function embedOne(text: string, dimension: number): number[] {
  const lower = text.toLowerCase();
  const unigrams = new Map<number, number>();
  const bigrams = new Map<number, number>();
  const trigrams = new Map<number, number>();
  let previous: { start: number; end: number } | undefined;
  for (const match of lower.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    count(unigrams, fnvRange(UNIGRAM_SEED, lower, start, end));
    if (previous) {
      const left = fnvRange(BIGRAM_SEED, lower, previous.start, previous.end);
      count(bigrams, fnvRange(fnvStep(left, WORD_SEPARATOR), lower, start, end));
    }
    countTrigrams(trigrams, lower, start, end);
    previous = { start, end };
  }

  const vector = new Float64Array(dimension);
  addFeatures(vector, unigrams, UNIGRAM_WEIGHT);
  addFeatures(vector, bigrams, BIGRAM_WEIGHT);
  addFeatures(vector, trigrams, TRIGRAM_WEIGHT);
  let sum = 0;
  for (let i = 0; i < dimension; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) {
    // No words (or, vanishingly rarely, features that cancel exactly): a fixed unit vector, never zero.
    const unit = new Array<number>(dimension).fill(0);
    unit[0] = 1;
    return unit;
  }
  const length = Math.sqrt(sum);
  return Array.from(vector, (x) => x / length);
}

/** Trigrams of the word padded as `#word#`, hashed without building substrings. */
function countTrigrams(counts: Map<number, number>, text: string, start: number, end: number): void {
  const padded = end - start + 2;
  const at = (j: number): number => (j === 0 || j === padded - 1 ? WORD_BOUNDARY : text.charCodeAt(start + j - 1));
  for (let j = 0; j + 3 <= padded; j++) {
    count(counts, fnvStep(fnvStep(fnvStep(TRIGRAM_SEED, at(j)), at(j + 1)), at(j + 2)));
  }
}

function addFeatures(vector: Float64Array, counts: Map<number, number>, weight: number): void {
  for (const [hash, tf] of counts) {
    const h = mix(hash);
    const sign = h & 1 ? -1 : 1;
    vector[(h >>> 1) % vector.length] += sign * weight * (1 + Math.log(tf));
  }
}
