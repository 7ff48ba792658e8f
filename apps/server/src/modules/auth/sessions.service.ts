import type { Database } from '../../db/client';
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS, SESSION_REFRESH_SECONDS } from './auth';
import { deleteSession, extendSession, findSessionWithUser } from './sessions.queries';

export type SessionCaller = {
  kind: 'session';
  sessionId: string;
  userId: string;
  name: string;
  email: string;
};

/**
 * The person behind a bearer session token, or null. Applies the session
 * lifetime: 7 days idle (sliding, extended at most once a day, as Better Auth
 * does) and 30 days after sign-in at most; a session past either is deleted.
 */
export async function resolveSession(
  db: Database,
  token: string,
  now = new Date(),
): Promise<SessionCaller | null> {
  const row = await findSessionWithUser(db, token);
  if (!row) return null;
  const isIdleExpired = row.expiresAt.getTime() <= now.getTime();
  const isTooOld = row.createdAt.getTime() + SESSION_ABSOLUTE_SECONDS * 1000 <= now.getTime();
  if (isIdleExpired || isTooOld) {
    await deleteSession(db, row.sessionId);
    return null;
  }
  const refreshDueAt = row.expiresAt.getTime() - (SESSION_IDLE_SECONDS - SESSION_REFRESH_SECONDS) * 1000;
  if (now.getTime() >= refreshDueAt) {
    const absoluteEnd = row.createdAt.getTime() + SESSION_ABSOLUTE_SECONDS * 1000;
    const expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_SECONDS * 1000, absoluteEnd));
    await extendSession(db, row.sessionId, expiresAt);
  }
  return { kind: 'session', sessionId: row.sessionId, userId: row.userId, name: row.name, email: row.email };
}

/** Sign-out: the token stops working at once. */
export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
}
