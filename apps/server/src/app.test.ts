import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from './errors';
import { createTestApp, type TestApp } from './test/app';
import serverPackage from '../package.json' with { type: 'json' };

describe('API basics', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
    const app = testApp.app.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/test/echo',
      {
        config: { access: 'public' },
        schema: { body: z.object({ name: z.string().min(3, 'Name must be at least 3 characters long') }) },
      },
      async (request) => ({ hello: request.body.name }),
    );
    // Public: these exercise error mapping, not the tenant plugin.
    app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('secret database detail');
    });
    app.get('/api/test/missing', { config: { access: 'public' } }, async () => {
      throw new AppError('NOT_FOUND', 'Course not found');
    });
    await app.ready();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('reports health after a real database query', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      version: serverPackage.version,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Route GET /api/nope not found', code: 'NOT_FOUND' });
  });

  it('turns a schema violation into a 400 with the message and every issue', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Name must be at least 3 characters long',
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'body.name', message: 'Name must be at least 3 characters long' }],
    });
  });

  it('rejects malformed JSON with a 400 in the same shape', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(typeof response.json().error).toBe('string');
  });

  it('rejects a body over 1 MiB with a 413', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('maps a typed service error to its status', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
  });

  it('hides the details of an unexpected error', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(response.body).not.toContain('secret');
  });

  it('sends a request id, honouring a sane incoming one', async () => {
    const minted = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await testApp.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-1234' },
    });
    expect(echoed.headers['x-request-id']).toBe('lb-1234');
    const replaced = await testApp.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    // A fresh id instead (a minted id is hex, so it may well contain "bad": the shape is what tells).
    expect(replaced.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('sets the security headers', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toMatch(/connect-src 'self'(;|$)/);
  });

  it('lets the browser app reach the origins of CSP_CONNECT_SRC (e.g. PostHog)', async () => {
    const withAnalytics = await createTestApp({ cspConnectSrc: ['https://eu.i.posthog.com'] });
    try {
      const response = await withAnalytics.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['content-security-policy']).toMatch(
        /connect-src 'self' https:\/\/eu\.i\.posthog\.com(;|$)/,
      );
    } finally {
      await withAnalytics.close();
    }
  });
});

describe('API reference', () => {
  it('documents every /api route of the real app at /docs/json and serves the UI at /docs/', async () => {
    const testApp = await createTestApp();
    try {
      const document = await testApp.app.inject({ method: 'GET', url: '/docs/json' });
      expect(document.statusCode).toBe(200);
      const paths = Object.keys(document.json<{ paths: Record<string, unknown> }>().paths);
      expect(paths).toEqual(
        expect.arrayContaining(['/api/health', '/api/signup', '/api/session', '/api/me']),
      );
      const ui = await testApp.app.inject({ method: 'GET', url: '/docs/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.headers['content-type']).toContain('text/html');
    } finally {
      await testApp.close();
    }
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with status error', async () => {
    const testApp = await createTestApp();
    try {
      await testApp.database.close();
      const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'error' });
    } finally {
      await testApp.app.close();
      await testApp.database.close().catch(() => undefined);
    }
  });
});

describe('serving the web app', () => {
  let testApp: TestApp;
  let webDistDir: string;

  beforeAll(async () => {
    webDistDir = await mkdtemp(join(tmpdir(), 'courselens-web-'));
    await mkdir(join(webDistDir, 'assets'));
    await writeFile(
      join(webDistDir, 'index.html'),
      '<!doctype html><title>CourseLens</title><div id="root"></div>',
    );
    await writeFile(join(webDistDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(webDistDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    testApp = await createTestApp({ webDistDir });
    await testApp.app.ready();
  });

  afterAll(async () => {
    await testApp.close();
    await rm(webDistDir, { recursive: true, force: true });
  });

  it('serves index.html at / without long caching', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root">');
  });

  it('falls back to index.html for deep links', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/course/123/learners?page=2' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a year of immutable caching', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps API 404s as JSON even with the web app present', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('does not fall back for non-GET requests', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/somewhere' });
    expect(response.statusCode).toBe(404);
  });
});
