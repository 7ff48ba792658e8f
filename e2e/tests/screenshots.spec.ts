import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { artifactsDir } from '../support/server-env';
import { createOrganizationViaApi, signInAs, signUpViaApi, uniqueSuffix } from '../support/accounts';
import { HOME_TITLE, expect, test } from '../support/test';

/**
 * Not an assertion of pixels: PNGs of the home page at a phone and a desktop
 * width, in both themes, for a person to look at (e2e/.artifacts/screenshots).
 */
const widths = [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
] as const;

for (const { width, height } of widths) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`home page screenshot at ${width} px in ${colorScheme} mode`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: HOME_TITLE })).toBeVisible();

      // Nothing may stick out sideways on a phone.
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);

      const name = `home-${width}-${colorScheme}`;
      await page.screenshot({
        path: join(artifactsDir, 'screenshots', `${name}.png`),
        fullPage: true,
        animations: 'disabled',
      });
      // A tall phone page shrinks to nothing in an image viewer: also save
      // it one screen at a time.
      if (width < 768) await saveScreens(page, name, height);
    });
  }
}

test('404 and sign-in screenshots', async ({ page }) => {
  for (const { width, height } of widths) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: width === 375 ? 'dark' : 'light', reducedMotion: 'reduce' });
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await page.screenshot({
      path: join(artifactsDir, 'screenshots', `not-found-${width}.png`),
      fullPage: true,
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to CourseLens' })).toBeVisible();
    await page.screenshot({
      path: join(artifactsDir, 'screenshots', `login-${width}.png`),
      fullPage: true,
    });
  }
});

const layoutWidths = [
  { width: 375, height: 812 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
] as const;

const layoutPages = [
  { name: 'features', path: '/features', signedIn: false },
  { name: 'pricing', path: '/pricing', signedIn: false },
  { name: 'blog-article', path: '/blog/send-storyline-variables-to-courselens', signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'courses', path: '/courses', signedIn: true },
  { name: 'settings-general', path: '/organization/settings', signedIn: true },
  { name: 'settings-members', path: '/organization/settings?tab=members', signedIn: true },
  { name: 'settings-invitations', path: '/organization/settings?tab=invitations', signedIn: true },
  { name: 'settings-api-keys', path: '/organization/settings?tab=api-keys', signedIn: true },
  { name: 'profile', path: '/profile/update', signedIn: true },
  { name: 'shared-report', path: '/shared/questions/q1/report', signedIn: false },
  // `demo`: the seeded demo organization, so the page shows real data; `{safetyCourseId}` is its safety course.
  // Only opened (the summary page caches its summary, which no spec reads): every spec may read the demo at once.
  { name: 'ai-summary', path: '/course/{safetyCourseId}/variable/final_score/ai-summary', signedIn: 'demo' },
  // Variable reports (question and shared views are in question-reports.spec.ts and shared-views.spec.ts).
  { name: 'variable-report', path: '/variables/final_score/report', signedIn: 'demo' },
  { name: 'variable-chart', path: '/variables/final_score/chart', signedIn: 'demo' },
  {
    name: 'course-variable-leaders',
    path: '/course/{safetyCourseId}/variable/final_score/leaders',
    signedIn: 'demo',
  },
  // Custom reports; the view and public pages (which need a report) are in custom-reports.spec.ts.
  { name: 'custom-reports-list', path: '/custom-reports', signedIn: 'demo' },
  { name: 'custom-reports-create', path: '/custom-reports/create', signedIn: 'demo' },
  { name: 'custom-reports-generator', path: '/custom-reports/ai-generator', signedIn: 'demo' },
] as const;

/** Signs the page in as the demo account and fills the demo ids a layout path names. */
async function openDemo(page: Page, request: APIRequestContext, path: string): Promise<string> {
  const session = await request.post('/api/session', {
    data: { email: 'demo@courselens.dev', password: 'courselens-demo' },
  });
  expect(session.status()).toBe(200);
  const { token } = (await session.json()) as { token: string };
  await signInAs(page, token);
  const variables = await request.get('/api/variables?q=final_score&pageSize=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { items } = (await variables.json()) as { items: { courseId: string; courseTitle: string }[] };
  const safety = items.find((item) => item.courseTitle === 'Workplace Safety Essentials');
  expect(safety, 'the demo safety course').toBeDefined();
  return path.replace('{safetyCourseId}', safety!.courseId);
}

for (const { name, path: pathTemplate, signedIn } of layoutPages) {
  test(`${name} layout screenshots at 375, 768 and 1440 px`, async ({ page, request }) => {
    let path: string = pathTemplate;
    if (signedIn === 'demo') {
      path = await openDemo(page, request, pathTemplate);
    } else if (signedIn) {
      // Plain names for the pictures; unique subdomains keep parallel tests apart.
      const suffix = uniqueSuffix();
      const { token } = await signUpViaApi(request, {
        organizationName: 'Acme Learning',
        subdomain: `acme-${suffix}`,
      });
      await createOrganizationViaApi(request, token, 'Globex Academy', `globex-${suffix}`);
      if (name.startsWith('settings-')) {
        // Rows in every tab, so the pictures show tables rather than empty states.
        const headers = { authorization: `Bearer ${token}` };
        for (const data of [
          { name: 'Storyline player', scope: 'ingest' },
          { name: 'Moodle plugin', scope: 'ingest' },
        ]) {
          expect((await request.post('/api/api-keys', { headers, data })).status()).toBe(201);
        }
        const invited = await request.post('/api/invitations', {
          headers,
          data: { email: `grace.${suffix}@example.com` },
        });
        expect(invited.status()).toBe(201);
      }
      await signInAs(page, token);
    }
    for (const { width, height } of layoutWidths) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // The data, not its spinner: the overflow check and the picture are of the loaded page.
        await expect(page.locator('svg.animate-spin')).toHaveCount(0);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${name} at ${width} px sticks out sideways`).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: join(artifactsDir, 'screenshots', 'layouts', `${name}-${width}-${colorScheme}.png`),
          fullPage: width !== 375,
          animations: 'disabled',
        });
      }
    }
  });
}

async function saveScreens(page: Page, name: string, screenHeight: number): Promise<void> {
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
  }));
  for (let index = 0, y = 0; y < height; index += 1, y += screenHeight) {
    await page.screenshot({
      path: join(artifactsDir, 'screenshots', 'screens', `${name}-${index + 1}.png`),
      fullPage: true,
      animations: 'disabled',
      clip: { x: 0, y, width, height: Math.min(screenHeight, height - y) },
    });
  }
}
