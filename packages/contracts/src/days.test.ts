import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, localToday, previousPeriodOf } from './days';

describe('ISO day arithmetic', () => {
  it('counts whole days and finds the previous period of equal length', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2026-03-31', '2026-03-01')).toBe(-30);
    // A clock change inside the period changes nothing: these are calendar days.
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(previousPeriodOf({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: '2026-01-29',
      to: '2026-02-28',
    });
    expect(previousPeriodOf({ from: '2026-03-10', to: '2026-03-10' })).toEqual({
      from: '2026-03-09',
      to: '2026-03-09',
    });
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('reads today on the clock of a time zone', () => {
    const now = new Date('2026-03-31T23:30:00Z');
    expect(localToday('UTC', now)).toBe('2026-03-31');
    expect(localToday('Europe/Berlin', now)).toBe('2026-04-01');
    expect(localToday('America/Los_Angeles', now)).toBe('2026-03-31');
  });
});
