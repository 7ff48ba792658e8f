import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { LlmConfig } from './lib/llm';
import { defaultWebDistDir } from './lib/paths';
import type { StripeSettings } from './modules/billing/billing-provider';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Which proxies in front of us are trusted to say who the client is, in
 * Fastify's `trustProxy` terms (proxy-addr): `false` trusts none (the socket's
 * peer is the client), a number trusts that many hops counted from the right
 * of `X-Forwarded-For` (the socket's peer first), a list trusts those proxy
 * addresses or CIDR ranges. `true` is never passed on: Fastify's `true`
 * trusts every hop, so the left-most, client-written `X-Forwarded-For` entry
 * would become the address every limit is keyed on.
 */
export type TrustProxy = false | number | string[];

/**
 * TrustProxy as Fastify's `trustProxy` option. Hops become a function of the
 * hop index, because Fastify (5.12+) treats a bare number as "trust nothing"
 * (a hop count cannot tell the proxy from a client that reaches the server
 * directly); with a hop count, the server must only be reachable through the
 * proxy. Listing the proxies' addresses has no such condition.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false || Array.isArray(trust)) return trust;
  // Hop 0 is the socket's peer, hop 1 the right-most X-Forwarded-For entry, and so on.
  return (_address, hop) => hop < trust;
}

const PROXY_ADDRESS_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_PRESETS.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** TRUST_PROXY: `true` means exactly one hop (the proxy we sit behind); see TrustProxy. */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const normalized = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(normalized)) return false;
  if (['true', 'yes'].includes(normalized)) return 1;
  if (/^\d+$/.test(normalized)) return Number(normalized) <= 32 ? Number(normalized) : undefined;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : undefined;
}

/**
 * A host that webhooks may reach even though it resolves to a loopback,
 * private or link-local address: a name or an address, lower-cased, with
 * the one port it is allowed on (null: any port).
 */
export type WebhookAllowedHost = { host: string; port: number | null };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

function parseAllowedHost(entry: string): WebhookAllowedHost | undefined {
  const lower = entry.toLowerCase();
  // [v6]:port or [v6]
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(lower);
  // host:port with a name or an IPv4 address (a bare IPv6 address has several colons)
  const withPort = /^([^:]+):(\d{1,5})$/.exec(lower);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : withPort
      ? [withPort[1] ?? '', withPort[2]]
      : [lower, undefined];
  if (bracketed && isIP(host) !== 6) return undefined;
  if (!bracketed && isIP(host) === 0 && !HOST_NAME.test(host)) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  return { host, port: port === undefined ? null : Number(port) };
}

/** WEBHOOK_ALLOWED_HOSTS: comma-separated hosts, each optionally with `:port` (IPv6 as `[::1]:8080`). */
export function parseWebhookAllowedHosts(value: string): WebhookAllowedHost[] | undefined {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const hosts = entries.map(parseAllowedHost);
  return hosts.every((host) => host !== undefined) ? hosts : undefined;
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const stripePriceId = z
  .string()
  .regex(/^price_\S+$/, 'must be a Stripe price id (price_…)')
  .optional();

/**
 * Every environment variable the server reads. The README's configuration
 * table documents the same list; keep the two in step.
 */
const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be development, production or test',
    })
    .default('development'),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  PORT: z
    .string()
    .default('3000')
    .refine((value) => /^\d+$/.test(value) && Number(value) <= 65_535, {
      message: 'must be a whole number from 0 to 65535',
    })
    .transform(Number),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  DATABASE_POOL_SIZE: z
    .string()
    .default('10')
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 200, {
      message: 'must be a whole number from 1 to 200',
    })
    .transform(Number),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
  WEB_DIST_DIR: z.string().min(1, 'must not be empty').optional(),
  SEED_DEMO: booleanFromEnv.default(true),
  EMBEDDED_WORKERS: booleanFromEnv.default(true),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if (parsed === undefined) {
        context.addIssue({
          code: 'custom',
          message:
            'must be false, true (one proxy), a number of proxy hops up to 32, or a comma-separated list of proxy addresses or CIDR ranges',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters long').optional(),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+/, 'must be an http:// or https:// URL')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z
    .string()
    .min(3, 'must be an e-mail address or "Name <address>"')
    .default('CourseLens <no-reply@courselens.local>'),
  SIGNUP_LIMIT_PER_HOUR: z
    .string()
    .default('20')
    .refine((value) => /^\d+$/.test(value), { message: 'must be a whole number (0 turns the limit off)' })
    .transform(Number),
  REPORT_CACHE_MB: z
    .string()
    .default('64')
    .refine((value) => /^\d+$/.test(value) && Number(value) <= 4096, {
      message: 'must be a whole number of megabytes from 0 to 4096 (0 turns the cache off)',
    })
    .transform(Number),
  REPORT_MAX_AGE_SECONDS: z
    .string()
    .default('60')
    .refine((value) => /^\d+$/.test(value) && Number(value) <= 3600, {
      message: 'must be a whole number of seconds from 0 to 3600 (0 always waits for current figures)',
    })
    .transform(Number),
  REPORT_BACKGROUND_MIN_MS: z
    .string()
    .default('250')
    .refine((value) => /^\d+$/.test(value) && Number(value) <= 600000, {
      message: 'must be a whole number of milliseconds from 0 to 600000',
    })
    .transform(Number),
  REPORT_BACKGROUND_MIN_LEARNERS: z
    .string()
    .default('1000')
    .refine((value) => /^\d+$/.test(value) && Number(value) <= 100000000, {
      message: 'must be a whole number of learners from 0 to 100000000',
    })
    .transform(Number),
  ANALYTICS_PARTS: z
    .string()
    .default('2')
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 16, {
      message: 'must be a whole number from 1 to 16 (1 runs each statement whole)',
    })
    .transform(Number),
  CSP_CONNECT_SRC: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter((origin) => origin.length > 0),
    )
    .refine((origins) => origins.every((origin) => /^https?:\/\/[^/\s'";]+$/.test(origin)), {
      message: 'must be a comma-separated list of http:// or https:// origins (no paths)',
    }),
  LLM_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+/, 'must be the http:// or https:// base URL of an OpenAI-compatible API')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  LLM_API_KEY: z.string().min(1, 'must not be empty').optional(),
  LLM_MODEL: z.string().min(1, 'must not be empty').default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z
    .string()
    .default('30000')
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1000, {
      message: 'must be a whole number of milliseconds, at least 1000',
    })
    .transform(Number),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, context) => {
      const parsed = parseWebhookAllowedHosts(value);
      if (parsed === undefined) {
        context.addIssue({
          code: 'custom',
          message:
            'must be a comma-separated list of host names or IP addresses, each optionally with :port (IPv6 as [::1]:8080)',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_\S+$/,
      'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_ key)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_PRICE_TEAM_MONTHLY: stripePriceId,
  STRIPE_PRICE_TEAM_YEARLY: stripePriceId,
  STRIPE_PRICE_BUSINESS_MONTHLY: stripePriceId,
  STRIPE_PRICE_BUSINESS_YEARLY: stripePriceId,
  STRIPE_API_BASE: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, 'must be an http:// or https:// origin such as http://127.0.0.1:12111')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  SHUTDOWN_TIMEOUT_MS: z
    .string()
    .default('10000')
    .refine((value) => /^\d+$/.test(value), { message: 'must be a whole number of milliseconds' })
    .transform(Number),
});

export type LogLevel = (typeof logLevels)[number];

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  logLevel: LogLevel;
  /** Folder of the built web app; the server skips serving it when absent. */
  webDistDir: string;
  seedDemo: boolean;
  /**
   * Run background workers (jobs, schedules, rollup folding) in this process
   * (EMBEDDED_WORKERS). Off only on PostgreSQL, where `npm run worker`
   * processes run them instead.
   */
  embeddedWorkers: boolean;
  /** Whose `X-Forwarded-For` entries are believed when working out the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  shutdownTimeoutMs: number;
  /** Signs sessions; when unset one is generated once and kept in the database. */
  authSecret: string | undefined;
  /** The address people open, for links in e-mails (invitations); else taken from the request. */
  publicUrl: string | undefined;
  /** Invitation e-mails go out through this server when set. */
  smtp: { url: string; from: string } | undefined;
  /** Sign-ups allowed per client address per hour; 0 turns the limit off. */
  signupLimitPerHour: number;
  /** Memory for report results kept until their organization's data changes (REPORT_CACHE_MB); 0 keeps none. */
  reportCacheMb: number;
  /**
   * A custom report or analytics answer that took at least `minCostMs` to
   * compute and covers at least `minLearners` is served as computed up to `maxAgeMs` ago, with
   * that time, while newer figures are computed in the background
   * (REPORT_MAX_AGE_SECONDS, REPORT_BACKGROUND_MIN_MS,
   * REPORT_BACKGROUND_MIN_LEARNERS); `maxAgeMs` 0 always waits for current figures.
   */
  reportRecent: { maxAgeMs: number; minCostMs: number; minLearners: number };
  /**
   * On PostgreSQL, the analytics statements whose answers add up over learners run as this many
   * statements over disjoint shares of the learners, side by side (ANALYTICS_PARTS); 1 runs them whole.
   */
  analyticsParts: number;
  /** Origins the browser app may call besides its own (e.g. a PostHog host), added to CSP connect-src. */
  cspConnectSrc: string[];
  /** The LLM engine's OpenAI-compatible endpoint; unset, every AI feature uses its built-in engine. */
  llm: LlmConfig | undefined;
  /**
   * Hosts webhooks may reach although they resolve to a loopback, private or
   * link-local address (WEBHOOK_ALLOWED_HOSTS); every other such address is refused.
   */
  webhookAllowedHosts: WebhookAllowedHost[];
  /** Stripe takes payment when STRIPE_SECRET_KEY is set; otherwise the local provider changes plans at once. */
  stripe: StripeSettings | undefined;
};

/** Variables whose values are secrets: a configuration error names them but never echoes them. */
const SECRET_VARIABLES = new Set([
  'AUTH_SECRET',
  'LLM_API_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/** The value a configuration error quotes: none for secrets, URLs without their `user:password@`. */
function shownValue(name: string, value: string | undefined): string | undefined {
  if (value === undefined || SECRET_VARIABLES.has(name)) return undefined;
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1[redacted]@');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the configuration. Throws a ConfigError whose message
 * is one line naming the offending variable, e.g.
 * `Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): AppConfig {
  // Empty strings are treated as unset, as shells and .env files often leave them.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'configuration');
      const got = shownValue(name, cleaned[name]);
      return `${name} ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  if (!values.EMBEDDED_WORKERS && !values.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: EMBEDDED_WORKERS=false needs DATABASE_URL: with the embedded database only the server can run the workers',
    );
  }
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  return {
    env: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL, poolSize: values.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: absolute(values.DATA_DIR) },
    logLevel: values.LOG_LEVEL,
    webDistDir: values.WEB_DIST_DIR ? absolute(values.WEB_DIST_DIR) : defaultWebDistDir,
    seedDemo: values.SEED_DEMO,
    embeddedWorkers: values.EMBEDDED_WORKERS,
    trustProxy: values.TRUST_PROXY,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    authSecret: values.AUTH_SECRET,
    publicUrl: values.PUBLIC_URL,
    smtp: values.SMTP_URL ? { url: values.SMTP_URL, from: values.SMTP_FROM } : undefined,
    signupLimitPerHour: values.SIGNUP_LIMIT_PER_HOUR,
    reportCacheMb: values.REPORT_CACHE_MB,
    reportRecent: {
      maxAgeMs: values.REPORT_MAX_AGE_SECONDS * 1000,
      minCostMs: values.REPORT_BACKGROUND_MIN_MS,
      minLearners: values.REPORT_BACKGROUND_MIN_LEARNERS,
    },
    analyticsParts: values.ANALYTICS_PARTS,
    llm: values.LLM_BASE_URL
      ? {
          baseUrl: values.LLM_BASE_URL,
          apiKey: values.LLM_API_KEY,
          model: values.LLM_MODEL,
          timeoutMs: values.LLM_TIMEOUT_MS,
        }
      : undefined,
    cspConnectSrc: values.CSP_CONNECT_SRC,
    webhookAllowedHosts: values.WEBHOOK_ALLOWED_HOSTS,
    stripe: values.STRIPE_SECRET_KEY
      ? {
          secretKey: values.STRIPE_SECRET_KEY,
          webhookSecret: values.STRIPE_WEBHOOK_SECRET,
          prices: {
            ...(values.STRIPE_PRICE_TEAM_MONTHLY ? { 'team:month': values.STRIPE_PRICE_TEAM_MONTHLY } : {}),
            ...(values.STRIPE_PRICE_TEAM_YEARLY ? { 'team:year': values.STRIPE_PRICE_TEAM_YEARLY } : {}),
            ...(values.STRIPE_PRICE_BUSINESS_MONTHLY
              ? { 'business:month': values.STRIPE_PRICE_BUSINESS_MONTHLY }
              : {}),
            ...(values.STRIPE_PRICE_BUSINESS_YEARLY
              ? { 'business:year': values.STRIPE_PRICE_BUSINESS_YEARLY }
              : {}),
          },
          apiBase: values.STRIPE_API_BASE,
        }
      : undefined,
  };
}
