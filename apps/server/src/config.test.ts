import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/data' });
    expect(config.logLevel).toBe('info');
    expect(config.seedDemo).toBe(true);
  });

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' }, '/');
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@127.0.0.1:5432/db',
      poolSize: 10,
    });
  });

  it('names the variable and the value in one line when PORT is not a number', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    );
  });

  it.each([['70000'], ['-1'], ['3.5']])('rejects PORT=%s', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT/);
  });

  it('rejects a DATABASE_URL that is not a PostgreSQL URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATA_DIR: '' }, '/x').port).toBe(3000);
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    const config = loadConfig({ DATA_DIR: 'var/db' }, '/srv/app');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/var/db' });
  });

  it('parses boolean flags strictly', () => {
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(() => loadConfig({ SEED_DEMO: 'nope' })).toThrow(/SEED_DEMO must be one of/);
  });

  it('runs workers in the server unless told not to, which only PostgreSQL allows', () => {
    expect(loadConfig({}).embeddedWorkers).toBe(true);
    const url = 'postgres://app@db.example.com/courselens';
    expect(loadConfig({ DATABASE_URL: url, EMBEDDED_WORKERS: 'false' }).embeddedWorkers).toBe(false);
    expect(() => loadConfig({ EMBEDDED_WORKERS: 'false' })).toThrow(
      'Invalid configuration: EMBEDDED_WORKERS=false needs DATABASE_URL: with the embedded database only the server can run the workers',
    );
  });

  it('reads the auth secret, public URL and SMTP settings', () => {
    const config = loadConfig({
      AUTH_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://app.example.com/',
      SMTP_URL: 'smtp://mail.example.com:25',
    });
    expect(config.authSecret).toBe('x'.repeat(32));
    expect(config.publicUrl).toBe('https://app.example.com');
    expect(config.smtp).toEqual({
      url: 'smtp://mail.example.com:25',
      from: 'CourseLens <no-reply@courselens.local>',
    });
    expect(loadConfig({}).smtp).toBeUndefined();
    expect(loadConfig({}).authSecret).toBeUndefined();
  });

  it('never echoes a secret or the credentials of a URL in a configuration error', () => {
    expect(() => loadConfig({ AUTH_SECRET: 'short-but-secret' })).toThrow(
      /^Invalid configuration: AUTH_SECRET must be at least 32 characters long$/,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:hunter22@mail.example.com' })).toThrow(
      '(got "http://[redacted]@mail.example.com")',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter22@db/x' })).not.toThrow(/hunter22/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter22@db/x' })).toThrow(/DATABASE_URL/);
  });

  it('rejects a short AUTH_SECRET and a non-SMTP SMTP_URL', () => {
    expect(() => loadConfig({ AUTH_SECRET: 'short' })).toThrow(
      /AUTH_SECRET must be at least 32 characters long/,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL must be an smtp/);
  });

  it('serves a slow custom report up to a minute old while it is refreshed, unless the settings say otherwise', () => {
    expect(loadConfig({}).reportRecent).toEqual({ maxAgeMs: 60_000, minCostMs: 250, minLearners: 1000 });
    expect(
      loadConfig({
        REPORT_MAX_AGE_SECONDS: '0',
        REPORT_BACKGROUND_MIN_MS: '0',
        REPORT_BACKGROUND_MIN_LEARNERS: '0',
      }).reportRecent,
    ).toEqual({ maxAgeMs: 0, minCostMs: 0, minLearners: 0 });
    expect(() => loadConfig({ REPORT_BACKGROUND_MIN_LEARNERS: 'many' })).toThrow(
      'Invalid configuration: REPORT_BACKGROUND_MIN_LEARNERS must be a whole number of learners from 0 to 100000000 (got "many")',
    );
    expect(() => loadConfig({ REPORT_MAX_AGE_SECONDS: '5m' })).toThrow(
      'Invalid configuration: REPORT_MAX_AGE_SECONDS must be a whole number of seconds from 0 to 3600 (0 always waits for current figures) (got "5m")',
    );
    expect(() => loadConfig({ REPORT_BACKGROUND_MIN_MS: '-1' })).toThrow(
      'Invalid configuration: REPORT_BACKGROUND_MIN_MS must be a whole number of milliseconds from 0 to 600000 (got "-1")',
    );
  });

  it('keeps 64 MB of report results unless REPORT_CACHE_MB says otherwise (0 turns it off)', () => {
    expect(loadConfig({}).reportCacheMb).toBe(64);
    expect(loadConfig({ REPORT_CACHE_MB: '0' }).reportCacheMb).toBe(0);
    expect(loadConfig({ REPORT_CACHE_MB: '256' }).reportCacheMb).toBe(256);
    expect(() => loadConfig({ REPORT_CACHE_MB: 'lots' })).toThrow(
      'Invalid configuration: REPORT_CACHE_MB must be a whole number of megabytes from 0 to 4096 (0 turns the cache off) (got "lots")',
    );
    expect(() => loadConfig({ REPORT_CACHE_MB: '5000' })).toThrow(/REPORT_CACHE_MB must be/);
  });

  it('runs analytics statements in two shares of the learners unless ANALYTICS_PARTS says otherwise', () => {
    expect(loadConfig({}).analyticsParts).toBe(2);
    expect(loadConfig({ ANALYTICS_PARTS: '1' }).analyticsParts).toBe(1);
    expect(loadConfig({ ANALYTICS_PARTS: '16' }).analyticsParts).toBe(16);
    expect(() => loadConfig({ ANALYTICS_PARTS: '0' })).toThrow(
      'Invalid configuration: ANALYTICS_PARTS must be a whole number from 1 to 16 (1 runs each statement whole) (got "0")',
    );
    expect(() => loadConfig({ ANALYTICS_PARTS: '17' })).toThrow(/ANALYTICS_PARTS must be/);
    expect(() => loadConfig({ ANALYTICS_PARTS: 'two' })).toThrow(/ANALYTICS_PARTS must be/);
  });

  it('reads extra connect-src origins and refuses anything but bare origins', () => {
    expect(loadConfig({}).cspConnectSrc).toEqual([]);
    expect(
      loadConfig({ CSP_CONNECT_SRC: 'https://eu.i.posthog.com/, http://localhost:8010' }).cspConnectSrc,
    ).toEqual(['https://eu.i.posthog.com', 'http://localhost:8010']);
    expect(() => loadConfig({ CSP_CONNECT_SRC: "https://x.example 'unsafe-eval'" })).toThrow(
      /CSP_CONNECT_SRC must be a comma-separated list of http:\/\/ or https:\/\/ origins/,
    );
    expect(() => loadConfig({ CSP_CONNECT_SRC: 'https://x.example/path' })).toThrow(/CSP_CONNECT_SRC/);
  });

  it('reads WEBHOOK_ALLOWED_HOSTS as hosts with an optional port, and refuses anything else', () => {
    expect(loadConfig({}).webhookAllowedHosts).toEqual([]);
    expect(
      loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'Hooks.Internal, 127.0.0.1:4010,[::1]:8080,::1,10.0.0.7' })
        .webhookAllowedHosts,
    ).toEqual([
      { host: 'hooks.internal', port: null },
      { host: '127.0.0.1', port: 4010 },
      { host: '::1', port: 8080 },
      { host: '::1', port: null },
      { host: '10.0.0.7', port: null },
    ]);
    for (const value of [
      'http://hooks.internal',
      'hooks.internal:0',
      'host:99999',
      '[hooks]:80',
      'a b',
      'x/y',
    ]) {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value })).toThrow(
        /^Invalid configuration: WEBHOOK_ALLOWED_HOSTS must be a comma-separated list of host names or IP addresses/,
      );
    }
  });

  it('reads TRUST_PROXY as none, one hop (true), a number of hops or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const value of ['false', 'no', '0'])
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(false);
    // `true` is one hop, never Fastify's "trust every hop" (which believes a forged X-Forwarded-For).
    for (const value of ['true', 'TRUE', 'yes', '1'])
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7 ,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([['maybe'], ['10.0.0.0/33'], ['10.0.0.1, not-an-address'], ['99'], ['-1'], [',']])(
    'rejects TRUST_PROXY=%j in one line',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        `Invalid configuration: TRUST_PROXY must be false, true (one proxy), a number of proxy hops up to 32, or a comma-separated list of proxy addresses or CIDR ranges (got ${JSON.stringify(value)})`,
      );
    },
  );
});
