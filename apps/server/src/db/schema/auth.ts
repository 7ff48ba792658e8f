import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { primaryId, timestamps, timestamptz } from './columns';

// Better Auth 1.7 core tables (user, session, account, verification), written
// here because its schema CLI needs Node 22. The TypeScript property names are
// Better Auth's field names (the drizzle adapter maps by them); the columns are
// snake_case. Ids are UUIDs: configure Better Auth with
// `advanced.database.generateId: 'uuid'` and pass
// `schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications }`.

/** A person who can sign in. Their profile per product lives in `users`. */
export const authUsers = pgTable('auth_user', {
  id: primaryId(),
  name: text('name').notNull(),
  /** Stored lower-case by Better Auth. */
  email: text('email').notNull().unique('auth_user_email_unique'),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  ...timestamps(),
});

/** A bearer session; `token` is what the client sends as `Authorization: Bearer`. */
export const authSessions = pgTable(
  'auth_session',
  {
    id: primaryId(),
    expiresAt: timestamptz('expires_at').notNull(),
    token: text('token').notNull().unique('auth_session_token_unique'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    ...timestamps(),
  },
  (table) => [index('auth_session_user_idx').on(table.userId)],
);

/** A way to sign in; e-mail + password is provider `credential` with the hash in `password`. */
export const authAccounts = pgTable(
  'auth_account',
  {
    id: primaryId(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamptz('access_token_expires_at'),
    refreshTokenExpiresAt: timestamptz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    ...timestamps(),
  },
  (table) => [
    index('auth_account_user_idx').on(table.userId),
    uniqueIndex('auth_account_provider_account_unique').on(table.providerId, table.accountId),
  ],
);

/** Short-lived secrets (e-mail verification, password reset). */
export const authVerifications = pgTable(
  'auth_verification',
  {
    id: primaryId(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    ...timestamps(),
  },
  (table) => [index('auth_verification_identifier_idx').on(table.identifier)],
);

export type AuthUser = typeof authUsers.$inferSelect;
export type NewAuthUser = typeof authUsers.$inferInsert;
export type AuthSession = typeof authSessions.$inferSelect;
export type AuthAccount = typeof authAccounts.$inferSelect;
export type NewAuthAccount = typeof authAccounts.$inferInsert;
export type AuthVerification = typeof authVerifications.$inferSelect;
