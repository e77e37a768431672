import { ValidationError } from '../../../core/shared/errors';
import { cosineSimilarity, dot, norm, normalize, topKBySimilarity } from '../../../core/knowledge/domain/vector-math';

describe('vector math', () => {
  it('computes dot products and lengths', () => {
    expect(dot([1, 2, 3], [4, -5, 6])).toBe(12);
    expect(norm([3, 4])).toBe(5);
    expect(norm([])).toBe(0);
  });

  it('normalizes to unit length and leaves the zero vector at zero', () => {
    const unit = normalize([3, 4]);
    expect(unit[0]).toBeCloseTo(0.6);
    expect(unit[1]).toBeCloseTo(0.8);
    expect(norm(unit)).toBeCloseTo(1);
    expect(normalize([0, 0, 0])).toEqual([0, 0, 0]);
  });

  it('measures cosine similarity whatever the lengths', () => {
    expect(cosineSimilarity([1, 0], [5, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 2])).toBeCloseTo(0);
    expect(cosineSimilarity([1, 1], [-3, -3])).toBeCloseTo(-1);
    expect(cosineSimilarity([1, 2, 3], [2, 3, 4])).toBeCloseTo(20 / Math.sqrt(14 * 29));
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });

  it('refuses vectors of different dimensions', () => {
    expect(() => dot([1, 2], [1, 2, 3])).toThrow(ValidationError);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/different dimensions \(1 and 2\)/);
  });
});

describe('topKBySimilarity', () => {
  const items = [
    { id: 'east', vector: [1, 0] },
    { id: 'north-east', vector: [1, 1] },
    { id: 'north', vector: [0, 3] },
    { id: 'west', vector: [-2, 0] },
    { id: 'nearly-east', vector: [10, 1] },
  ];

  it('returns the k most similar items, best first, with their scores', () => {
    const top = topKBySimilarity([1, 0], items, 3);
    expect(top.map((t) => t.id)).toEqual(['east', 'nearly-east', 'north-east']);
    expect(top[0]!.score).toBeCloseTo(1);
    expect(top[2]!.score).toBeCloseTo(Math.SQRT1_2);
  });

  it('drops items below minScore', () => {
    expect(topKBySimilarity([1, 0], items, 10, 0.5).map((t) => t.id)).toEqual(['east', 'nearly-east', 'north-east']);
    expect(topKBySimilarity([1, 0], items, 10).map((t) => t.id)).toEqual(['east', 'nearly-east', 'north-east', 'north', 'west']);
  });

  it('returns nothing for k of 0 or less, and everything when k exceeds the items', () => {
    expect(topKBySimilarity([1, 0], items, 0)).toEqual([]);
    expect(topKBySimilarity([1, 0], items, -3)).toEqual([]);
    expect(topKBySimilarity([1, 0], [], 5)).toEqual([]);
    expect(topKBySimilarity([1, 0], items, 100)).toHaveLength(5);
  });

  it('keeps input order between equal scores', () => {
    const same = ['a', 'b', 'c', 'd'].map((id) => ({ id, vector: [1, 1] }));
    expect(topKBySimilarity([2, 2], same, 2).map((t) => t.id)).toEqual(['a', 'b']);
    expect(topKBySimilarity([2, 2], same, 4).map((t) => t.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('agrees with a full sort on random data', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const data = Array.from({ length: 500 }, (_, i) => ({ id: i, vector: Array.from({ length: 16 }, random) }));
    const query = Array.from({ length: 16 }, random);
    const expected = data
      .map((item) => ({ id: item.id, score: cosineSimilarity(query, item.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 25);
    const top = topKBySimilarity(query, data, 25);
    expect(top.map((t) => t.id)).toEqual(expected.map((e) => e.id));
    top.forEach((t, i) => expect(t.score).toBeCloseTo(expected[i]!.score, 12));
  });

  it('refuses an item whose dimension differs from the query', () => {
    expect(() => topKBySimilarity([1, 0], [{ id: 'x', vector: [1, 0, 0] }], 1)).toThrow(ValidationError);
  });
});
