import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INSIGHT_MESSAGES,
  MAX_OVERVIEW_DAYS,
  analyticsInsightsQuery,
  analyticsOverviewQuery,
  figureChange,
} from './analytics-insights';
import { addDays, daysBetween, previousPeriodOf } from './days';

describe('figureChange', () => {
  it.each([
    [120, 100, { absolute: 20, percent: 20, direction: 'up' }],
    [80, 100, { absolute: -20, percent: -20, direction: 'down' }],
    [5, 5, { absolute: 0, percent: 0, direction: 'flat' }],
    // From nothing a relative change means nothing: "n/a".
    [3, 0, { absolute: 3, percent: null, direction: 'up' }],
    [0, 0, { absolute: 0, percent: null, direction: 'flat' }],
    // A rate that was not defined (no runs) has no change at all.
    [0.5, null, { absolute: null, percent: null, direction: 'flat' }],
    [null, 0.5, { absolute: null, percent: null, direction: 'flat' }],
    // Rates: the absolute change is in fractions (points), the percent relative.
    [0.55, 0.5, { absolute: 0.05, percent: 10, direction: 'up' }],
    [1 / 3, 1, { absolute: -0.666666667, percent: -66.7, direction: 'down' }],
  ])('%s against %s', (current, previous, expected) => {
    expect(figureChange(current, previous)).toEqual(expected);
  });

  it('points the arrow the way the value moved', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), (current, previous) => {
        const change = figureChange(current, previous);
        expect(change.direction).toBe(current > previous ? 'up' : current < previous ? 'down' : 'flat');
        expect(change.absolute).toBe(current - previous);
        if (previous === 0) expect(change.percent).toBeNull();
        else if (Math.abs(change.percent ?? 0) > 0) {
          expect(Math.sign(change.percent ?? 0)).toBe(Math.sign(current - previous));
        }
      }),
    );
  });
});

describe('periods', () => {
  it('counts days and steps across months, years and leap days', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('compares with the period of the same length just before', () => {
    expect(previousPeriodOf({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: '2026-01-29',
      to: '2026-02-28',
    });
    expect(previousPeriodOf({ from: '2026-05-10', to: '2026-05-10' })).toEqual({
      from: '2026-05-09',
      to: '2026-05-09',
    });
  });
});

describe('analyticsOverviewQuery', () => {
  it('takes a period of up to a year', () => {
    expect(analyticsOverviewQuery.parse({})).toEqual({});
    expect(analyticsOverviewQuery.parse({ from: '2025-01-01', to: '2025-12-31' })).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
    });
    expect(daysBetween('2024-01-01', '2024-12-31') + 1).toBe(MAX_OVERVIEW_DAYS);
    expect(analyticsOverviewQuery.safeParse({ from: '2024-01-01', to: '2024-12-31' }).success).toBe(true);
  });

  it.each([
    [{ from: '2024-01-01', to: '2025-01-01' }, INSIGHT_MESSAGES.periodTooLong],
    [{ from: '2026-03-02', to: '2026-03-01' }, 'The start date must be on or before the end date'],
    [{ from: '1 March' }, 'Dates are YYYY-MM-DD'],
  ])('refuses %j with a message a person can act on', (query, message) => {
    const result = analyticsOverviewQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(message);
  });
});

describe('analyticsInsightsQuery', () => {
  it('lists the open findings unless asked for the dismissed ones', () => {
    expect(analyticsInsightsQuery.parse({})).toEqual({ status: 'open' });
    expect(analyticsInsightsQuery.parse({ status: 'dismissed' })).toEqual({ status: 'dismissed' });
    expect(analyticsInsightsQuery.safeParse({ status: 'all' }).error?.issues[0]?.message).toBe(
      INSIGHT_MESSAGES.badStatus,
    );
  });
});
