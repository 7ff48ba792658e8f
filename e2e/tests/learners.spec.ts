import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { APIRequestContext, Download, Locator, Page } from '@playwright/test';

import { signInAs, signUpViaApi } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * The learner screens on the demo organization (Acme Learning, seeded by the
 * e2e server): search, sort and paging of /learners, a learner's tabs, and
 * the CSV exports.
 *
 * Read-only on the demo organization: these tests are about the seeded demo
 * data, and every spec may read it at the same time, so none writes to it
 * (specs that change data sign up an organization of their own, with
 * support/learning-data.ts).
 */

const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };

async function demoToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/session', { data: DEMO });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

function learnersTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Learners' });
}

/** The data rows of a table (the header row has column headers, not row headers). */
function dataRows(table: Locator): Locator {
  return table.locator('tbody tr');
}

/**
 * The downloaded file's text without a leading byte-order mark: the server
 * sends one, but the browser's fetch drops it when the app reads the body as
 * text before saving it (components/export-csv-button.tsx).
 */
async function downloadText(download: Download): Promise<string> {
  const path = await download.path();
  return (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
}

/** The list is in (code-unit) order; the test databases use the C collation. */
function isSorted(values: string[], order: 'asc' | 'desc'): boolean {
  const sorted = [...values].sort();
  if (order === 'desc') sorted.reverse();
  return values.length > 1 && values.every((value, index) => value === sorted[index]);
}

test.describe('learners', () => {
  let token: string;

  test.beforeAll(async ({ request }) => {
    token = await demoToken(request);
  });

  test.beforeEach(async ({ page }) => {
    await signInAs(page, token);
  });

  test('a team member searches, sorts and pages through the learners', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/learners');
    await expect(page.getByRole('heading', { level: 1, name: 'Learners' })).toBeVisible();
    const table = learnersTable(page);
    await expect(dataRows(table)).toHaveCount(25);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination).toContainText(/1–25 of [\d,]+ learners/);

    await pagination.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/learners\?page=2$/);
    await expect(pagination).toContainText(/26–50 of [\d,]+ learners/);

    // Sorting by e-mail starts again from page 1, in e-mail order.
    await table.getByRole('button', { name: 'Email' }).click();
    await expect(page).toHaveURL(/\/learners\?sort=email&order=asc$/);
    await expect(table.getByRole('columnheader', { name: 'Email' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(pagination).toContainText(/1–25 of/);
    // The old page stays on screen (dimmed) until the sorted one arrives.
    const emailsOf = () => dataRows(table).locator('td:nth-child(2)').allInnerTexts();
    await expect.poll(async () => isSorted(await emailsOf(), 'asc')).toBe(true);

    await table.getByRole('button', { name: 'Email' }).click();
    await expect(page).toHaveURL(/sort=email&order=desc/);
    await expect.poll(async () => isSorted(await emailsOf(), 'desc')).toBe(true);

    // Search by the start of a name, ignoring case.
    await expect(dataRows(table)).toHaveCount(25);
    const name = (await dataRows(table).first().getByRole('link').innerText()).trim();
    const prefix = name.slice(0, 3).toUpperCase();
    await page.getByRole('searchbox', { name: 'Search learners' }).fill(prefix);
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(prefix)}`));
    // The old page (which shows that learner too) stays on screen until the
    // search's answer arrives: wait for rows that all match, read at once.
    const hasWordWithPrefix = (text: string) =>
      text
        .toLowerCase()
        .split(/\s+/)
        .some((word) => word.startsWith(prefix.toLowerCase()));
    await expect
      .poll(async () => {
        const rows = await dataRows(table).allInnerTexts();
        return rows.length > 0 && rows.every(hasWordWithPrefix);
      })
      .toBe(true);
    await expect(dataRows(table).getByRole('link', { name })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search learners' }).fill('zzzz-nobody');
    await expect(table).toContainText('No learner’s name or e-mail starts with “zzzz-nobody”');
  });

  test('a team member exports the searched learner list as CSV', async ({ page }) => {
    await page.goto('/learners?sort=email&order=asc');
    await expect(dataRows(learnersTable(page))).toHaveCount(25);
    const firstEmail = (await dataRows(learnersTable(page)).first().locator('td').first().innerText()).trim();
    await page.goto(`/learners?sort=email&order=asc&q=${encodeURIComponent(firstEmail)}`);
    await expect(dataRows(learnersTable(page)).getByRole('link')).toHaveCount(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('learners.csv');
    const csv = await downloadText(download);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Courses,Last activity,Created at,Learner ID');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${firstEmail},`);
  });

  test('a team member opens a learner and visits each tab', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/learners?sort=courses&order=desc');
    const firstLink = dataRows(learnersTable(page)).first().getByRole('link');
    const name = (await firstLink.innerText()).trim();
    await firstLink.click();

    await expect(page).toHaveURL(/\/learner\/[0-9a-f-]{36}\/courses$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const tabs = page.getByRole('navigation', { name: 'Learner sections' });
    await expect(tabs.getByRole('link', { name: 'Courses' })).toHaveAttribute('aria-current', 'page');
    const courses = page.getByRole('table', { name: 'Courses of this learner' });
    await expect(dataRows(courses).first()).toBeVisible();
    expect(await dataRows(courses).count()).toBeGreaterThan(1);

    // A course opens the learner's variables in that course.
    const courseLink = dataRows(courses).first().getByRole('link');
    const courseTitle = (await courseLink.innerText()).trim();
    await courseLink.click();
    await expect(page).toHaveURL(/\/learner\/[0-9a-f-]{36}\/course\/[0-9a-f-]{36}\/variables$/);
    await expect(page.getByRole('heading', { level: 2, name: `Variables in ${courseTitle}` })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(courseTitle);
    const courseVariables = page.getByRole('table', { name: `Variables of this learner in ${courseTitle}` });
    await expect(courseVariables).toBeVisible();
    const [courseCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(courseCsv.suggestedFilename()).toBe('learner-course-variables.csv');
    expect(await downloadText(courseCsv)).toMatch(/^Variable,Title,Course,Data type,Value,Recorded at/);

    await tabs.getByRole('link', { name: 'Variables' }).click();
    await expect(page).toHaveURL(/\/learner\/[0-9a-f-]{36}\/variables$/);
    const variables = page.getByRole('table', { name: 'Variables of this learner' });
    await expect(dataRows(variables).first()).toBeVisible();
    await variables.getByRole('button', { name: 'Recorded' }).click();
    await expect(page).toHaveURL(/sort=recordedAt&order=asc/);

    await tabs.getByRole('link', { name: 'Responses' }).click();
    await expect(page).toHaveURL(/\/learner\/[0-9a-f-]{36}\/responses$/);
    const responses = page.getByRole('table', { name: 'Answers of this learner' });
    await expect(dataRows(responses).first()).toBeVisible();
    await expect(
      responses
        .locator('td')
        .getByText(/^(Correct|Incorrect|Not graded)$/)
        .first(),
    ).toBeVisible();
    const [responsesCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(responsesCsv.suggestedFilename()).toBe('learner-responses.csv');
    const csv = await downloadText(responsesCsv);
    expect(csv).toMatch(
      /^Question,Slide,Question number,Course,Answer,Correct,Correct answer,Points,Answered at\r\n/,
    );
    expect(csv.trim().split('\r\n').length).toBeGreaterThan(1);

    await tabs.getByRole('link', { name: 'Courses' }).click();
    const [coursesCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(coursesCsv.suggestedFilename()).toBe('learner-courses.csv');
    expect(await downloadText(coursesCsv)).toContain(courseTitle);
  });

  test('a person of another organization gets "Learner not found"', async ({ page, browser, request }) => {
    await page.goto('/learners');
    const href = await dataRows(learnersTable(page)).first().getByRole('link').getAttribute('href');
    expect(href).toMatch(/^\/learner\//);

    const stranger = await signUpViaApi(request);
    const context = await browser.newContext();
    const strangerPage = await context.newPage();
    await signInAs(strangerPage, stranger.token);
    await strangerPage.goto(href!);
    await expect(strangerPage.getByRole('heading', { level: 1, name: 'Learner not found' })).toBeVisible();
    await strangerPage.goto('/learners');
    await expect(strangerPage.getByText('No learners yet')).toBeVisible();
    await context.close();
  });
});

test.describe('learner screenshots', () => {
  test.use({ allowPageErrors: false });

  for (const { width, height } of [
    { width: 375, height: 812 },
    { width: 1440, height: 900 },
  ]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`learner screens at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
        await signInAs(page, await demoToken(request));
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        const shot = async (name: string) => {
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(scrollWidth, `${name} scrolls sideways`).toBeLessThanOrEqual(width);
          await page.screenshot({
            path: join(artifactsDir, 'screenshots', `learners-${name}-${width}-${colorScheme}.png`),
            fullPage: true,
            animations: 'disabled',
          });
        };
        await page.goto('/learners');
        await expect(dataRows(learnersTable(page))).toHaveCount(25);
        await shot('list');
        await page.goto('/learners?q=zzzz');
        await expect(learnersTable(page)).toContainText('No learner’s name');
        await shot('list-empty');
        await page.goto('/learners?sort=courses&order=desc');
        await dataRows(learnersTable(page)).first().getByRole('link').click();
        const courses = page.getByRole('table', { name: 'Courses of this learner' });
        await expect(dataRows(courses).first()).toBeVisible();
        await shot('courses');
        const learnerUrl = page.url();
        await dataRows(courses).first().getByRole('link').click();
        await expect(page.getByRole('heading', { level: 2, name: /^Variables in / })).toBeVisible();
        await expect(page.locator('tbody tr').first()).toBeVisible();
        await shot('course-variables');
        await page.goto(learnerUrl.replace(/\/courses$/, '/variables'));
        await expect(
          page.getByRole('table', { name: 'Variables of this learner' }).locator('tbody tr').first(),
        ).toBeVisible();
        await shot('variables');
        await page.goto(learnerUrl.replace(/\/courses$/, '/responses'));
        await expect(
          page.getByRole('table', { name: 'Answers of this learner' }).locator('tbody tr').first(),
        ).toBeVisible();
        await shot('responses');
      });
    }
  }
});
