import { addMonths, periodContaining } from '../../../core/billing/domain/billing-period';

const d = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('adds calendar months, keeping the day and time of day', () => {
    expect(addMonths(d('2026-01-15T08:30:00Z'), 1)).toEqual(d('2026-02-15T08:30:00Z'));
    expect(addMonths(d('2026-11-15T08:30:00Z'), 3)).toEqual(d('2027-02-15T08:30:00Z'));
  });

  it('ends a month on its last day when the anchor day does not exist in it', () => {
    expect(addMonths(d('2026-01-31T00:00:00Z'), 1)).toEqual(d('2026-02-28T00:00:00Z'));
    expect(addMonths(d('2028-01-31T00:00:00Z'), 1)).toEqual(d('2028-02-29T00:00:00Z'));
    // Counted from the anchor, not from the shortened month: March keeps the 31st.
    expect(addMonths(d('2026-01-31T00:00:00Z'), 2)).toEqual(d('2026-03-31T00:00:00Z'));
  });

  it('finds the one-month period that contains a moment', () => {
    const anchor = d('2026-01-31T12:00:00Z');
    expect(periodContaining(anchor, d('2026-02-10T00:00:00Z'))).toEqual({ start: anchor, end: d('2026-02-28T12:00:00Z') });
    expect(periodContaining(anchor, d('2026-02-28T12:00:00Z'))).toEqual({ start: d('2026-02-28T12:00:00Z'), end: d('2026-03-31T12:00:00Z') });
    expect(periodContaining(anchor, d('2026-03-31T11:59:59Z'))).toEqual({ start: d('2026-02-28T12:00:00Z'), end: d('2026-03-31T12:00:00Z') });
    expect(periodContaining(anchor, d('2027-06-01T00:00:00Z'))).toEqual({ start: d('2027-05-31T12:00:00Z'), end: d('2027-06-30T12:00:00Z') });
  });

  it('treats a moment before the anchor as the first period', () => {
    const anchor = d('2026-05-10T00:00:00Z');
    expect(periodContaining(anchor, d('2026-05-09T23:59:59Z'))).toEqual({ start: anchor, end: d('2026-06-10T00:00:00Z') });
  });

  it('tiles time without gaps or overlaps over several years', () => {
    const anchor = d('2024-01-31T05:00:00Z');
    let at = anchor;
    for (let i = 0; i < 60; i++) {
      const period = periodContaining(anchor, at);
      expect(period.start).toEqual(at);
      expect(period.end.getTime()).toBeGreaterThan(at.getTime());
      expect(periodContaining(anchor, new Date(period.end.getTime() - 1)).start).toEqual(period.start);
      at = period.end;
    }
  });
});
