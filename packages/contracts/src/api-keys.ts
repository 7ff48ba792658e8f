import { z } from 'zod';

/**
 * The one scope a key has: `ingest` sends learning data to `/api/v1` and
 * reads nothing else, so a key is safe inside a published course. (A `full`
 * scope existed without a route of its own; migration 0010 made the keys
 * issued with it ingest keys: decision 008.)
 */
export const apiKeyScopeSchema = z.literal('ingest', {
  error: 'The only API key scope is "ingest": keys send learning data and read nothing',
});
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** POST /api/api-keys. `expires_at` is an ISO 8601 date-time in the future, or null for no expiry. */
export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters long'),
  expires_at: z
    .union([z.iso.datetime({ offset: true, error: 'Expiry must be an ISO 8601 date-time' }), z.iso.date()])
    .nullish(),
  scope: apiKeyScopeSchema.default('ingest'),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scope: apiKeyScopeSchema,
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type ApiKeyBody = z.infer<typeof apiKeySchema>;

/** GET /api/api-keys: newest first; never the secret. */
export const listApiKeysResponse = z.object({ apiKeys: z.array(apiKeySchema) });
export type ListApiKeysResponse = z.infer<typeof listApiKeysResponse>;

/** 201 of POST /api/api-keys: `key` is shown this once. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  expires_at: z.string().nullable(),
  scope: apiKeyScopeSchema,
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const API_KEY_MESSAGES = {
  expiryInPast: 'Expiry must be in the future',
  notFound: 'API key not found',
} as const;
