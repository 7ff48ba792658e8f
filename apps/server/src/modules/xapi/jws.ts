import { createVerify, X509Certificate } from 'node:crypto';
import { isJsonObject, sameStatement, type Json, type JsonObject } from './statement-equality';

/**
 * Signed Statements (xAPI 1.0.3 Data 2.6). A Statement is signed by an
 * attachment with usageType `SIGNATURE_USAGE_TYPE` and contentType
 * application/octet-stream whose content is a JWS in compact serialization
 * (RFC 7515): base64url(header).base64url(payload).base64url(signature),
 * the payload being the Statement as it was before the signature was added.
 */

export const SIGNATURE_USAGE_TYPE = 'http://adlnet.gov/expapi/attachments/signature';
export const SIGNATURE_CONTENT_TYPE = 'application/octet-stream';

export type SignatureCheck = { ok: true } | { ok: false; error: string };

/** JWS alg to the node:crypto digest of RSASSA-PKCS1-v1_5, the only family xAPI allows. */
const ALGORITHMS = new Map([
  ['RS256', 'RSA-SHA256'],
  ['RS384', 'RSA-SHA384'],
  ['RS512', 'RSA-SHA512'],
]);

/**
 * Properties left out on both sides before comparing the payload with the
 * received Statement: the LRS sets or may replace the first three, and the
 * signature attachment cannot be part of what it signs.
 */
const NOT_SIGNED = ['authority', 'stored', 'version', 'attachments'] as const;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks the JWS of a signed Statement: well formed, an RS256/384/512
 * algorithm, a payload that is the same Statement as `statement` (see
 * `sameStatement`; an `id` or `timestamp` the payload lacks is not a
 * difference, since the LRS may have assigned it) and, when the header
 * carries an X.509 chain in `x5c`, a signature that verifies with the first
 * certificate. Without `x5c` the signature itself cannot be checked and is
 * accepted: the specification makes that check a way to catch mistakes, not a
 * trust decision.
 */
export function verifyStatementSignature(jws: string, statement: JsonObject): SignatureCheck {
  const segments = jws.trim().split('.');
  const [encodedHeader = '', encodedPayload = '', encodedSignature = ''] = segments;
  if (segments.length !== 3 || !segments.every((segment) => BASE64URL.test(segment))) {
    return {
      ok: false,
      error: 'the signature is not a JWS in compact serialization (three base64url parts)',
    };
  }
  const header = parseJsonSegment(encodedHeader);
  if (!isJsonObject(header)) return { ok: false, error: "the signature's JWS header is not a JSON object" };
  const payload = parseJsonSegment(encodedPayload);
  if (!isJsonObject(payload)) {
    return { ok: false, error: "the signature's payload is not a JSON statement" };
  }

  const { alg } = header;
  if (typeof alg !== 'string') return { ok: false, error: "the signature's JWS header has no alg" };
  const digest = ALGORITHMS.get(alg);
  if (digest === undefined) {
    return { ok: false, error: `the signature uses alg ${alg}; xAPI allows only RS256, RS384 or RS512` };
  }

  if (header.x5c !== undefined) {
    const checked = verifyWithCertificate(
      header.x5c,
      digest,
      encodedHeader,
      encodedPayload,
      encodedSignature,
    );
    if (!checked.ok) return checked;
  }

  if (!sameStatement(withoutUnsigned(payload), withoutUnsigned(statement))) {
    return { ok: false, error: "the signature's payload does not match the statement" };
  }
  return { ok: true };
}

function parseJsonSegment(segment: string): Json | undefined {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Json;
  } catch {
    return undefined;
  }
}

function withoutUnsigned(statement: JsonObject): JsonObject {
  const copy = { ...statement };
  for (const key of NOT_SIGNED) delete copy[key];
  return copy;
}

function verifyWithCertificate(
  x5c: Json,
  digest: string,
  encodedHeader: string,
  encodedPayload: string,
  encodedSignature: string,
): SignatureCheck {
  const [first] = Array.isArray(x5c) ? x5c : [];
  if (typeof first !== 'string') {
    return { ok: false, error: "the signature's x5c is not an array of base64 certificates" };
  }
  let certificate: X509Certificate;
  try {
    // x5c holds standard base64 DER (RFC 7515 section 4.1.6), not base64url.
    certificate = new X509Certificate(Buffer.from(first, 'base64'));
  } catch {
    return { ok: false, error: 'the first certificate in x5c cannot be read' };
  }
  if (certificate.publicKey.asymmetricKeyType !== 'rsa') {
    return { ok: false, error: 'the certificate in x5c has no RSA key, which RS256/384/512 need' };
  }
  const isValid = createVerify(digest)
    .update(`${encodedHeader}.${encodedPayload}`)
    .verify(certificate.publicKey, Buffer.from(encodedSignature, 'base64url'));
  return isValid
    ? { ok: true }
    : { ok: false, error: "the statement's signature does not verify with the certificate in x5c" };
}
