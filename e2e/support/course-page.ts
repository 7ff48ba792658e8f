import { createServer, type Server } from 'node:http';

import type { APIRequestContext, Page } from '@playwright/test';

import { expect } from './test';

/**
 * A course as a customer hosts it: a static page on another origin (its own
 * tiny HTTP server on 127.0.0.1 and a free port) that loads
 * `{baseURL}/tracker.js` with a plain script tag, exactly as the docs' snippet
 * for any web course does. The tests then drive `window.CourseLens` in it.
 */
export type CourseSite = {
  /** The page's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** URL of the course page. */
  url: string;
  /** Serves more HTML at `path` (e.g. a page built from the docs' snippet). */
  serve: (path: string, html: string) => string;
  close: () => Promise<void>;
};

export async function startCourseSite(serverBaseUrl: string): Promise<CourseSite> {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Workplace safety: module 1</title>
    <script src="${serverBaseUrl}/tracker.js"></script>
  </head>
  <body style="font-family: system-ui, sans-serif; margin: 0; padding: 72px 24px 24px">
    <main>
      <h1>Workplace safety: module 1</h1>
      <p>Where is the fire assembly point? Choose one answer and press Submit.</p>
    </main>
  </body>
</html>`;
  const pages = new Map<string, string>([['/course.html', html]]);
  const server: Server = createServer((request, response) => {
    const page = pages.get((request.url ?? '/').split('?')[0]!);
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page);
      return;
    }
    response.writeHead(204).end(); // favicon and anything else: nothing, and no console error
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('course site: no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    url: `${origin}/course.html`,
    serve: (path, page) => {
      pages.set(path, page);
      return `${origin}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Creates an (ingest) API key through `POST /api/api-keys` with an owner's session; returns the secret. */
export async function createApiKeyViaApi(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  const response = await request.post('/api/api-keys', {
    data: { name, scope: 'ingest' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

/** Signs the seeded demo owner in through `POST /api/session`; returns the session token. */
export async function signInDemoOwnerViaApi(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/session', {
    data: { email: 'demo@courselens.dev', password: 'courselens-demo' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

export type IngestResponse = {
  accepted: number;
  duplicates: number;
  rejected: { index: number; id: string | null; error: string }[];
};

export type SentEvent = { id: string; type: string; [field: string]: unknown };

/**
 * Records what the page's tracker sends to `POST /api/v1/events` with fetch
 * and what the server answers, so a test can add up `accepted` and
 * `duplicates` across retries.
 */
export function recordIngestion(page: Page) {
  const sent: SentEvent[][] = [];
  const answers: IngestResponse[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/v1/events')) {
      const body = request.postDataJSON() as { events: SentEvent[] } | null;
      if (body) sent.push(body.events);
    }
  });
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && response.url().endsWith('/api/v1/events') && response.ok()) {
      void response
        .json()
        .then((body: IngestResponse) => answers.push(body))
        .catch(() => {});
    }
  });
  const total = (field: 'accepted' | 'duplicates') => answers.reduce((sum, answer) => sum + answer[field], 0);
  return { sent, answers, accepted: () => total('accepted'), duplicates: () => total('duplicates') };
}

/**
 * Sends events again through the API with the same ids: each one the server
 * already holds comes back as a duplicate. (A check that the events arrived
 * that needs no read API; run it only once they should all be there, since a
 * missing one is stored by this very call.)
 */
export async function resendEvents(
  request: APIRequestContext,
  key: string,
  events: SentEvent[],
): Promise<IngestResponse> {
  const response = await request.post('/api/v1/events', {
    data: { events },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as IngestResponse;
}
