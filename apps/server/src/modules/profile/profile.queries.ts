import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { authUsers, users } from '../../db/schema';

/** Name and e-mail live on the identity and on the profile; both change together. */
export async function updateIdentity(
  db: Database,
  userId: string,
  changes: { name?: string; email?: string },
) {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(authUsers)
      .set(changes)
      .where(eq(authUsers.id, userId))
      .returning({ id: authUsers.id, name: authUsers.name, email: authUsers.email });
    if (user)
      await tx.update(users).set({ name: user.name, email: user.email }).where(eq(users.userId, userId));
    return user;
  });
}
