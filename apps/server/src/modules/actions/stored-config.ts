import {
  actionConfigInput,
  WEBHOOK_METHODS,
  type ActionConfig,
  type ActionConfigView,
  type WebhookConfig,
} from '@courselens/contracts';
import { z } from 'zod';
import { isSealed, type SecretBox } from './secret-box';

/**
 * How an action's settings sit in `actions.config` (jsonb): the settings of
 * its type as the contract outputs them, except a webhook's secrets, which
 * are sealed (`secret-box.ts`): its signing secret and the values of the
 * headers marked secret. Plain values are stored as typed.
 */

export type StoredHeader =
  { name: string; secret: false; value: string } | { name: string; secret: true; sealed: string };

export type StoredWebhookConfig = Omit<WebhookConfig, 'headers'> & {
  headers: StoredHeader[];
  /** The sealed `whsec_…` signing secret. */
  signingSecret: string;
  /** The start of the secret, shown to tell secrets apart. */
  secretHint: string;
};

export type StoredActionConfig = StoredWebhookConfig | Exclude<ActionConfig, WebhookConfig>;

const sealedString = z.string().refine(isSealed);

const storedWebhookSchema = z.object({
  type: z.literal('webhook'),
  url: z.string(),
  method: z.enum(WEBHOOK_METHODS),
  headers: z.array(
    z.union([
      z.object({ name: z.string(), secret: z.literal(false), value: z.string() }),
      z.object({ name: z.string(), secret: z.literal(true), sealed: sealedString }),
    ]),
  ),
  bodyTemplate: z.string().nullable(),
  signingSecret: sealedString,
  secretHint: z.string(),
});

/** The stored settings of a row, checked: a row that does not read is a bug, reported as such. */
export function readStoredConfig(actionType: string, config: unknown): StoredActionConfig {
  const value = { ...(config as Record<string, unknown>), type: actionType };
  if (actionType === 'webhook') return storedWebhookSchema.parse(value);
  const parsed = actionConfigInput.parse(value);
  if (parsed.type === 'webhook') throw new Error('a webhook config was stored under another type');
  return parsed;
}

/** Where a sealed value belongs: a value copied elsewhere does not open. */
export function sealContext(
  organizationId: string,
  actionId: string,
  field: { kind: 'signing-secret' } | { kind: 'header'; name: string },
): string {
  const part = field.kind === 'signing-secret' ? 'signing-secret' : `header:${field.name.toLowerCase()}`;
  return `actions/${organizationId}/${actionId}/${part}`;
}

/** The settings as the API shows them: no secret, sealed or not. */
export function toConfigView(config: StoredActionConfig): ActionConfigView {
  if (config.type !== 'webhook') return config;
  return {
    type: 'webhook',
    url: config.url,
    method: config.method,
    headers: config.headers.map((header) =>
      header.secret
        ? { name: header.name, value: null, secret: true }
        : { name: header.name, value: header.value, secret: false },
    ),
    bodyTemplate: config.bodyTemplate,
  };
}

/** The headers of a webhook with their values in clear, for sending (throws SecretUnreadableError). */
export function openHeaders(
  box: SecretBox,
  organizationId: string,
  actionId: string,
  headers: readonly StoredHeader[],
): { name: string; value: string; secret: boolean }[] {
  return headers.map((header) =>
    header.secret
      ? {
          name: header.name,
          value: box.open(
            header.sealed,
            sealContext(organizationId, actionId, { kind: 'header', name: header.name }),
          ),
          secret: true,
        }
      : { name: header.name, value: header.value, secret: false },
  );
}
