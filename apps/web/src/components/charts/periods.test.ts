import { describe, expect, it } from 'vitest';

import { isCurrentPeriod, partialPeriodLabel } from './periods';

describe('isCurrentPeriod', () => {
  const now = new Date('2026-03-11T15:00:00Z'); // a Wednesday

  it('flags the day, week (from Monday) and month that are not over yet', () => {
    expect(isCurrentPeriod('2026-03-11', 'day', now)).toBe(true);
    expect(isCurrentPeriod('2026-03-10', 'day', now)).toBe(false);
    expect(isCurrentPeriod('2026-03-09', 'week', now)).toBe(true);
    expect(isCurrentPeriod('2026-03-02', 'week', now)).toBe(false);
    expect(isCurrentPeriod('2026-03-01', 'month', now)).toBe(true);
    expect(isCurrentPeriod('2026-02-01', 'month', now)).toBe(false);
  });

  it('never flags a period that has not started or a date it cannot read', () => {
    expect(isCurrentPeriod('2026-03-16', 'week', now)).toBe(false);
    expect(isCurrentPeriod('not a date', 'day', now)).toBe(false);
  });

  it('names the unfinished period', () => {
    expect(partialPeriodLabel('week')).toBe('This week so far');
    expect(partialPeriodLabel('day')).toBe('Today so far');
  });
});
