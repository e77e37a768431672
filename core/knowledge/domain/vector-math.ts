import { ValidationError } from '../../shared/errors';

/** A vector index hit: cosine similarity in [-1, 1], higher is closer. */
export interface ScoredId<Id> {
  id: Id;
  score: number;
}

function sameDimension(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) {
    throw new ValidationError(`Vectors have different dimensions (${a.length} and ${b.length})`);
  }
}

export function dot(a: readonly number[], b: readonly number[]): number {
  sameDimension(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Euclidean (L2) length. */
export function norm(v: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  return Math.sqrt(sum);
}

/** A unit-length copy; the zero vector has no direction and stays zero. */
export function normalize(v: readonly number[]): number[] {
  const length = norm(v);
  return length === 0 ? v.map(() => 0) : v.map((x) => x / length);
}

/** Cosine of the angle between two vectors; 0 when either is the zero vector. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : clamp(dot(a, b) / denominator);
}

const clamp = (score: number): number => Math.min(1, Math.max(-1, score));

interface Entry<Id> {
  id: Id;
  score: number;
  order: number;
}

/** `a` ranks below `b`: a lower score, or the same score seen later (ties keep input order). */
const worse = <Id>(a: Entry<Id>, b: Entry<Id>): boolean => a.score < b.score || (a.score === b.score && a.order > b.order);

/**
 * The `k` items most similar to `query` by exact scan, best first, keeping only scores >= `minScore`.
 * A min-heap of size k holds the best so far: O(n·d + n·log k) time, O(k) extra memory.
 */
export function topKBySimilarity<Id>(
  query: readonly number[],
  items: Iterable<{ id: Id; vector: readonly number[] }>,
  k: number,
  minScore = -Infinity,
): ScoredId<Id>[] {
  const limit = Math.floor(k);
  if (!(limit > 0)) return [];
  const queryNorm = norm(query);
  const heap: Entry<Id>[] = [];
  let order = 0;
  for (const item of items) {
    const itemNorm = norm(item.vector);
    const score = queryNorm === 0 || itemNorm === 0 ? 0 : clamp(dot(query, item.vector) / (queryNorm * itemNorm));
    const entry = { id: item.id, score, order: order++ };
    if (Number.isNaN(score) || score < minScore) continue;
    if (heap.length < limit) {
      heap.push(entry);
      siftUp(heap, heap.length - 1);
    } else if (worse(heap[0]!, entry)) {
      heap[0] = entry;
      siftDown(heap, 0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0)).map(({ id, score }) => ({ id, score }));
}

function siftUp<Id>(heap: Entry<Id>[], at: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function siftDown<Id>(heap: Entry<Id>[], at: number): void {
  let i = at;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === i) return;
    [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
    i = smallest;
  }
}
