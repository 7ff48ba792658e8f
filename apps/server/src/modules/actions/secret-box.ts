import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for the secrets of actions (a webhook's signing secret,
 * header values marked secret): AES-256-GCM with a key derived by HKDF from
 * the server's auth secret, so there is no second key to configure and lose.
 * Each value is bound to where it is stored (`context`: organization, action,
 * field), so a sealed value copied to another row or field does not open.
 *
 * A sealed value reads `v1.<iv>.<ciphertext>.<tag>` (base64url parts).
 * Changing AUTH_SECRET makes stored secrets unreadable: the action then says
 * so and the secret is rotated (and secret headers entered again).
 */
export type SecretBox = {
  seal: (plaintext: string, context: string) => string;
  /** Throws SecretUnreadableError when the value was sealed with another key or context, or altered. */
  open: (sealed: string, context: string) => string;
};

export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed, public inputs of HKDF: they separate this key from any other use of the auth secret.
const HKDF_SALT = 'courselens/secret-box';
const HKDF_INFO = 'actions: secrets at rest, AES-256-GCM, v1';

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${VERSION}.`) && value.split('.').length === 4;
}

export function createSecretBox(authSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', authSecret, HKDF_SALT, HKDF_INFO, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, ciphertext, tag]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      if (!isSealed(sealed)) throw new SecretUnreadableError('not a sealed value');
      const [, ivText = '', ciphertextText = '', tagText = ''] = sealed.split('.');
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SecretUnreadableError('malformed sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertextText, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretUnreadableError('the sealed value does not open with this key and context');
      }
    },
  };
}
