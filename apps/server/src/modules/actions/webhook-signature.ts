import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@courselens/contracts';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): every
 * request carries `webhook-id` (the message id, the same on every retry),
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), keyed with the bytes
 * of the base64 secret after `whsec_`. Receivers verify with any Standard
 * Webhooks library (or Svix's).
 */

/** 256 random bits: the spec allows 24 to 64 bytes. */
const SECRET_BYTES = 32;
/** How far a verifier accepts a timestamp from its clock (the spec's reference libraries use 5 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** What the list shows to tell secrets apart: the prefix and 4 characters. */
export function webhookSecretHint(secret: string): string {
  return `${secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4)}…`;
}

/** A new message id (`msg_` and 128 random bits), for a delivery that has none of its own. */
export function newWebhookMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}

/** `v1,<signature>` of one message. */
export function signWebhook(input: { secret: string; id: string; timestamp: number; body: string }): string {
  const signature = createHmac('sha256', secretKey(input.secret))
    .update(`${input.id}.${input.timestamp}.${input.body}`)
    .digest('base64');
  return `v1,${signature}`;
}

/** The three headers of a signed request. */
export function webhookSignatureHeaders(input: { secret: string; id: string; body: string; now?: Date }): {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
} {
  const timestamp = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ secret: input.secret, id: input.id, timestamp, body: input.body }),
  };
}

/**
 * What a receiver does: true when one of the space-separated `v1,` signatures
 * matches and the timestamp is within the tolerance. Used by our tests (and
 * as a reference for receivers written in TypeScript).
 */
export function verifyWebhook(input: {
  secret: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  now?: Date;
  toleranceSeconds?: number;
}): boolean {
  const header = (name: string) => {
    const value = input.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestampText = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestampText || !signatures || !/^\d+$/.test(timestampText)) return false;
  const timestamp = Number(timestampText);
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signWebhook({ secret: input.secret, id, timestamp, body: input.body }));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
