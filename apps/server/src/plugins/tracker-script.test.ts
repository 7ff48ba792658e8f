import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type * as Paths from '../lib/paths';
import { createTestApp, type TestApp } from '../test/app';
import { registerTrackerScript, TRACKER_CACHE_CONTROL, TRACKER_NOT_BUILT_MESSAGE } from './tracker-script';

// The real app serves whatever folder this points at when it is built.
const trackerDir = vi.hoisted(() => ({ path: '' }));
vi.mock('../lib/paths', async (importOriginal) => {
  const actual = await importOriginal<typeof Paths>();
  return {
    ...actual,
    get defaultTrackerDistDir() {
      return trackerDir.path;
    },
  };
});

const SCRIPT = '"use strict";(()=>{window.CourseLens={version:"test"}})();\n';

let builtDir: string;
let emptyDir: string;
let testApp: TestApp;

beforeAll(async () => {
  builtDir = mkdtempSync(join(tmpdir(), 'tracker-dist-'));
  emptyDir = mkdtempSync(join(tmpdir(), 'tracker-empty-'));
  writeFileSync(join(builtDir, 'tracker.js'), SCRIPT);
  writeFileSync(join(builtDir, 'tracker.js.map'), '{"version":3,"sources":[]}');
  trackerDir.path = builtDir;
  testApp = await createTestApp();
});

afterAll(async () => {
  await testApp.close();
  rmSync(builtDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

describe('GET /tracker.js', () => {
  it('serves the built script to pages on any origin, cacheable with an ETag', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/tracker.js',
      headers: { origin: 'https://lms.example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    // helmet says same-origin everywhere else; a course on another host must be able to load this.
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['cache-control']).toBe(TRACKER_CACHE_CONTROL);
    expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('answers 304 to a matching If-None-Match, and 200 once the file changed', async () => {
    const first = await testApp.app.inject({ method: 'GET', url: '/tracker.js' });
    const etag = first.headers.etag as string;

    const revalidated = await testApp.app.inject({
      method: 'GET',
      url: '/tracker.js',
      headers: { 'if-none-match': `W/"other", ${etag}` },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);

    const rebuilt = `${SCRIPT}// rebuilt\n`;
    writeFileSync(join(builtDir, 'tracker.js'), rebuilt);
    utimesSync(join(builtDir, 'tracker.js'), new Date(), new Date(Date.now() + 5000));
    const changed = await testApp.app.inject({
      method: 'GET',
      url: '/tracker.js',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe(rebuilt);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers HEAD and serves the source map', async () => {
    const head = await testApp.app.inject({ method: 'HEAD', url: '/tracker.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/javascript; charset=utf-8');

    const map = await testApp.app.inject({ method: 'GET', url: '/tracker.js.map' });
    expect(map.statusCode).toBe(200);
    expect(map.json()).toEqual({ version: 3, sources: [] });
  });

  it('says how to fix it when the tracker was not built', async () => {
    const app = Fastify();
    await registerTrackerScript(app, emptyDir);
    const response = await app.inject({ method: 'GET', url: '/tracker.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: TRACKER_NOT_BUILT_MESSAGE, code: 'NOT_FOUND' });
    expect(TRACKER_NOT_BUILT_MESSAGE).toBe(
      'The course tracker is not built: run `npm run build` (packages/tracker/dist/tracker.js is missing)',
    );
    expect(response.headers['cache-control']).toBe('no-store');
    await app.close();
  });

  it('notices when the build is removed while the server runs', async () => {
    rmSync(join(builtDir, 'tracker.js'));
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/tracker.js' });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: string }>().error).toBe(TRACKER_NOT_BUILT_MESSAGE);
    } finally {
      writeFileSync(join(builtDir, 'tracker.js'), SCRIPT);
    }
  });

  it('is not listed in the API reference', async () => {
    const document = await testApp.app.inject({ method: 'GET', url: '/docs/json' });
    expect(Object.keys(document.json<{ paths: object }>().paths)).not.toContain('/tracker.js');
  });
});
