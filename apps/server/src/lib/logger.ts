import { isUuid } from '@courselens/contracts';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from '../config';

/**
 * Logging, with the rule that a log line never carries a secret or a
 * person's e-mail address: share and invitation tokens, API keys, session
 * tokens, passwords. Log files are copied to shippers, support tickets and
 * laptops, so they are treated as readable by far more people than the
 * database is.
 *
 * - URLs (the request log) pass through `redactUrl`: secret query parameters,
 *   the token segment of public-report and invitation links, e-mail addresses.
 * - Errors pass through `scrubError`: a failed query's parameters (Drizzle
 *   puts them in the message), e-mail addresses (Postgres puts them in
 *   `detail`), bearer tokens and API keys anywhere in the text.
 * - Structured fields with a secret's name (password, token, authorization,
 *   cookie, ...) are censored by pino's `redact`.
 * - Libraries that log on their own (Better Auth) log through pino, see
 *   `betterAuthLogHandler`, so nothing is printed outside the JSON lines and
 *   no text can forge a line (JSON escapes every newline).
 */

export const REDACTED = '[redacted]';
const REDACTED_EMAIL = '[email]';

/** Query parameters whose names say they hold a secret or a person's address. */
const EXACT_SECRET_PARAMS = new Set(['key', 'code', 'sig', 'pwd', 'auth', 'pass']);
const SECRET_PARAM_PARTS = [
  'token',
  'secret',
  'password',
  'passwd',
  'apikey',
  'signature',
  'session',
  'credential',
  'email',
  'mail',
];

export function isSecretParamName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return EXACT_SECRET_PARAMS.has(normalized) || SECRET_PARAM_PARTS.some((part) => normalized.includes(part));
}

const EMAIL_SOURCE = String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`;
const EMAIL = new RegExp(EMAIL_SOURCE);
const EMAILS = new RegExp(EMAIL_SOURCE, 'g');

/**
 * Path segments that are secrets: the token of a public report (the API
 * route and the page), and the token of an invitation link (the API routes;
 * `/api/invitations/:id/...` with a UUID is an invitation's id, not secret).
 */
const SECRET_PATH_SEGMENTS: { after: string[]; isSecret: (segment: string) => boolean }[] = [
  { after: ['api', 'public-reports'], isSecret: () => true },
  { after: ['public-reports'], isSecret: () => true },
  { after: ['api', 'invitations'], isSecret: (segment) => !isUuid(segment) },
];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (segment === '') return segment;
      const before = segments.slice(1, index);
      const rule = SECRET_PATH_SEGMENTS.find(
        ({ after }) =>
          before.length === after.length && after.every((part, i) => before[i]?.toLowerCase() === part),
      );
      if (rule?.isSecret(safeDecode(segment))) return REDACTED;
      return EMAIL.test(safeDecode(segment)) ? REDACTED_EMAIL : segment;
    })
    .join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      if (isSecretParamName(safeDecode(name))) return `${name}=${REDACTED}`;
      const decoded = safeDecode(value);
      // A URL inside a URL (`/login?redirectTo=/team-signup?token=...`).
      if (/^(\/|https?:\/\/)/i.test(decoded)) {
        const inner = redactUrl(decoded);
        return inner === decoded ? pair : `${name}=${encodeURIComponent(inner)}`;
      }
      return EMAIL.test(decoded) ? `${name}=${REDACTED_EMAIL}` : pair;
    })
    .join('&');
}

/**
 * The URL as it may be logged: `?token=abc` → `?token=[redacted]`,
 * `/api/public-reports/abc` → `/api/public-reports/[redacted]`, e-mail
 * addresses (a search for a learner) → `[email]`. Absolute URLs keep their
 * origin but lose any `user:password@`.
 */
export function redactUrl(url: string): string {
  let rest = url;
  let origin = '';
  const absolute = /^(https?:\/\/)(?:[^@/?#]*@)?([^/?#]*)/i.exec(url);
  if (absolute) {
    origin = `${absolute[1]}${absolute[2]}`;
    rest = url.slice(absolute[0].length);
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const queryStart = rest.indexOf('?');
  if (queryStart === -1) return origin + redactPath(rest);
  return `${origin}${redactPath(rest.slice(0, queryStart))}?${redactQuery(rest.slice(queryStart + 1))}`;
}

/** URLs inside free text (e.g. a message naming the request): the secret parts. */
const TEXT_RULES: [RegExp, string][] = [
  // Session tokens in an Authorization header quoted in text.
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // API keys (`cl_` + 43 characters).
  [/\bcl_[A-Za-z0-9_-]{16,}/g, `cl_${REDACTED}`],
  // Credentials in a connection URL.
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi, `$1${REDACTED}@`],
  // Secret query parameters in a URL.
  [
    /([?&](?:[\w.-]*(?:token|secret|password|passwd|api[-_]?key|signature|session|credential|e?-?mail)[\w.-]*|key|code|sig|pwd|auth|pass)=)[^&#\s"']*/gi,
    `$1${REDACTED}`,
  ],
  // Public-report tokens and invitation tokens in a path.
  [/(\/public-reports\/)[^/?#\s"']+/gi, `$1${REDACTED}`],
  [
    /(\/api\/invitations\/)(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[/?#\s"']|$))[^/?#\s"']+/gi,
    `$1${REDACTED}`,
  ],
];

/** Secrets in free text: tokens, API keys, credentials in URLs. E-mail addresses stay (see scrubText). */
export function scrubSecrets(text: string): string {
  return TEXT_RULES.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/** Secrets and e-mail addresses in free text, for text a library or a database wrote. */
export function scrubText(text: string): string {
  const scrubbed = scrubSecrets(text);
  return scrubbed.includes('@') ? scrubbed.replace(EMAILS, REDACTED_EMAIL) : scrubbed;
}

/**
 * Object keys whose values never go into a log, whatever they hold: query
 * parameters of a failed statement (e-mails, session tokens), request bodies
 * and headers some libraries attach to their errors.
 */
const SECRET_KEYS = new Set([
  'params',
  'parameters',
  'values',
  'requestbodyvalues',
  'body',
  'headers',
  'requestheaders',
  'responseheaders',
  'password',
  'currentpassword',
  'newpassword',
  'token',
  'apikey',
  'key',
  'secret',
  'authorization',
  'cookie',
]);

function scrubValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6 || seen.has(value)) return '[omitted]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1, seen));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : scrubValue(item, depth + 1, seen);
  }
  return result;
}

/** Any value about to be logged, with secrets and e-mail addresses taken out (deep). */
export function scrubForLog(value: unknown): unknown {
  return scrubValue(value, 0, new WeakSet());
}

/**
 * A failed query's text ends with its parameters (`Failed query: ...\nparams:
 * ann@example.com,...`); they go before anything else is looked at.
 */
function withoutQueryParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/g, `\nparams: ${REDACTED}`);
}

/**
 * Postgres names the values behind a constraint in its `detail` (`Key
 * (token)=(abc) already exists.`): an e-mail address, a session token.
 */
function withoutKeyValues(text: string): string {
  return text.replace(
    /(\bKey \([^)]*\)=\()[\s\S]*?(\)(?: already exists| is not present| conflicts with|\.|$))/g,
    `$1${REDACTED}$2`,
  );
}

/** pino's error serializer, then scrubbed: see the module comment. */
export function scrubError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (serialized === null || typeof serialized !== 'object') {
    return typeof serialized === 'string' ? scrubText(serialized) : serialized;
  }
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(serialized)) {
    plain[key] = typeof value === 'string' ? withoutKeyValues(withoutQueryParams(value)) : value;
  }
  return scrubForLog(plain);
}

type RequestLike = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number } | null;
};

/** Fastify's request serializer with the URL redacted. */
export function serializeRequest(request: RequestLike) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    host: request.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

const SECRET_FIELD_NAMES = [
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'apiKey',
  'secret',
  'authorization',
  'cookie',
  'email',
];

/** Structured fields pino censors wherever a log call puts them (top level and two levels down). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'req.body',
  'request.body',
  'body',
  ...SECRET_FIELD_NAMES.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

/** The options every CourseLens logger is built with, whatever it writes to. */
export function loggerOptions(level: AppConfig['logLevel']): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: serializeRequest, err: scrubError, error: scrubError },
    hooks: {
      // Messages can quote a URL (Fastify's "Reply was already sent ... in
      // /api/public-reports/<token>"): its secrets go.
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg));
        method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
}

/**
 * JSON lines in production (for log shippers), pretty lines in development.
 * `destination` replaces standard output (the tests capture lines with it).
 */
export function createLogger(
  config: Pick<AppConfig, 'env' | 'logLevel'>,
  destination?: DestinationStream,
): Logger {
  const options = loggerOptions(config.logLevel);
  if (destination) return pino(options, destination);
  return pino({
    ...options,
    ...(config.env === 'development'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  });
}

export type LevelLogger = {
  error: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
  info: (object: object, message: string) => void;
  debug: (object: object, message: string) => void;
};

/**
 * Better Auth's `logger.log`: its messages become pino lines (level kept,
 * text and arguments scrubbed, errors under `err`), instead of coloured text
 * on the console that may quote an e-mail address or a failed query.
 */
export function betterAuthLogHandler(logger: LevelLogger) {
  return (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]): void => {
    const fields: Record<string, unknown> = { library: 'better-auth' };
    const error = args.find((arg) => arg instanceof Error);
    if (error) fields.err = error;
    const details = args.filter((arg) => arg !== error);
    if (details.length > 0) fields.details = scrubForLog(details);
    logger[level](fields, scrubText(withoutQueryParams(String(message))));
  };
}
