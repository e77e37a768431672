import { ValidationError } from '../../../core/shared/errors';
import { assertTrafficFits, isTrafficPercent, pickVersion, redistribute, toHundredths, toPercent } from '../../../core/model-configs/domain/traffic';

const total = (shares: { share: number }[]) => shares.reduce((sum, s) => sum + s.share, 0);

describe('traffic shares of A/B versions', () => {
  it.each([0, 100, 33.33, 0.01, 12.5])('accepts %p as a traffic percentage', (value) => {
    expect(isTrafficPercent(value)).toBe(true);
    expect(toPercent(toHundredths(value))).toBe(value);
  });

  it.each([-1, 100.01, 33.333, Number.NaN, Number.POSITIVE_INFINITY, '50', null])('refuses %p as a traffic percentage', (value) => {
    expect(isTrafficPercent(value)).toBe(false);
  });

  it('lets active versions take up to 100% together and says how much is left otherwise', () => {
    expect(() => assertTrafficFits([3000, 2000], 5000)).not.toThrow();
    const error = (() => {
      try {
        assertTrafficFits([3000, 2000], 5001);
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.details[0]!.path).toBe('trafficPercent');
    expect(error!.message).toContain('50% is left');
  });

  describe('pickVersion', () => {
    const shares = [
      { id: 'a', share: 2000 },
      { id: 'b', share: 3000 },
    ];

    it('maps the random point onto the slices in order, and the rest onto the parent config', () => {
      expect(pickVersion(shares, 0)).toBe('a');
      expect(pickVersion(shares, 0.1999)).toBe('a');
      expect(pickVersion(shares, 0.2)).toBe('b');
      expect(pickVersion(shares, 0.4999)).toBe('b');
      expect(pickVersion(shares, 0.5)).toBeNull();
      expect(pickVersion(shares, 0.99999)).toBeNull();
    });

    it('never picks a version with no share, and always one of versions that share 100%', () => {
      expect(pickVersion([{ id: 'zero', share: 0 }], 0)).toBeNull();
      const full = [
        { id: 'x', share: 5000 },
        { id: 'y', share: 5000 },
      ];
      for (const r of [0, 0.5, 0.999999]) expect(pickVersion(full, r)).not.toBeNull();
    });

    it('splits uniform random points in the configured proportions', () => {
      const counts: Record<string, number> = { a: 0, b: 0, parent: 0 };
      const n = 10_000;
      for (let i = 0; i < n; i++) counts[pickVersion(shares, (i + 0.5) / n) ?? 'parent']! += 1;
      expect(counts).toEqual({ a: 2000, b: 3000, parent: 5000 });
    });
  });

  describe('redistribute', () => {
    it('spreads a freed share in proportion to the remaining shares', () => {
      const result = redistribute(
        [
          { id: 'a', share: 2000 },
          { id: 'b', share: 6000 },
        ],
        2000,
      );
      expect(result).toEqual([
        { id: 'a', share: 2500 },
        { id: 'b', share: 7500 },
      ]);
    });

    it('preserves the sum to the hundredth when the split does not divide evenly', () => {
      const remaining = [
        { id: 'a', share: 1 },
        { id: 'b', share: 1 },
        { id: 'c', share: 1 },
      ];
      const result = redistribute(remaining, 100);
      expect(total(result)).toBe(103);
      expect(result.map((r) => r.share).sort()).toEqual([34, 34, 35]);
    });

    it('splits equally when every remaining version holds 0%', () => {
      expect(
        redistribute(
          [
            { id: 'a', share: 0 },
            { id: 'b', share: 0 },
          ],
          3333,
        ),
      ).toEqual([
        { id: 'a', share: 1667 },
        { id: 'b', share: 1666 },
      ]);
    });

    it('changes nothing when nothing is freed or nobody is left to take it', () => {
      expect(redistribute([{ id: 'a', share: 10 }], 0)).toEqual([{ id: 'a', share: 10 }]);
      expect(redistribute([], 5000)).toEqual([]);
    });

    it('keeps the total for many random cases', () => {
      let seed = 7;
      const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
      for (let round = 0; round < 200; round++) {
        const remaining = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => ({ id: String(i), share: Math.floor(random() * 1500) }));
        const freed = Math.floor(random() * (10_000 - total(remaining)));
        const result = redistribute(remaining, freed);
        expect(total(result)).toBe(total(remaining) + freed);
        result.forEach((r, i) => expect(r.share).toBeGreaterThanOrEqual(remaining[i]!.share));
      }
    });
  });
});
