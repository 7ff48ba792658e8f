import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_MESSAGES,
  type ApiKeyBody,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { insertActivity } from '../organizations/organizations.queries';
import {
  findApiKeyByHash,
  insertApiKeyRow,
  listApiKeyRows,
  revokeApiKeyRow,
  touchApiKey,
} from './api-keys.queries';

/** Every key starts with this, so leaked keys are easy to recognise and scan for. */
export const API_KEY_PREFIX = 'cl_';
/** last_used_at is written at most this often per key, to keep authentication cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

function toBody(row: ApiKeyRow): ApiKeyBody {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: 'ingest',
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listApiKeys(db: Database, organizationId: string): Promise<ApiKeyBody[]> {
  return (await listApiKeyRows(db, organizationId)).map(toBody);
}

/**
 * A new key: 256 random bits, shown once in the result; the database keeps
 * only its SHA-256 and a display prefix.
 */
export async function createApiKey(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    name: string;
    scope: ApiKeyScope;
    expiresAt: string | null | undefined;
  },
  now = new Date(),
): Promise<CreatedApiKey> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw new AppError('BAD_REQUEST', API_KEY_MESSAGES.expiryInPast);
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertApiKeyRow(db, {
    organizationId: input.organizationId,
    name: input.name,
    prefix: key.slice(0, API_KEY_PREFIX.length + 8),
    keyHash: hashApiKey(key),
    scope: input.scope,
    expiresAt,
    createdBy: input.userId,
  });
  if (!row) throw new Error('api key insert returned no row');
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'api_key.created',
    subjectType: 'api_key',
    subjectId: row.id,
    summary: `API key “${row.name}” created`,
    details: { scope: input.scope, prefix: row.prefix },
  });
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: input.scope,
    expires_at: toBody(row).expires_at,
    key,
  };
}

/** Revokes a key of the organization; revoking twice is harmless. */
export async function revokeApiKey(
  db: Database,
  input: { organizationId: string; userId: string; apiKeyId: string },
  now = new Date(),
): Promise<ApiKeyBody> {
  const row = await revokeApiKeyRow(db, input.organizationId, input.apiKeyId, now);
  if (!row) {
    const existing = (await listApiKeyRows(db, input.organizationId)).find(
      (key) => key.id === input.apiKeyId,
    );
    if (!existing) throw new AppError('NOT_FOUND', API_KEY_MESSAGES.notFound);
    return toBody(existing);
  }
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'api_key.revoked',
    subjectType: 'api_key',
    subjectId: row.id,
    summary: `API key “${row.name}” revoked`,
    details: { prefix: row.prefix },
  });
  return toBody(row);
}

export type ApiKeyCaller = { kind: 'api-key'; apiKeyId: string; organizationId: string };

/**
 * The organization an API key acts for, or null when the key is
 * unknown, revoked or expired (each fails at once). Looks the key up by its
 * SHA-256, compares in constant time, and records the use at most once a
 * minute so hot ingestion paths do not write on every call.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now = new Date(),
): Promise<ApiKeyCaller | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
  const digest = hashApiKey(key);
  const row = await findApiKeyByHash(db, digest);
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(digest, 'hex'))) return null;
  if (row.revokedAt) return null;
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchApiKey(db, row.organizationId, row.id, now);
  }
  return { kind: 'api-key', apiKeyId: row.id, organizationId: row.organizationId };
}
