import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs, signUpViaApi } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };
const screenshotsDir = process.env.SHOTS_DIR ?? join(artifactsDir, 'screenshots');

let demoToken: string | undefined;

/**
 * One sign-in per worker: the demo account's session token. The demo tests
 * only read: the figures the page must show are read from the API first, and
 * no spec writes to the demo organization (those that change data sign up
 * an organization of their own, support/learning-data.ts).
 */
async function demoSession(request: APIRequestContext): Promise<string> {
  if (!demoToken) {
    const response = await request.post('/api/session', { data: DEMO });
    expect(response.status(), await response.text()).toBe(200);
    demoToken = ((await response.json()) as { token: string }).token;
  }
  return demoToken;
}

type Dashboard = {
  totals: Record<string, number>;
  inPeriod: { courseRuns: number; newLearners: number };
  topCourses: { title: string; runs: number }[];
  hardestQuestions: { questionText: string | null }[];
  recentActivity: { summary: string | null }[];
  runsOverTime: { date: string; runs: number }[];
};

async function fetchDashboard(request: APIRequestContext, token: string, days: number): Promise<Dashboard> {
  const response = await request.get(`/api/dashboard?days=${days}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Dashboard;
}

const number = (value: number) => new Intl.NumberFormat('en-US').format(value);

async function expectNoSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

test.describe('dashboard', () => {
  test('the demo owner sees the organization’s figures and switches the period', async ({
    page,
    request,
  }) => {
    const token = await demoSession(request);
    const thirty = await fetchDashboard(request, token, 30);
    const seven = await fetchDashboard(request, token, 7);
    expect(thirty.totals.learners).toBeGreaterThan(0);

    await signInAs(page, token);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('stat-learners')).toContainText(number(thirty.totals.learners ?? 0));
    await expect(page.getByTestId('stat-courses')).toContainText(number(thirty.totals.courses ?? 0));
    await expect(page.getByTestId('stat-course-runs')).toContainText(number(thirty.totals.courseRuns ?? 0));
    await expect(page.getByTestId('stat-responses')).toContainText(number(thirty.totals.responses ?? 0));
    await expect(page.getByTestId('stat-active-7')).toContainText(
      number(thirty.totals.activeLearners7d ?? 0),
    );
    await expect(page.getByTestId('stat-active-30')).toContainText(
      number(thirty.totals.activeLearners30d ?? 0),
    );
    await expect(page.getByRole('img', { name: /Course runs per day: 30 bars/ })).toBeVisible();
    const topCourse = thirty.topCourses[0];
    if (topCourse) await expect(page.getByRole('link', { name: topCourse.title })).toBeVisible();
    const hardest = thirty.hardestQuestions[0]?.questionText;
    if (hardest) await expect(page.getByRole('link', { name: hardest })).toBeVisible();
    const latest = thirty.recentActivity[0]?.summary;
    if (latest) await expect(page.getByText(latest).first()).toBeVisible();

    const period = page.getByRole('group', { name: 'Period' });
    await period.getByRole('button', { name: '7 days' }).click();
    await expect(page).toHaveURL(/\/dashboard\?days=7$/);
    await expect(period.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('img', { name: /Course runs per day: 7 bars/ })).toBeVisible();
    await expect(page.getByTestId('stat-course-runs')).toContainText(
      `${number(seven.inPeriod.courseRuns)} in the last 7 days`,
    );

    // The period survives a reload (it is in the URL).
    await page.reload();
    await expect(
      page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '7 days' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('link', { name: 'View all' }).click();
    await expect(page).toHaveURL(/\/activity$/);
  });

  test('a new organization sees how to get started', async ({ page, request }) => {
    const account = await signUpViaApi(request);
    await signInAs(page, account.token);
    await page.goto('/dashboard');
    const panel = page.getByTestId('getting-started');
    await expect(panel.getByRole('heading', { name: 'Get your first learning data in' })).toBeVisible();
    const origin = new URL(page.url()).origin;
    await expect(panel.getByLabel('Tracker snippet', { exact: true })).toContainText(
      `<script src="${origin}/tracker.js"></script>`,
    );
    await expect(panel.getByLabel('Tracker snippet', { exact: true })).toContainText('CourseLens.init({');
    await expect(panel.getByLabel('Test event command', { exact: true })).toContainText(
      `curl -X POST ${origin}/api/v1/events`,
    );
    await expect(page.getByRole('group', { name: 'Period' })).toHaveCount(0);
    await expect(page.getByTestId('stat-learners')).toHaveCount(0);

    await panel.getByRole('link', { name: 'Create an API key' }).click();
    await expect(page).toHaveURL(/\/organization\/settings\?tab=api-keys$/);
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  });

  for (const width of [375, 1440] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`dashboard screenshots at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await signInAs(page, await demoSession(request));
        await page.goto('/dashboard');
        await expect(page.getByTestId('stat-learners')).toBeVisible();
        await expect(page.getByRole('img', { name: /Course runs per day/ })).toBeVisible();
        await expectNoSidewaysScroll(page, width);
        await page.screenshot({
          path: join(screenshotsDir, `dashboard-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      });

      test(`getting-started screenshots at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await signInAs(page, (await signUpViaApi(request)).token);
        await page.goto('/dashboard');
        await expect(page.getByTestId('getting-started')).toBeVisible();
        await expectNoSidewaysScroll(page, width);
        await page.screenshot({
          path: join(screenshotsDir, `dashboard-empty-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      });
    }
  }
});
