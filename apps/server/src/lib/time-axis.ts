import { sql, type SQL } from 'drizzle-orm';

/**
 * Most buckets a chart's time axis has, whatever the data holds: two values
 * dated 0001 and 9999 must not make a chart of three million days. When the
 * data spans more, the axis keeps the latest buckets (the ones people read).
 */
export const MAX_TIME_BUCKETS = 2000;

/** The buckets a time axis counts in (UTC; weeks start on Monday, as ISO weeks do). */
export type TimeInterval = 'day' | 'week' | 'month';

/** `'1 week'` and the like, for `generate_series` and interval arithmetic. */
export function intervalStep(interval: TimeInterval): SQL {
  return sql.raw(`'1 ${interval}'`);
}

/** The unit `date_trunc` takes. */
export function intervalUnit(interval: TimeInterval): SQL {
  return sql.raw(`'${interval}'`);
}

/**
 * The `span` of a time axis over a CTE `grouped(bucket, ...)`: from the
 * first bucket with data, or `MAX_TIME_BUCKETS` steps before the last one if
 * that is later, to the last one. Use with
 * `generate_series(span.first, span.last, <step>::interval)`.
 */
export function boundedSpan(step: SQL): SQL {
  return sql`span as (
      select greatest(min(bucket), max(bucket) - ${MAX_TIME_BUCKETS - 1} * ${step}::interval) as first,
             max(bucket) as last
      from grouped
    )`;
}

/**
 * The FROM of a time axis read from `span` and `grouped(bucket, ...)`: every
 * bucket from `span.first` to `span.last` as `s.bucket`, with its group as
 * `g` (null when empty), in time order. Follows the SELECT list.
 */
export function axisBuckets(step: SQL): SQL {
  return sql`from span
    cross join lateral generate_series(span.first, span.last, ${step}::interval) as s(bucket)
    left join grouped g on g.bucket = s.bucket
    where span.first is not null
    order by s.bucket`;
}

/**
 * The `span` of a fixed window: the `buckets` buckets that end with the one
 * holding `now` (the current one included, however empty), as UTC
 * timestamps like `date_trunc` gives. It reads no data, so it can come
 * first and bound what the data CTEs read.
 */
export function windowSpan(interval: TimeInterval, now: Date, buckets: number): SQL {
  const count = Math.max(1, Math.min(MAX_TIME_BUCKETS, Math.floor(buckets)));
  const current = sql`date_trunc(${intervalUnit(interval)}, ${now.toISOString()}::timestamptz at time zone 'UTC')`;
  return sql`span as (
      select ${current} - ${count - 1} * ${intervalStep(interval)}::interval as first, ${current} as last
    )`;
}

const DAY_MS = 86_400_000;

/** When the bucket that starts at `start` (UTC) ends. */
export function bucketEnd(start: Date, interval: TimeInterval): Date {
  switch (interval) {
    case 'day':
      return new Date(start.getTime() + DAY_MS);
    case 'week':
      return new Date(start.getTime() + 7 * DAY_MS);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  }
}

/**
 * True when the bucket starting on `start` (`YYYY-MM-DD` or an instant) has
 * not ended at `now`: today, this week. Its count is not comparable with
 * whole buckets, so charts mark it and trends leave it out of comparisons.
 */
export function isPartialBucket(start: string | Date, interval: TimeInterval, now: Date): boolean {
  const at = start instanceof Date ? start : new Date(`${start.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return false;
  return bucketEnd(at, interval) > now;
}
