import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { authSessions, authUsers } from '../../db/schema';

export async function findSessionWithUser(db: Database, token: string) {
  const [row] = await db
    .select({
      sessionId: authSessions.id,
      createdAt: authSessions.createdAt,
      expiresAt: authSessions.expiresAt,
      userId: authUsers.id,
      name: authUsers.name,
      email: authUsers.email,
    })
    .from(authSessions)
    .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
    .where(eq(authSessions.token, token))
    .limit(1);
  return row;
}

export async function extendSession(db: Database, sessionId: string, expiresAt: Date): Promise<void> {
  await db.update(authSessions).set({ expiresAt }).where(eq(authSessions.id, sessionId));
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.id, sessionId));
}
