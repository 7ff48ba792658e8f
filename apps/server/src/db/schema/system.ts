import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps, timestamptz } from './columns';

/**
 * Process-independent settings the server creates itself, e.g. the auth
 * secret generated on first start when AUTH_SECRET is not configured, so
 * every process and every restart signs with the same one.
 */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  ...timestamps(),
});

/**
 * Fixed-window counters for rate limits (e.g. sign-in per IP and per e-mail),
 * kept in the database so every process sees the same counts.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  /** What is limited, e.g. `sign-in:ip:203.0.113.9`. */
  key: text('key').primaryKey(),
  windowStartedAt: timestamptz('window_started_at').notNull(),
  hits: integer('hits').notNull(),
});

export type AppSetting = typeof appSettings.$inferSelect;
