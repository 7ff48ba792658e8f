import { isIPv4, isIPv6 } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
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

/** The hits one call took, one per limit; `giveBack` returns some of them. */
export type TakenHits = {
  /** Returns the hit taken from each of these limits (all when omitted), e.g. for a success that should not count. */
  giveBack: (limits?: RateLimit[]) => Promise<void>;
};

/** Buckets idle this long are deleted now and then, so the table stays small. */
const BUCKET_RETENTION_MS = 24 * 3600 * 1000;

/**
 * Takes one hit from every limit before the work it guards runs, or throws a
 * 429 that says when to retry when any limit is used up (the hits taken are
 * given back then, so refused attempts do not count).
 *
 * Fixed-window counters in the database (table `rate_limit_buckets`), so the
 * limit holds across processes and restarts on both engines. Each hit is one
 * `INSERT ... ON CONFLICT DO UPDATE ... RETURNING hits` statement: the row
 * lock serializes concurrent callers, each sees its own count, and at most
 * `limit` of them get through per window. (Checking the count first and
 * adding to it after the work let 11 of 60 parallel sign-ins through a limit
 * of 10.)
 */
export async function takeHits(
  db: Database,
  limits: RateLimit[],
  what: string,
  now = new Date(),
): Promise<TakenHits> {
  if (Math.random() < 0.02) {
    const cutoff = new Date(now.getTime() - BUCKET_RETENTION_MS).toISOString();
    await db
      .delete(rateLimitBuckets)
      .where(sql`${rateLimitBuckets.windowStartedAt} < ${cutoff}::timestamptz`);
  }
  const taken = new Map<string, Date>();
  const giveBack = async (which: RateLimit[] = limits) => {
    for (const { key } of which) {
      const windowStartedAt = taken.get(key);
      if (!windowStartedAt) continue;
      taken.delete(key);
      await db
        .update(rateLimitBuckets)
        .set({ hits: sql`greatest(${rateLimitBuckets.hits} - 1, 0)` })
        .where(
          and(
            eq(rateLimitBuckets.key, key),
            // Only within the window the hit was taken in.
            sql`${rateLimitBuckets.windowStartedAt} = ${windowStartedAt.toISOString()}::timestamptz`,
          ),
        );
    }
  };
  for (const limit of limits) {
    const bucket = await takeHit(db, limit, now);
    taken.set(limit.key, bucket.windowStartedAt);
    if (bucket.hits > limit.limit) {
      await giveBack();
      const endsAt = bucket.windowStartedAt.getTime() + limit.windowMs;
      throw new RateLimitedError(what, Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)));
    }
  }
  return { giveBack };
}

async function takeHit(
  db: Database,
  limit: RateLimit,
  now: Date,
): Promise<{ hits: number; windowStartedAt: Date }> {
  const windowStart = new Date(now.getTime() - limit.windowMs).toISOString();
  const startedAt = now.toISOString();
  const isWindowOver = sql`${rateLimitBuckets.windowStartedAt} <= ${windowStart}::timestamptz`;
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ key: limit.key, windowStartedAt: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${isWindowOver} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${isWindowOver} then ${startedAt}::timestamptz else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({ hits: rateLimitBuckets.hits, windowStartedAt: rateLimitBuckets.windowStartedAt });
  if (!bucket) throw new Error(`rate limit bucket ${limit.key} was not written`);
  return bucket;
}

export async function clearHits(db: Database, keys: string[]): Promise<void> {
  for (const key of keys) await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/**
 * The client address as limits count it: IPv4 as is (also when written as
 * `::ffff:a.b.c.d`), IPv6 by its /64 network, which is what one subscriber
 * or host usually holds, so rotating through a /64 does not reset a limit.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`::1.2.3.4`) counts as two groups; only the first four groups matter here.
  const groups = ip.includes('::')
    ? [
        ...headParts,
        ...Array<string>(Math.max(0, 8 - headParts.length - tailParts.length)).fill('0'),
        ...tailParts,
      ]
    : headParts;
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
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
