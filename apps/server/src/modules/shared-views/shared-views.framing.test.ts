import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

let testApp: TestApp;
let webDistDir: string;

beforeAll(async () => {
  webDistDir = await mkdtemp(join(tmpdir(), 'courselens-frames-'));
  await writeFile(join(webDistDir, 'index.html'), '<!doctype html><title>CourseLens</title>');
  testApp = await createTestApp({ webDistDir });
});

afterAll(async () => {
  await testApp.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const page = (url: string) => testApp.app.inject({ method: 'GET', url });

describe('framing of pages (shared views are embeddable, nothing else)', () => {
  it('lets any site frame /shared/* and /public-reports/* pages', async () => {
    for (const url of [
      '/shared/questions/0b9f1c1e-0000-4000-8000-000000000000/leaders?token=abc',
      '/shared/course/0b9f1c1e-0000-4000-8000-000000000000/variable/final_score/chart',
      '/public-reports/some-token',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['x-frame-options'], url).toBeUndefined();
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain('frame-ancestors *');
      expect(policy).not.toContain("frame-ancestors 'self'");
      // The rest of the policy is unchanged.
      expect(policy).toContain("script-src 'self'");
    }
  });

  it('keeps refusing frames everywhere else, the API included', async () => {
    for (const url of [
      '/',
      '/dashboard',
      '/questions/x/leaders',
      '/sharedx/y',
      '/api/health',
      '/api/shared/questions/x/report',
    ]) {
      const response = await page(url);
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'self'");
    }
  });
});
