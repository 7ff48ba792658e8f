import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys, type NewApiKey } from '../../db/schema';

const listedColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  createdAt: apiKeys.createdAt,
};

export async function listApiKeyRows(db: Database, organizationId: string) {
  return db
    .select(listedColumns)
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function insertApiKeyRow(db: Database, values: NewApiKey) {
  const [row] = await db.insert(apiKeys).values(values).returning(listedColumns);
  return row;
}

export async function findApiKeyRow(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select(listedColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)))
    .limit(1);
  return row;
}

export async function revokeApiKeyRow(db: Database, organizationId: string, id: string, now: Date) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning(listedColumns);
  return row;
}

export async function findApiKeyByHash(db: Database, keyHash: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      keyHash: apiKeys.keyHash,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row;
}

export async function touchApiKey(
  db: Database,
  organizationId: string,
  id: string,
  now: Date,
): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)));
}
