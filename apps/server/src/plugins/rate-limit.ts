import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitBuckets } from '../db/schema';
import { AppError } from '../errors';

export type RateLimit = {
  /** What is counted, e.g. `sign-in:email:ann@example.com`. */
  key: string;
  /** Hits allowed per window. */
  limit: number;
  windowMs: number;
};

/**
 * Fixed-window counters in the database (table `rate_limit_buckets`), so the
 * limit holds across processes and restarts on both engines.
 */
export async function secondsUntilAllowed(
  db: Database,
  limits: RateLimit[],
  now = new Date(),
): Promise<number> {
  let wait = 0;
  for (const limit of limits) {
    const [bucket] = await db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, limit.key));
    if (!bucket) continue;
    const endsAt = bucket.windowStartedAt.getTime() + limit.windowMs;
    if (endsAt > now.getTime() && bucket.hits >= limit.limit) {
      wait = Math.max(wait, Math.ceil((endsAt - now.getTime()) / 1000));
    }
  }
  return wait;
}

/** Buckets idle this long are deleted now and then, so the table stays small. */
const BUCKET_RETENTION_MS = 24 * 3600 * 1000;

/** Counts one hit against each limit, starting a new window where the old one has ended. */
export async function recordHit(db: Database, limits: RateLimit[], now = new Date()): Promise<void> {
  if (Math.random() < 0.02) {
    const cutoff = new Date(now.getTime() - BUCKET_RETENTION_MS).toISOString();
    await db
      .delete(rateLimitBuckets)
      .where(sql`${rateLimitBuckets.windowStartedAt} < ${cutoff}::timestamptz`);
  }
  for (const limit of limits) {
    const windowStart = new Date(now.getTime() - limit.windowMs).toISOString();
    const startedAt = now.toISOString();
    await db
      .insert(rateLimitBuckets)
      .values({ key: limit.key, windowStartedAt: now, hits: 1 })
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: {
          hits: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart}::timestamptz then 1 else ${rateLimitBuckets.hits} + 1 end`,
          windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart}::timestamptz then ${startedAt}::timestamptz else ${rateLimitBuckets.windowStartedAt} end`,
        },
      });
  }
}

export async function clearHits(db: Database, keys: string[]): Promise<void> {
  for (const key of keys) await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/** Throws a 429 whose message says when to retry, when any limit is used up. */
export async function assertWithinLimits(db: Database, limits: RateLimit[], what: string): Promise<void> {
  const wait = await secondsUntilAllowed(db, limits);
  if (wait > 0) throw new RateLimitedError(what, wait);
}

export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(what: string, retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    const when =
      retryAfterSeconds < 60
        ? `${retryAfterSeconds} seconds`
        : `${minutes} minute${minutes === 1 ? '' : 's'}`;
    super('RATE_LIMITED', `Too many ${what}. Try again in ${when}.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
