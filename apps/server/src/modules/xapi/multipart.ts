import { createHash, randomBytes } from 'node:crypto';

/**
 * multipart/mixed (RFC 2046 section 5.1) as xAPI 1.0.3 uses it to carry
 * attachments (Communication 1.5.2): the first part holds the Statements as
 * JSON, every later part the raw octets of one attachment, found again by the
 * SHA-2 digest in its X-Experience-API-Hash header.
 *
 * Bodies are binary, so parsing works on Buffers and never decodes a part as
 * text; only header blocks are read as text.
 */

export type MultipartPart = {
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
};

export type MultipartResult = { ok: true; parts: MultipartPart[] } | { ok: false; error: string };

export type XapiAttachment = { contentType: string; body: Buffer };

export type XapiAttachmentPartsResult =
  | {
      ok: true;
      /** The first part, as text: the caller parses and validates the Statements. */
      statementsJson: string;
      /** Attachment bodies by the lower-case hex digest of X-Experience-API-Hash. */
      attachments: Map<string, XapiAttachment>;
    }
  | { ok: false; error: string };

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Splits a multipart/mixed body into its parts. `contentTypeHeader` is the
 * request's Content-Type, where the boundary is declared. Lines may end in
 * CRLF, as the RFC requires, or in a bare LF, which some clients send; the
 * preamble before the first boundary and the epilogue after the last are
 * ignored.
 */
export function parseMultipartMixed(body: Buffer, contentTypeHeader: string): MultipartResult {
  const { mediaType, parameters } = parseContentType(contentTypeHeader);
  if (mediaType !== 'multipart/mixed') {
    return { ok: false, error: `expected a multipart/mixed body, got ${mediaType || 'no Content-Type'}` };
  }
  const boundary = parameters.get('boundary');
  if (boundary === undefined || boundary === '') {
    return { ok: false, error: 'multipart/mixed needs a boundary parameter' };
  }
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');

  let found = findDelimiter(body, delimiter, 0);
  if (found === null) return { ok: false, error: `the body has no boundary line --${boundary}` };
  const parts: MultipartPart[] = [];
  while (!found.isClosing) {
    const next = findDelimiter(body, delimiter, found.contentStart);
    if (next === null) return { ok: false, error: `the body has no closing boundary --${boundary}--` };
    const part = parsePart(body.subarray(found.contentStart, next.lineStart), parts.length + 1);
    if (!part.ok) return part;
    parts.push(part.part);
    found = next;
  }
  return { ok: true, parts };
}

type Delimiter = {
  /** Where the line break before the delimiter starts: the previous part ends here. */
  lineStart: number;
  isClosing: boolean;
  /** Where the next part starts, after the delimiter line. */
  contentStart: number;
};

/**
 * The next delimiter line at or after `from`. A delimiter is "--boundary" at
 * the start of the body or right after a line break, followed by "--" (the
 * closing one) or by optional blanks and a line break; anything else that
 * merely starts with the boundary is part content.
 */
function findDelimiter(body: Buffer, delimiter: Buffer, from: number): Delimiter | null {
  let index = body.indexOf(delimiter, from);
  while (index !== -1) {
    const atLineStart = index === 0 || body[index - 1] === LF;
    if (atLineStart) {
      const afterDelimiter = index + delimiter.length;
      const lineStart = index === 0 ? 0 : index - (index >= 2 && body[index - 2] === CR ? 2 : 1);
      if (body[afterDelimiter] === DASH && body[afterDelimiter + 1] === DASH) {
        return { lineStart, isClosing: true, contentStart: afterDelimiter + 2 };
      }
      let cursor = afterDelimiter;
      while (body[cursor] === SPACE || body[cursor] === TAB) cursor += 1;
      if (body[cursor] === CR && body[cursor + 1] === LF) {
        return { lineStart, isClosing: false, contentStart: cursor + 2 };
      }
      if (body[cursor] === LF) return { lineStart, isClosing: false, contentStart: cursor + 1 };
    }
    index = body.indexOf(delimiter, index + 1);
  }
  return null;
}

function parsePart(
  content: Buffer,
  number: number,
): { ok: true; part: MultipartPart } | { ok: false; error: string } {
  let headerEnd: number;
  let bodyStart: number;
  // A part without headers starts with its blank line (or is empty).
  if (content.length === 0) [headerEnd, bodyStart] = [0, 0];
  else if (content[0] === LF) [headerEnd, bodyStart] = [0, 1];
  else if (content[0] === CR && content[1] === LF) [headerEnd, bodyStart] = [0, 2];
  else {
    const crlf = content.indexOf('\r\n\r\n');
    const lf = content.indexOf('\n\n');
    if (crlf !== -1 && (lf === -1 || crlf < lf)) [headerEnd, bodyStart] = [crlf, crlf + 4];
    else if (lf !== -1) [headerEnd, bodyStart] = [lf, lf + 2];
    // Headers and an empty body, when the line break before the next boundary
    // also ends the header block.
    else if (content[content.length - 1] === LF) [headerEnd, bodyStart] = [content.length, content.length];
    else return { ok: false, error: `part ${number} has no blank line between its headers and its body` };
  }
  const headers = parseHeaderBlock(content.subarray(0, headerEnd).toString('utf8'));
  if (typeof headers === 'string') return { ok: false, error: `part ${number}: ${headers}` };
  return { ok: true, part: { headers, body: content.subarray(bodyStart) } };
}

/** The headers of one part, or a message saying which line is not a header. */
function parseHeaderBlock(block: string): Record<string, string> | string {
  const headers = new Map<string, string>();
  let current: { name: string; value: string } | null = null;
  const flush = () => {
    if (current === null) return;
    const previous = headers.get(current.name);
    headers.set(current.name, previous === undefined ? current.value : `${previous}, ${current.value}`);
  };
  for (const line of block.split(/\r?\n/)) {
    if (line === '') continue;
    if ((line.startsWith(' ') || line.startsWith('\t')) && current !== null) {
      // A folded header (RFC 5322): the line continues the previous value.
      current.value = `${current.value} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return `"${line.slice(0, 60)}" is not a header line`;
    flush();
    current = { name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
  }
  flush();
  return Object.fromEntries(headers);
}

/**
 * A Content-Type value split into its lower-case media type and its
 * parameters (names lower-cased, quoted values unquoted).
 */
export function parseContentType(header: string): { mediaType: string; parameters: Map<string, string> } {
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const parameters = new Map<string, string>();
  // name=token or name="quoted string", where a quoted string may hold ";" and "\"".
  const parameter = /;\s*([^\s;=]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]*))/g;
  for (const match of (semicolon === -1 ? '' : header.slice(semicolon)).matchAll(parameter)) {
    const [, name = '', quoted, token] = match;
    const value = quoted === undefined ? (token ?? '') : quoted.replace(/\\(.)/g, '$1');
    if (!parameters.has(name.toLowerCase())) parameters.set(name.toLowerCase(), value);
  }
  return { mediaType, parameters };
}

const DIGEST_BY_HEX_LENGTH = new Map([
  [64, 'sha256'],
  [96, 'sha384'],
  [128, 'sha512'],
]);

/**
 * Checks the parts of an xAPI Statement request against Communication 1.5.2:
 * the first part is application/json and holds the Statements; each later
 * part declares Content-Transfer-Encoding: binary and an
 * X-Experience-API-Hash that matches its content. SHA-256 is what providers
 * send; SHA-384 and SHA-512 digests (which the specification also allows) are
 * recognised by their length.
 */
export function xapiAttachmentParts(parts: MultipartPart[]): XapiAttachmentPartsResult {
  const [first, ...rest] = parts;
  if (first === undefined) {
    return { ok: false, error: 'the multipart body has no parts; the first must hold the statements' };
  }
  const firstType = first.headers['content-type'];
  if (firstType === undefined || parseContentType(firstType).mediaType !== 'application/json') {
    return {
      ok: false,
      error: `part 1 holds the statements and must have Content-Type: application/json, not ${firstType ?? 'none'}`,
    };
  }
  const attachments = new Map<string, XapiAttachment>();
  for (const [index, part] of rest.entries()) {
    const label = `attachment part ${index + 2}`;
    const encoding = part.headers['content-transfer-encoding'];
    if (encoding === undefined) {
      return { ok: false, error: `${label} has no Content-Transfer-Encoding header; xAPI requires binary` };
    }
    if (encoding.toLowerCase() !== 'binary') {
      return { ok: false, error: `${label}: Content-Transfer-Encoding must be binary, not ${encoding}` };
    }
    const declared = part.headers['x-experience-api-hash']?.toLowerCase();
    if (declared === undefined || declared === '') {
      return { ok: false, error: `${label} has no X-Experience-API-Hash header` };
    }
    const algorithm = DIGEST_BY_HEX_LENGTH.get(declared.length);
    if (algorithm === undefined || !/^[0-9a-f]+$/.test(declared)) {
      return {
        ok: false,
        error: `${label}: X-Experience-API-Hash is not a SHA-256 digest in hex (64 hex digits)`,
      };
    }
    if (createHash(algorithm).update(part.body).digest('hex') !== declared) {
      return { ok: false, error: `${label}: X-Experience-API-Hash does not match its content` };
    }
    // The first copy wins: the same digest means the same octets.
    if (!attachments.has(declared)) {
      attachments.set(declared, {
        // RFC 2046's default (text/plain) does not fit raw attachment octets.
        contentType: part.headers['content-type'] ?? 'application/octet-stream',
        body: part.body,
      });
    }
  }
  return { ok: true, statementsJson: first.body.toString('utf8'), attachments };
}

/**
 * Serializes parts as multipart/mixed with CRLF line ends and a random
 * boundary that none of the bodies contains. Returns the body and the
 * Content-Type to send with it.
 */
export function buildMultipartMixed(parts: { headers: Record<string, string>; body: Buffer | string }[]): {
  body: Buffer;
  contentType: string;
} {
  const bodies = parts.map((part) =>
    typeof part.body === 'string' ? Buffer.from(part.body, 'utf8') : part.body,
  );
  let boundary = newBoundary();
  while (bodies.some((body) => body.includes(boundary))) boundary = newBoundary();

  const chunks: Buffer[] = [];
  parts.forEach((part, index) => {
    const headerLines = Object.entries(part.headers).map(
      // A line break in a value (a stored attachment's contentType, say) would start a new header.
      ([name, value]) => `${name.replace(/[\r\n:]/g, '')}: ${value.replace(/[\r\n]+/g, ' ')}\r\n`,
    );
    chunks.push(Buffer.from(`--${boundary}\r\n${headerLines.join('')}\r\n`, 'utf8'));
    chunks.push(bodies[index] ?? Buffer.alloc(0));
    chunks.push(Buffer.from('\r\n', 'latin1'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), contentType: `multipart/mixed; boundary=${boundary}` };
}

function newBoundary(): string {
  return `xapi-${randomBytes(24).toString('hex')}`;
}

/**
 * The multipart/mixed response of GET /xapi/statements?attachments=true: the
 * Statement or StatementResult JSON first, then each attachment with the
 * headers xAPI requires (Content-Type, Content-Transfer-Encoding: binary and
 * X-Experience-API-Hash, the attachment's sha2).
 */
export function buildXapiAttachmentResponse(
  json: string,
  attachments: Iterable<{ sha2: string; contentType: string; body: Buffer }>,
): { body: Buffer; contentType: string } {
  const parts: { headers: Record<string, string>; body: Buffer | string }[] = [
    { headers: { 'Content-Type': 'application/json' }, body: json },
  ];
  for (const attachment of attachments) {
    parts.push({
      headers: {
        'Content-Type': attachment.contentType,
        'Content-Transfer-Encoding': 'binary',
        'X-Experience-API-Hash': attachment.sha2,
      },
      body: attachment.body,
    });
  }
  return buildMultipartMixed(parts);
}
