import { createSign, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_USAGE_TYPE, verifyStatementSignature } from './jws';
import type { JsonObject } from './statement-equality';

// A self-signed test certificate (CN=test, valid for a century) and its key,
// made once with: openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=test
// Node can sign with a key but cannot issue a certificate, so they are fixtures.
const CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIDATCCAemgAwIBAgIUYvWSMShLZHmcZ0UuOcxAIzZyVDMwDQYJKoZIhvcNAQEL
BQAwDzENMAsGA1UEAwwEdGVzdDAgFw0yNjExMjUwMTQzMjRaGA8yMTI2MTEwMTAx
NDMyNFowDzENMAsGA1UEAwwEdGVzdDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCC
AQoCggEBAJ/fDjhf5DADDXxVCOfwgmj8Mv2CtdQkSu+xCxEVlB5KS/r3PsZ0uYDs
31AfzKhLxXlKAPrFYXH+9jdrBICEIDAXB744KT6A5u68i/PWA+sl6G6cbtaX9rC4
y3INaIHz8tsu1gUdFrEyYjrUoExIyzc2L5yDIp00VSIB35as/thCS2oaZdz0/uVx
97P+1n6hyDJhnQhUfj05V9q9Ea5s91k7NROZ9XGQbMtnK/YFyPpph2/o22XEcNtZ
M/WzwX2Habn2SaSjlgBwyH+pnPPkRsMNGzSMiG+My7kZmCLERweN9yk6boqJzC5i
g2y06nBm9jRlgJI4FEGRzIUslsk3LW8CAwEAAaNTMFEwHQYDVR0OBBYEFLuSwZqf
KrhWKaz/QU6wPtmZIMYJMB8GA1UdIwQYMBaAFLuSwZqfKrhWKaz/QU6wPtmZIMYJ
MA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAIijoxptQ8MIFEDO
T05qZzWLsVf0RLTr5WNmzNtOP32/snGh4FcwJoZ6KQGjLnbm4+3c9C87LjJjbjqE
lgTbpJEy4m8AKaxB+RyGo/3NHah2lfABpkQsAY4HafTbfotLra2GPRVPEevOqoL5
nKXJbR1nQ9ClC66IePoxWXYIon9zhzTinifQyVff8P+f4h+zgimdQDShNGRVryeY
sCIe7heKOgjk18wF1g25pyH7RO4jzCStagC8L0JfBdjIvoErhq+r9FTqrmfaE1hw
1O26bVb5hyGyR6SzNHcSzgPgxny3pwunhqVmHXOPiNfoNko4EpTA4s19Mnuq3hIM
qAbHHBM=
-----END CERTIFICATE-----`;
const PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCf3w44X+QwAw18
VQjn8IJo/DL9grXUJErvsQsRFZQeSkv69z7GdLmA7N9QH8yoS8V5SgD6xWFx/vY3
awSAhCAwFwe+OCk+gObuvIvz1gPrJehunG7Wl/awuMtyDWiB8/LbLtYFHRaxMmI6
1KBMSMs3Ni+cgyKdNFUiAd+WrP7YQktqGmXc9P7lcfez/tZ+ocgyYZ0IVH49OVfa
vRGubPdZOzUTmfVxkGzLZyv2Bcj6aYdv6NtlxHDbWTP1s8F9h2m59kmko5YAcMh/
qZzz5EbDDRs0jIhvjMu5GZgixEcHjfcpOm6KicwuYoNstOpwZvY0ZYCSOBRBkcyF
LJbJNy1vAgMBAAECggEATWxOLDIQRcosrUJXOlBJL8O3g/tZyH+9BMCWTfNH1LWB
f2xeq+iab9wHN/v2dqifXWJgABI342eo4OTEfOK/3dpBZzc2ji0J6aNJGdDS+/3T
R0IeEXHtx97us/DXZFv6iHhxsG9Kbo0qcjhH2znDpJzqyN7fFAfklMAYgpWMI7mO
+Pwmt0rSEo6zEyEnQmMidGgt0e847M/S0uUGvy6OzdE/9KqtQgfh9qUYBafhmtbu
t3tqb+z77MzK1Yqzj34El5VCPKreGuTo+MY9gh1C/ReJXjnME4atHOei4ekA9TgC
/bWULfYBPK+9BU7MhrasxmzaoT/g7NRNIYeipafM/QKBgQDYoR3Vfqh+dqC8jHFV
BWVrVIfRAS6NW1r0VlOXrer9c5kUtOodkhJwUNDPPqUv/mF4UuuSZBvtxuGGKt2s
npfx1oGqzi1fTazqgNAJ3n74CNLW70nlsB/j+PI53jXBlbXkQ5RXBGpoSoFf3qgz
8T4NXiEWhUQh61BjeljAlo42mwKBgQC87Te4xV5qzAuDqQ6mZiUGevczDpSieCBp
Qy8mm1i7MY+0qpkhV//xvSadm84GlyWSXtvN4a+DsuBSKCWAcLnm4wJT8kKV6QdG
bGQwY+Yq8K817V9tuU81oWBT0GJgqY9AyEKUXzDlSkGZ/H9nSAHrQo4csIiaonPO
dNXsoonnvQKBgQCnTi/TbkHFger8E9+HkWZVsXA/fBEu/SpO4MkosRp26quEsYDK
m8D/23qZRMGhQm6W1ju30Pc8+ce9rieMJOQm08tLVnb2TvBIIHoL1TnsaCwl8aL5
8L+AewjgpnyP6QcUpxjO58sihsBKgZUYoK2S92rIkN4g8DMi0R/whZaKFwKBgGUi
q+Car2eGYWeSuYf0SD/G1cwcMw8iNV+EGpqVMJPM/Tve02iZHic/dYuLm2fFw9Qu
OYZmGTnsKM9yNFkkfzANN/LOTjzH6SAW6C9LWyyDeZfpwVsQh0mTYOidNfy+6DPq
wFGC/77O2H1hQKZ+UqCpGUBcdFQrQMk1nEs325EVAoGBAMm6f9g8OxhTCrS1R3PD
Y/c6KfxRvCy378LMBYzUcc/Gy0qZpeSC/gJeOBGey1Me7Oo+Cz5S6PtJSxwfYJ/8
S04BVG1VKe0KsxUHNQkv6ejqemU4YkT7+HkPdPwQOtqt7s2IYNKuV13nGH16oU3S
ZiNeCWcJdJViwSHXQ81e45NA
-----END PRIVATE KEY-----`;

/** x5c holds base64 DER, which is the PEM body without its armour. */
const CERTIFICATE_BASE64 = new X509Certificate(CERTIFICATE_PEM).raw.toString('base64');

const DIGESTS: Record<string, string> = { RS256: 'RSA-SHA256', RS384: 'RSA-SHA384', RS512: 'RSA-SHA512' };

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function sign(header: JsonObject, payload: JsonObject | string, key: string = PRIVATE_KEY_PEM): string {
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(
    typeof payload === 'string' ? payload : JSON.stringify(payload),
  )}`;
  const alg = typeof header.alg === 'string' ? header.alg : 'RS256';
  const signature = createSign(DIGESTS[alg] ?? 'RSA-SHA256')
    .update(signingInput)
    .sign(key)
    .toString('base64url');
  return `${signingInput}.${signature}`;
}

const original = (): JsonObject => ({
  id: 'c0a80a3b-5a1c-4b8e-9d2e-3f4a5b6c7d8e',
  actor: { objectType: 'Agent', mbox: 'mailto:ada@example.com' },
  verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
  object: { id: 'https://courselens.example/courses/1' },
  result: { score: { scaled: 0.8 } },
});

/** What the LRS receives: the signed statement plus its signature attachment. */
const received = (): JsonObject => ({
  ...original(),
  attachments: [
    {
      usageType: SIGNATURE_USAGE_TYPE,
      display: { 'en-US': 'Signature' },
      contentType: 'application/octet-stream',
      length: 512,
      sha2: 'a'.repeat(64),
    },
  ],
});

describe('verifyStatementSignature', () => {
  it('accepts a good RS256, RS384 or RS512 signature with the certificate in x5c', () => {
    for (const alg of ['RS256', 'RS384', 'RS512']) {
      const jws = sign({ alg, x5c: [CERTIFICATE_BASE64] }, original());
      expect(verifyStatementSignature(jws, received()), alg).toEqual({ ok: true });
    }
  });

  it('accepts a signature without x5c, which it cannot check, when the payload matches', () => {
    expect(verifyStatementSignature(sign({ alg: 'RS256' }, original()), received())).toEqual({ ok: true });
  });

  it('ignores what the LRS adds or may assign: authority, stored, version, a timestamp or id the payload lacks', () => {
    const { id: _id, ...withoutId } = original();
    const jws = sign({ alg: 'RS256', x5c: [CERTIFICATE_BASE64] }, withoutId);
    const stored: JsonObject = {
      ...received(),
      authority: { objectType: 'Agent', account: { homePage: 'https://courselens.example', name: 'key' } },
      stored: '2026-01-01T10:00:01Z',
      timestamp: '2026-01-01T10:00:00Z',
      version: '1.0.3',
    };
    expect(verifyStatementSignature(jws, stored)).toEqual({ ok: true });
  });

  it('refuses a payload changed after signing', () => {
    const jws = sign({ alg: 'RS256', x5c: [CERTIFICATE_BASE64] }, original());
    const [header, , signature] = jws.split('.');
    const tampered = `${header}.${base64url(JSON.stringify({ ...original(), result: { score: { scaled: 1 } } }))}.${signature}`;
    expect(verifyStatementSignature(tampered, received())).toEqual({
      ok: false,
      error: "the statement's signature does not verify with the certificate in x5c",
    });
  });

  it('refuses a signature made with another key than the certificate', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const otherKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const jws = sign({ alg: 'RS256', x5c: [CERTIFICATE_BASE64] }, original(), otherKey);
    expect(verifyStatementSignature(jws, received())).toEqual({
      ok: false,
      error: "the statement's signature does not verify with the certificate in x5c",
    });
  });

  it('refuses a payload that is not the statement received', () => {
    const jws = sign({ alg: 'RS256', x5c: [CERTIFICATE_BASE64] }, original());
    const other = { ...received(), result: { score: { scaled: 0.2 } } };
    expect(verifyStatementSignature(jws, other)).toEqual({
      ok: false,
      error: "the signature's payload does not match the statement",
    });
    const otherId = { ...received(), id: '11111111-2222-4333-8444-555555555555' };
    expect(verifyStatementSignature(jws, otherId).ok).toBe(false);
  });

  it('refuses an algorithm xAPI does not allow, naming it', () => {
    const [, payload = ''] = sign({ alg: 'RS256' }, original()).split('.');
    const hs256 = `${base64url(JSON.stringify({ alg: 'HS256' }))}.${payload}.${base64url('mac')}`;
    expect(verifyStatementSignature(hs256, received())).toEqual({
      ok: false,
      error: 'the signature uses alg HS256; xAPI allows only RS256, RS384 or RS512',
    });
    const none = `${base64url(JSON.stringify({ alg: 'none' }))}.${payload}.${base64url('x')}`;
    expect(verifyStatementSignature(none, received())).toMatchObject({
      ok: false,
      error: expect.stringContaining('none'),
    });
    const noAlg = `${base64url(JSON.stringify({ typ: 'JWT' }))}.${payload}.${base64url('x')}`;
    expect(verifyStatementSignature(noAlg, received())).toEqual({
      ok: false,
      error: "the signature's JWS header has no alg",
    });
  });

  it('refuses what is not a compact JWS with JSON header and payload', () => {
    const errorOf = (jws: string) => {
      const result = verifyStatementSignature(jws, received());
      return result.ok ? 'no error' : result.error;
    };
    const notCompact = 'the signature is not a JWS in compact serialization (three base64url parts)';
    expect(errorOf('garbage')).toBe(notCompact);
    expect(errorOf('a.b.c.d')).toBe(notCompact);
    expect(errorOf('a..c')).toBe(notCompact);
    expect(errorOf('a+b.c/d.e=f')).toBe(notCompact);
    const header = base64url(JSON.stringify({ alg: 'RS256' }));
    expect(errorOf(`${base64url('{nope')}.${base64url('{}')}.${base64url('x')}`)).toBe(
      "the signature's JWS header is not a JSON object",
    );
    // As the conformance suite breaks it: one quote of the JSON payload replaced.
    const broken = JSON.stringify(original()).replace('"', "'");
    expect(errorOf(`${header}.${base64url(broken)}.${base64url('x')}`)).toBe(
      "the signature's payload is not a JSON statement",
    );
    expect(errorOf(`${header}.${base64url('[1,2]')}.${base64url('x')}`)).toBe(
      "the signature's payload is not a JSON statement",
    );
  });

  it('refuses an x5c it cannot use', () => {
    const errorOf = (x5c: JsonObject['x5c']) => {
      const result = verifyStatementSignature(
        sign({ alg: 'RS256', x5c: x5c ?? null }, original()),
        received(),
      );
      return result.ok ? 'no error' : result.error;
    };
    expect(errorOf('not-an-array')).toBe("the signature's x5c is not an array of base64 certificates");
    expect(errorOf([])).toBe("the signature's x5c is not an array of base64 certificates");
    expect(errorOf([base64url('not a certificate')])).toBe('the first certificate in x5c cannot be read');
  });
});
