import type { ApiKeyBody } from '@courselens/contracts';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** Whether a key still works: revoked wins over expired; a key without an expiry never expires. */
export function apiKeyStatus(apiKey: ApiKeyBody, now: Date = new Date()): ApiKeyStatus {
  if (apiKey.revoked_at) return 'revoked';
  if (apiKey.expires_at && new Date(apiKey.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}
