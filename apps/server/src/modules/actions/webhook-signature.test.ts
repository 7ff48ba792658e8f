import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookSecretHint,
  webhookSignatureHeaders,
} from './webhook-signature';

describe('Standard Webhooks signing', () => {
  it('reproduces the published test vector of the specification exactly', () => {
    // From the Standard Webhooks reference libraries: a receiver's library accepts what matches it.
    expect(
      signWebhook({
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestamp: 1614265330,
        body: '{"test": 2432232314}',
      }),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes whsec_ secrets of 256 random bits, different every time, with a short hint', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(webhookSecretHint(secret)).toBe(`${secret.slice(0, 10)}…`);
  });

  it('signs what a receiver verifies, and nothing else', () => {
    const secret = generateWebhookSecret();
    const now = new Date('2026-02-01T10:00:00Z');
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (body, other) => {
        const headers = webhookSignatureHeaders({ secret, id: 'msg_1', body, now });
        expect(headers['webhook-timestamp']).toBe('1769940000');
        expect(verifyWebhook({ secret, headers, body, now })).toBe(true);
        if (other !== body) expect(verifyWebhook({ secret, headers, body: other, now })).toBe(false);
      }),
    );
  });

  it('refuses another secret, an old timestamp, a changed id and missing headers', () => {
    const secret = generateWebhookSecret();
    const now = new Date('2026-02-01T10:00:00Z');
    const body = '{"type":"course.completed"}';
    const headers = webhookSignatureHeaders({ secret, id: 'msg_2', body, now });
    expect(verifyWebhook({ secret: generateWebhookSecret(), headers, body, now })).toBe(false);
    expect(verifyWebhook({ secret, headers, body, now: new Date(now.getTime() + 6 * 60_000) })).toBe(false);
    expect(verifyWebhook({ secret, headers: { ...headers, 'webhook-id': 'msg_3' }, body, now })).toBe(false);
    expect(verifyWebhook({ secret, headers: { 'webhook-id': 'msg_2' }, body, now })).toBe(false);
    // Several signatures (as during a rotation on the receiver's side): one match is enough.
    const several = { ...headers, 'webhook-signature': `v1,bm9wZQ== ${headers['webhook-signature']}` };
    expect(verifyWebhook({ secret, headers: several, body, now })).toBe(true);
  });
});
