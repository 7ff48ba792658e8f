import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildMultipartMixed,
  buildXapiAttachmentResponse,
  parseContentType,
  parseMultipartMixed,
  xapiAttachmentParts,
  type MultipartPart,
} from './multipart';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

const STATEMENT = JSON.stringify({
  actor: { mbox: 'mailto:sample.agent@example.com' },
  verb: { id: 'http://adlnet.gov/expapi/verbs/answered' },
  object: { id: 'http://www.example.com/tincan/activities/multipart' },
});

/** The example of xAPI 1.0.3 Communication 1.5.2, boundary and all. */
const SPEC_BOUNDARY = "abcABC0123'()+_,-./:=?";
const specExample = (lineEnd: string) =>
  Buffer.from(
    [
      '',
      `--${SPEC_BOUNDARY}`,
      'Content-Type:application/json',
      '',
      STATEMENT,
      `--${SPEC_BOUNDARY}`,
      'Content-Type:text/plain',
      'Content-Transfer-Encoding:binary',
      'X-Experience-API-Hash:495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a',
      '',
      'here is a simple attachment',
      `--${SPEC_BOUNDARY}--`,
    ].join(lineEnd),
    'utf8',
  );

function parsed(body: Buffer, contentType: string): MultipartPart[] {
  const result = parseMultipartMixed(body, contentType);
  if (!result.ok) throw new Error(result.error);
  return result.parts;
}

describe('parseMultipartMixed', () => {
  it("reads the specification's example, with CRLF or bare LF line ends", () => {
    for (const lineEnd of ['\r\n', '\n']) {
      const parts = parsed(specExample(lineEnd), `multipart/mixed; boundary="${SPEC_BOUNDARY}"`);
      expect(parts).toHaveLength(2);
      expect(parts[0]?.headers).toEqual({ 'content-type': 'application/json' });
      expect(parts[0]?.body.toString('utf8')).toBe(STATEMENT);
      expect(parts[1]?.headers).toEqual({
        'content-type': 'text/plain',
        'content-transfer-encoding': 'binary',
        'x-experience-api-hash': '495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a',
      });
      expect(parts[1]?.body.toString('utf8')).toBe('here is a simple attachment');
      expect(sha256(parts[1]?.body ?? '')).toBe(
        '495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a',
      );
    }
  });

  it('ignores a preamble and an epilogue, reads an unquoted boundary and keeps binary bodies intact', () => {
    const binary = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x62, 0x0a, 0xfe, 0x0d]);
    const body = Buffer.concat([
      Buffer.from('This is the preamble.\r\n--b1\r\nContent-Type: application/json\r\n\r\n{}\r\n--b1\r\n'),
      Buffer.from('Content-Type: image/png\r\nX-Custom:  spaced value \r\n\r\n'),
      binary,
      Buffer.from('\r\n--b1--\r\nThis is the epilogue, with --b1 in it.\r\n'),
    ]);
    const parts = parsed(body, 'Multipart/Mixed; charset=utf-8; boundary=b1');
    expect(parts.map((part) => part.headers)).toEqual([
      { 'content-type': 'application/json' },
      { 'content-type': 'image/png', 'x-custom': 'spaced value' },
    ]);
    expect(parts[1]?.body.equals(binary)).toBe(true);
  });

  it('treats a line that only starts with the boundary as content', () => {
    const body = Buffer.from('--b\r\n\r\nline one\r\n--bb is not it\r\n--b --\r\n--b--');
    const parts = parsed(body, 'multipart/mixed; boundary=b');
    expect(parts).toHaveLength(1);
    expect(parts[0]?.headers).toEqual({});
    expect(parts[0]?.body.toString()).toBe('line one\r\n--bb is not it\r\n--b --');
  });

  it('reads folded and repeated headers, and a part with headers but no body', () => {
    const body = Buffer.from('--b\r\nX-Long: one\r\n two\r\nX-Twice: a\r\nx-twice: b\r\n\r\n--b--');
    expect(parsed(body, 'multipart/mixed; boundary=b')).toEqual([
      { headers: { 'x-long': 'one two', 'x-twice': 'a, b' }, body: Buffer.alloc(0) },
    ]);
  });

  it('explains what is wrong with a body it cannot read', () => {
    const error = (body: string, contentType: string) => {
      const result = parseMultipartMixed(Buffer.from(body), contentType);
      return result.ok ? 'no error' : result.error;
    };
    expect(error('--b\r\n\r\nx\r\n--b--', 'multipart/mixed')).toBe(
      'multipart/mixed needs a boundary parameter',
    );
    expect(error('--b\r\n\r\nx\r\n--b--', 'multipart/mixed; boundary=""')).toBe(
      'multipart/mixed needs a boundary parameter',
    );
    expect(error('{}', 'application/json')).toBe('expected a multipart/mixed body, got application/json');
    expect(error('--b\r\n\r\nx\r\n--b\r\n\r\ny', 'multipart/mixed; boundary=b')).toBe(
      'the body has no closing boundary --b--',
    );
    expect(error('just text', 'multipart/mixed; boundary=b')).toBe('the body has no boundary line --b');
    expect(error('--b\r\nno blank line here\r\n--b--', 'multipart/mixed; boundary=b')).toBe(
      'part 1 has no blank line between its headers and its body',
    );
    expect(error('--b\r\nnot a header\r\n\r\nbody\r\n--b--', 'multipart/mixed; boundary=b')).toBe(
      'part 1: "not a header" is not a header line',
    );
    expect(error('--b\r\nContent-Type: a/b--b--', 'multipart/mixed; boundary=b')).toBe(
      'the body has no closing boundary --b--',
    );
  });
});

describe('parseContentType', () => {
  it('reads quoted parameters holding ; and escaped quotes', () => {
    const { mediaType, parameters } = parseContentType('multipart/mixed; name="a;\\"b"; BOUNDARY = xyz');
    expect(mediaType).toBe('multipart/mixed');
    expect(parameters.get('name')).toBe('a;"b');
    expect(parameters.get('boundary')).toBe('xyz');
  });
});

describe('xapiAttachmentParts', () => {
  const statementsPart: MultipartPart = {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(STATEMENT),
  };
  const attachment = (content: string, headers: Record<string, string> = {}): MultipartPart => ({
    headers: {
      'content-type': 'text/plain',
      'content-transfer-encoding': 'binary',
      'x-experience-api-hash': sha256(content),
      ...headers,
    },
    body: Buffer.from(content),
  });
  const errorOf = (parts: MultipartPart[]) => {
    const result = xapiAttachmentParts(parts);
    return result.ok ? 'no error' : result.error;
  };

  it('returns the statements and the attachments by their hash', () => {
    const result = xapiAttachmentParts([
      statementsPart,
      attachment('one'),
      attachment('two', { 'content-type': 'image/png' }),
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.statementsJson).toBe(STATEMENT);
    expect([...result.attachments.keys()]).toEqual([sha256('one'), sha256('two')]);
    expect(result.attachments.get(sha256('two'))).toEqual({
      contentType: 'image/png',
      body: Buffer.from('two'),
    });
  });

  it('accepts an upper-case hash and keys the attachment by its lower-case form', () => {
    const result = xapiAttachmentParts([
      statementsPart,
      attachment('one', { 'x-experience-api-hash': sha256('one').toUpperCase() }),
    ]);
    expect(result.ok && [...result.attachments.keys()]).toEqual([sha256('one')]);
  });

  it('checks a SHA-512 hash too', () => {
    const sha512 = createHash('sha512').update('one').digest('hex');
    expect(errorOf([statementsPart, attachment('one', { 'x-experience-api-hash': sha512 })])).toBe(
      'no error',
    );
  });

  it('refuses parts that break what xAPI requires', () => {
    expect(errorOf([])).toBe('the multipart body has no parts; the first must hold the statements');
    expect(errorOf([{ headers: { 'content-type': 'text/plain' }, body: Buffer.from('{}') }])).toBe(
      'part 1 holds the statements and must have Content-Type: application/json, not text/plain',
    );
    expect(errorOf([statementsPart, attachment('one', { 'x-experience-api-hash': sha256('other') })])).toBe(
      'attachment part 2: X-Experience-API-Hash does not match its content',
    );
    const { 'x-experience-api-hash': _hash, ...withoutHash } = attachment('one').headers;
    expect(errorOf([statementsPart, { headers: withoutHash, body: Buffer.from('one') }])).toBe(
      'attachment part 2 has no X-Experience-API-Hash header',
    );
    expect(errorOf([statementsPart, attachment('one', { 'x-experience-api-hash': 'not-hex' })])).toBe(
      'attachment part 2: X-Experience-API-Hash is not a SHA-256 digest in hex (64 hex digits)',
    );
    const { 'content-transfer-encoding': _encoding, ...withoutEncoding } = attachment('one').headers;
    expect(
      errorOf([statementsPart, attachment('one'), { headers: withoutEncoding, body: Buffer.from('one') }]),
    ).toBe('attachment part 3 has no Content-Transfer-Encoding header; xAPI requires binary');
    expect(errorOf([statementsPart, attachment('one', { 'content-transfer-encoding': 'base64' })])).toBe(
      'attachment part 2: Content-Transfer-Encoding must be binary, not base64',
    );
  });
});

describe('buildMultipartMixed', () => {
  it('builds what the parser reads back, for any headers and binary bodies', () => {
    const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);
    const headerValue = fc.stringMatching(/^[!-~]([ -~]{0,30}[!-~])?$/);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            headers: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
            body: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        (parts) => {
          const built = buildMultipartMixed(parts);
          const read = parsed(built.body, built.contentType);
          expect(read.map((part) => part.body)).toEqual(parts.map((part) => part.body));
          expect(read.map((part) => part.headers)).toEqual(
            parts.map((part) => {
              const lower = new Map<string, string>();
              for (const [name, value] of Object.entries(part.headers)) {
                const key = name.toLowerCase();
                const previous = lower.get(key);
                lower.set(key, previous === undefined ? value : `${previous}, ${value}`);
              }
              return Object.fromEntries(lower);
            }),
          );
        },
      ),
    );
  });

  it('uses CRLF, a fresh boundary every time, and keeps line breaks out of header values', () => {
    const first = buildMultipartMixed([
      { headers: { 'Content-Type': 'text/plain\r\nX-Injected: 1' }, body: 'hi' },
    ]);
    const second = buildMultipartMixed([{ headers: {}, body: 'hi' }]);
    expect(first.contentType).not.toBe(second.contentType);
    const boundary = parseContentType(first.contentType).parameters.get('boundary');
    expect(first.body.toString()).toBe(
      `--${boundary}\r\nContent-Type: text/plain X-Injected: 1\r\n\r\nhi\r\n--${boundary}--\r\n`,
    );
  });
});

describe('buildXapiAttachmentResponse', () => {
  it('sends the JSON first and each attachment with the headers xAPI requires', () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const built = buildXapiAttachmentResponse('{"statements":[]}', [
      { sha2: sha256(image), contentType: 'image/png', body: image },
    ]);
    const result = xapiAttachmentParts(parsed(built.body, built.contentType));
    expect(result).toEqual({
      ok: true,
      statementsJson: '{"statements":[]}',
      attachments: new Map([[sha256(image), { contentType: 'image/png', body: image }]]),
    });
  });
});
