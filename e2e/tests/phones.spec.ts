import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { APIRequestContext, Locator, Page } from '@playwright/test';

import { signInAs, signUpViaApi } from '../support/accounts';
import { createApiKeyViaApi } from '../support/course-page';
import { SAFETY, signUpWithLearningData, type LearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * A phone (375 px): under 768 px the sidebar stays a narrow rail and opens
 * as a drawer over the page; every page reads in the width left, with
 * filters behind a button, course tabs that scroll and e-mails that wrap.
 */

const PHONE = { width: 375, height: 812 };
const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'phones');
mkdirSync(shotsDir, { recursive: true });

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });
const width = async (locator: Locator) => (await locator.boundingBox())?.width;

/** Nothing sticks out sideways: the page is no wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(PHONE.width);
}

async function shoot(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.screenshot({
      path: join(shotsDir, `${name}-375-${colorScheme}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('the sidebar on a phone', () => {
  test.use({ viewport: PHONE });

  test('a member opens the sidebar as a drawer over the page; a link, Escape or a tap outside closes it', async ({
    page,
    request,
  }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.goto('/dashboard');
    const main = page.getByRole('main');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // The spec's collapsed sidebar stays: a narrow rail beside the page.
    await expect.poll(() => width(sidebar(page))).toBe(80);
    const mainBefore = await main.boundingBox();

    await sidebar(page).getByRole('button', { name: 'Open sidebar' }).click();
    await expect.poll(() => width(sidebar(page))).toBe(256);
    // Laid over the page, not squeezing it.
    expect(await main.boundingBox()).toEqual(mainBefore);
    await expect(page.getByTestId('sidebar-backdrop')).toBeVisible();
    // Focus moved into the drawer, and the page behind does not scroll.
    await expect(sidebar(page).getByRole('link', { name: 'Dashboard' })).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    await shoot(page, 'drawer-open');

    await page.keyboard.press('Escape');
    await expect.poll(() => width(sidebar(page))).toBe(80);
    await expect(sidebar(page).getByRole('button', { name: 'Open sidebar' })).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');

    // A tap on the dimmed page closes it, and does not press what is under it.
    await sidebar(page).getByRole('button', { name: 'Open sidebar' }).click();
    await expect(page.getByTestId('sidebar-backdrop')).toBeVisible();
    await page.mouse.click(330, 400);
    await expect.poll(() => width(sidebar(page))).toBe(80);
    await expect(page).toHaveURL(/\/dashboard$/);

    // Following a link closes it.
    await sidebar(page).getByRole('button', { name: 'Open sidebar' }).click();
    await sidebar(page).getByRole('link', { name: 'Courses' }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
    await expect.poll(() => width(sidebar(page))).toBe(80);
    await expect(page.getByTestId('sidebar-backdrop')).toHaveCount(0);
  });

  test('from 768 px the sidebar collapses in place as before, without a drawer', async ({
    page,
    request,
  }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.setViewportSize({ width: 768, height: 900 });
    await page.goto('/dashboard');
    await expect.poll(() => width(sidebar(page))).toBe(256);
    await sidebar(page).getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(() => width(sidebar(page))).toBe(80);
    await expect(page.getByTestId('sidebar-backdrop')).toHaveCount(0);
  });
});

const LONG_EMAIL = 'maximiliane.wolfeschlegelsteinhausen@training-department.example-academy.com';

/** One more learner, with a long e-mail address, sent through the ingestion API like a course would. */
async function addLearnerWithLongEmail(request: APIRequestContext, data: LearningData) {
  const key = await createApiKeyViaApi(request, data.account.token, 'Long e-mail player');
  const response = await request.post('/api/v1/events', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      events: [
        {
          id: 'long-email-1',
          type: 'course.started',
          run: 'long-email-run',
          timestamp: new Date(Date.now() - 3_600_000).toISOString(),
          course: { externalCourseId: SAFETY.externalCourseId, title: SAFETY.title },
          learner: { email: LONG_EMAIL, name: 'Maximiliane Wolfeschlegelsteinhausen' },
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  await expect
    .poll(async () => {
      const learners = await request.get(`/api/learners?q=${encodeURIComponent('maximiliane')}`, {
        headers: data.headers,
      });
      return ((await learners.json()) as { total: number }).total;
    })
    .toBe(1);
}

test.describe('pages on a phone', () => {
  test.use({ viewport: PHONE });
  test.describe.configure({ mode: 'serial' });

  let data: LearningData;
  let courseId: string;

  test.beforeAll(async ({ request }) => {
    data = await signUpWithLearningData(request);
    courseId = data.courseIds[SAFETY.externalCourseId]!;
    await addLearnerWithLongEmail(request, data);
  });

  test('lists collapse their filters behind a Filters button and fit the screen', async ({ page }) => {
    await signInAs(page, data.account.token);
    for (const { path, name, filter } of [
      { path: '/variables', name: 'variables', filter: 'Status' },
      { path: '/questions', name: 'questions', filter: 'Show' },
      { path: '/learners', name: 'learners', filter: 'Sort by' },
    ]) {
      await page.goto(path);
      await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
      const button = page.getByRole('button', { name: /^Filters/ });
      await expect(button).toBeVisible();
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByLabel(filter)).toBeHidden();
      await expectNoSidewaysScroll(page);
      await shoot(page, name);

      await button.click();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByLabel(filter)).toBeVisible();
      await expectNoSidewaysScroll(page);
    }
  });

  test('a long e-mail wraps at the @ and dots inside the table, never past the screen', async ({ page }) => {
    await signInAs(page, data.account.token);
    await page.goto('/learners?q=maximiliane');
    // Under 768 px the e-mail column is hidden: the address sits under the name.
    const email = page.getByRole('table').getByTitle(LONG_EMAIL).filter({ visible: true });
    await expect(email).toBeVisible();
    const box = (await email.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // More than one line, broken where the address allows it.
    expect(box.height).toBeGreaterThan(20);
    expect(await email.evaluate((element) => getComputedStyle(element).overflowWrap)).toBe('anywhere');
    expect(await email.locator('wbr').count()).toBeGreaterThan(0);
    // Names are ordinary words: never cut in the middle.
    const name = page.getByRole('link', { name: 'Maximiliane Wolfeschlegelsteinhausen' });
    expect(await name.evaluate((element) => getComputedStyle(element).wordBreak)).not.toBe('break-all');
    await expectNoSidewaysScroll(page);
    await shoot(page, 'learners-long-email');

    await page.goto(`/course/${courseId}/learners?q=maximiliane`);
    await expect(page.getByRole('table').getByTitle(LONG_EMAIL).filter({ visible: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('course tabs scroll sideways with the current one in view, and every course page fits', async ({
    page,
  }) => {
    await signInAs(page, data.account.token);
    for (const [section, path] of [
      ['Learners', `/course/${courseId}/learners`],
      ['Variables', `/course/${courseId}/variables`],
      ['Questions', `/course/${courseId}/questions`],
      ['Broadcasts', `/courses/${courseId}/broadcasts`],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: SAFETY.title })).toBeVisible();
      const tabs = page.getByRole('navigation', { name: 'Course sections' });
      const current = tabs.getByRole('link', { name: section });
      await expect(current).toHaveAttribute('aria-current', 'page');
      // The four tabs do not fit 375 px: the strip scrolls instead of cutting them off.
      const strip = await tabs.evaluate((element) => ({
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
        overflowX: getComputedStyle(element).overflowX,
      }));
      expect(strip.overflowX).toBe('auto');
      await expect(tabs.getByRole('link')).toHaveText(['Learners', 'Variables', 'Questions', 'Broadcasts']);
      const stripBox = (await tabs.boundingBox())!;
      const tabBox = (await current.boundingBox())!;
      expect(tabBox.x).toBeGreaterThanOrEqual(stripBox.x - 1);
      expect(tabBox.x + tabBox.width).toBeLessThanOrEqual(stripBox.x + stripBox.width + 1);
      await expectNoSidewaysScroll(page);
      await shoot(page, `course-${section.toLowerCase()}`);
    }
  });

  test('reports read in the width left', async ({ page }) => {
    await signInAs(page, data.account.token);
    await page.goto(`/course/${courseId}/variable/final_score/report`);
    await expect(
      page.getByRole('table', { name: 'Latest value of each learner' }).getByRole('row').nth(1),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeVisible();
    await expect(page.getByLabel('Recorded from')).toBeHidden();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'variable-report');

    const questions = await page.request.get(`/api/courses/${courseId}/questions?pageSize=1`, {
      headers: data.headers,
    });
    const questionId = ((await questions.json()) as { items: { id: string }[] }).items[0]!.id;
    await page.goto(`/questions/${questionId}/report`);
    await expect(page.getByRole('table', { name: 'Answers' }).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeVisible();
    await expect(page.getByLabel('Answered from')).toBeHidden();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'question-report');
  });
});
