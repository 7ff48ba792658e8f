import { sql, type SQL } from 'drizzle-orm';

/**
 * Most buckets a chart's time axis has, whatever the data holds: two values
 * dated 0001 and 9999 must not make a chart of three million days. When the
 * data spans more, the axis keeps the latest buckets (the ones people read).
 */
export const MAX_TIME_BUCKETS = 2000;

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
