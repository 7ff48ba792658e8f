import { describe, expect, it } from 'vitest';
import { bucketEnd, isPartialBucket } from './time-axis';

describe('the buckets of a time axis', () => {
  it('end a day, a week or a calendar month after they start (UTC)', () => {
    expect(bucketEnd(new Date('2026-03-02T00:00:00Z'), 'day').toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(bucketEnd(new Date('2026-03-02T00:00:00Z'), 'week').toISOString()).toBe(
      '2026-03-09T00:00:00.000Z',
    );
    expect(bucketEnd(new Date('2026-01-01T00:00:00Z'), 'month').toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(bucketEnd(new Date('2026-12-01T00:00:00Z'), 'month').toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('are partial until they end: today, this week, this month', () => {
    const now = new Date('2026-03-04T15:00:00Z');
    expect(isPartialBucket('2026-03-04', 'day', now)).toBe(true);
    expect(isPartialBucket('2026-03-03', 'day', now)).toBe(false);
    expect(isPartialBucket('2026-03-02', 'week', now)).toBe(true);
    expect(isPartialBucket('2026-02-23', 'week', now)).toBe(false);
    expect(isPartialBucket(new Date('2026-03-01T00:00:00Z'), 'month', now)).toBe(true);
    expect(isPartialBucket('2026-02-01', 'month', now)).toBe(false);
    // The instant a bucket ends it is whole.
    expect(isPartialBucket('2026-03-03', 'day', new Date('2026-03-04T00:00:00Z'))).toBe(false);
  });

  it('take a bucket that does not read as a date as whole', () => {
    expect(isPartialBucket('not a day', 'day', new Date())).toBe(false);
  });
});
