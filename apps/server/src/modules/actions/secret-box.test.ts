import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed, SecretUnreadableError } from './secret-box';

describe('the secret box', () => {
  const box = createSecretBox('a-server-auth-secret-of-at-least-32-chars');

  it('opens what it sealed, for the same context, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (plaintext, context) => {
        const sealed = box.seal(plaintext, context);
        expect(isSealed(sealed)).toBe(true);
        expect(box.open(sealed, context)).toBe(plaintext);
      }),
    );
  });

  it('never shows the plaintext, and seals the same text differently each time', () => {
    const sealed = box.seal('whsec_super-secret-value', 'ctx');
    expect(sealed).not.toContain('super-secret');
    expect(box.seal('whsec_super-secret-value', 'ctx')).not.toBe(sealed);
  });

  it('refuses another context, another key and any change', () => {
    const sealed = box.seal('value', 'actions/org-a/action-1/signing-secret');
    expect(() => box.open(sealed, 'actions/org-b/action-1/signing-secret')).toThrow(SecretUnreadableError);
    expect(() =>
      createSecretBox('another-server-auth-secret-of-32-chars!').open(
        sealed,
        'actions/org-a/action-1/signing-secret',
      ),
    ).toThrow(SecretUnreadableError);
    const [version, iv, ciphertext = '', tag] = sealed.split('.');
    const flipped = `${ciphertext.startsWith('A') ? 'B' : 'A'}${ciphertext.slice(1)}`;
    expect(() =>
      box.open([version, iv, flipped, tag].join('.'), 'actions/org-a/action-1/signing-secret'),
    ).toThrow(SecretUnreadableError);
    expect(() => box.open('plain text', 'ctx')).toThrow(SecretUnreadableError);
  });
});
