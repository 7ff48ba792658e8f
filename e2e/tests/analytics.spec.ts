import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { repoRoot } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Product analytics against a local capture endpoint. The web app is built a
 * second time with VITE_POSTHOG_KEY set and VITE_POSTHOG_HOST=/ingest (the
 * same-origin proxy path a deployment uses under the strict CSP); a tiny
 * server on 127.0.0.1 serves that build, records what arrives under /ingest
 * and hands /api to the server under test.
 */
type CapturedEvent = { event: string; properties: Record<string, unknown> };

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function decodeEvents(url: URL, body: Buffer): CapturedEvent[] {
  let text: string;
  if (url.searchParams.get('compression') === 'gzip-js' || (body[0] === 0x1f && body[1] === 0x8b)) {
    text = gunzipSync(body).toString('utf8');
  } else {
    text = body.toString('utf8');
  }
  if (text.startsWith('data=')) {
    text = Buffer.from(decodeURIComponent(text.slice(5)), 'base64').toString('utf8');
  }
  const parsed = JSON.parse(text) as unknown;
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && 'batch' in parsed && Array.isArray(parsed.batch)
      ? parsed.batch
      : [parsed];
  return list as CapturedEvent[];
}

let distDir = '';
let server: Server;
let origin = '';
const captured: CapturedEvent[] = [];

// eslint-disable-next-line no-empty-pattern -- no fixture needed, only testInfo
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  const apiBase = testInfo.project.use.baseURL ?? '';
  distDir = mkdtempSync(join(tmpdir(), 'courselens-web-analytics-'));
  const build = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--outDir',
      distDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: join(repoRoot, 'apps', 'web'),
      env: { ...process.env, VITE_POSTHOG_KEY: 'phc_e2e_local', VITE_POSTHOG_HOST: '/ingest' },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`analytics build failed:\n${build.stdout}\n${build.stderr}`);

  server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = await readBody(request);
      if (process.env.E2E_DEBUG_ANALYTICS)
        console.log(
          '[capture]',
          request.method,
          url.pathname + url.search,
          body.length,
          body.subarray(0, 80).toString('utf8'),
        );
      if (url.pathname.startsWith('/ingest/')) {
        if (request.method === 'POST' && body.length > 0) {
          try {
            const events = decodeEvents(url, body);
            if (process.env.E2E_DEBUG_ANALYTICS)
              console.log('[decoded]', url.search, events.map((e) => e.event).join(','));
            captured.push(...events);
          } catch (error) {
            if (process.env.E2E_DEBUG_ANALYTICS) console.log('[undecodable]', url.search, String(error));
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"status":1}');
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        const upstream = await fetch(`${apiBase}${url.pathname}${url.search}`, {
          method: request.method,
          headers: { accept: 'application/json' },
          body: body.length > 0 ? new Uint8Array(body) : undefined,
        });
        response.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'text/plain',
        });
        response.end(Buffer.from(await upstream.arrayBuffer()));
        return;
      }
      const file = normalize(join(distDir, url.pathname));
      const target =
        file.startsWith(distDir) && existsSync(file) && statSync(file).isFile()
          ? file
          : join(distDir, 'index.html');
      response.writeHead(200, { 'content-type': mimeTypes[extname(target)] ?? 'application/octet-stream' });
      response.end(readFileSync(target));
    })().catch(() => {
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (distDir) rmSync(distDir, { recursive: true, force: true });
});

// PostHog drops events from user agents that look like bots (HeadlessChrome):
// present the browser as the desktop Chrome it is.
test.use({
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
});

// The page-leave beacon is sent while the browser tears the tab down, and a
// loaded machine's headless Chromium now and then drops it. One more try tells
// that race from an app that never sends page leave, which fails every try.
test.describe.configure({ retries: 1 });

const eventsNamed = (name: string) => captured.filter((event) => event.event === name);

test('with a key: page views, page leave and allow-listed autocapture, never password elements', async ({
  page,
}) => {
  if (process.env.E2E_DEBUG_ANALYTICS) page.on('console', (m) => console.log('[page]', m.type(), m.text()));
  // ...and without the automation flag PostHog also treats as a bot.
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }),
  );
  await page.goto(`${origin}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => eventsNamed('$pageview').length).toBeGreaterThanOrEqual(1);
  expect(eventsNamed('$pageview')[0]?.properties.$current_url).toBe(`${origin}/`);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect
    .poll(() => eventsNamed('$pageview').map((event) => event.properties.$current_url))
    .toContain(`${origin}/pricing`);

  // One allow-listed element, two allow-listed but password-like, one not allow-listed.
  await page.evaluate(() => {
    const add = (html: string) => document.querySelector('main')?.insertAdjacentHTML('afterbegin', html);
    add('<button type="button" class="no-attr">Not listed</button>');
    add('<input aria-label="new password" data-analytics="pw-input" name="new_password" />');
    add('<button type="button" data-analytics="pw-toggle" class="toggle-password">Show password</button>');
    add('<button type="button" data-analytics="compare-plans" class="btn">Compare plans</button>');
  });
  await page.getByRole('button', { name: 'Compare plans' }).click();
  await page.getByRole('button', { name: 'Show password' }).click();
  await page.getByRole('textbox', { name: 'new password' }).click();
  await page.getByRole('button', { name: 'Not listed' }).click();
  // Leaving the page (closing the tab) sends the page-leave event.
  await page.close({ runBeforeUnload: true });

  if (process.env.E2E_DEBUG_ANALYTICS)
    setTimeout(() => console.log('[events]', captured.map((e) => e.event).join(',')), 3000);
  await expect.poll(() => eventsNamed('$pageleave').length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  const autocaptured = JSON.stringify(eventsNamed('$autocapture'));
  expect(autocaptured).toContain('compare-plans');
  expect(autocaptured).not.toMatch(/password/i);
  expect(autocaptured).not.toContain('Not listed');
});

test('without a key nothing is loaded or sent', async ({ page, baseURL }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  expect(requests.filter((url) => !url.startsWith(baseURL ?? ''))).toEqual([]);
  expect(requests.filter((url) => /posthog|\/ingest|\/e\/|\/module-/.test(url))).toEqual([]);
});
