import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from '@playwright/test';

import { createOrganizationViaApi, signInAs, signUpViaApi } from '../support/accounts';
import { SAFETY, signUpWithLearningData, type LearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * The same things look and read the same everywhere: one course header,
 * shared views that say whose they are, and the current organization that
 * follows the spec on every fresh load.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'consistency');
mkdirSync(shotsDir, { recursive: true });

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

async function shoot(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.screenshot({
      path: join(shotsDir, `${name}-${colorScheme}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A signed-out visitor in a browser context of their own. */
async function visitor(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test.describe('with learning data', () => {
  test.describe.configure({ mode: 'serial' });
  let data: LearningData;
  let courseId: string;

  test.beforeAll(async ({ request }) => {
    data = await signUpWithLearningData(request);
    courseId = data.courseIds[SAFETY.externalCourseId]!;
  });

  test('every course page has the one header: the same four tabs at the same width', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, data.account.token);
    const widths: number[] = [];
    for (const [section, path] of [
      ['Learners', `/course/${courseId}/learners`],
      ['Variables', `/course/${courseId}/variables`],
      ['Questions', `/course/${courseId}/questions`],
      ['Broadcasts', `/courses/${courseId}/broadcasts`],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: SAFETY.title })).toBeVisible();
      const tabs = page.getByRole('navigation', { name: 'Course sections' });
      await expect(tabs.getByRole('link')).toHaveText(['Learners', 'Variables', 'Questions', 'Broadcasts']);
      await expect(tabs.getByRole('link', { name: section })).toHaveAttribute('aria-current', 'page');
      await expect(page).toHaveTitle(`${SAFETY.title} · ${section} · CourseLens`);
      widths.push((await page.getByTestId('course-page').boundingBox())!.width);
      await shoot(page, `course-${section.toLowerCase()}-1440`);
    }
    expect(new Set(widths).size).toBe(1);
  });

  test('a visitor opens a shared view and sees the organization name, no e-mail and no search', async ({
    page,
    request,
    browser,
  }) => {
    const variables = await request.get('/api/variables?q=final_score&pageSize=100', {
      headers: data.headers,
    });
    const variable = ((await variables.json()) as { items: { id: string; courseId: string }[] }).items.find(
      (item) => item.courseId === courseId,
    )!;
    const share = await request.put(`/api/variables/${variable.id}/share`, {
      headers: data.headers,
      data: { enabled: true },
    });
    expect(share.status(), await share.text()).toBe(200);
    const { token } = (await share.json()) as { token: string };

    const guest = await visitor(browser);
    await guest.goto(`/shared/course/${courseId}/variable/final_score/report?token=${token}`);
    const table = guest.getByRole('table', { name: 'Latest value of each learner' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(guest.getByTestId('shared-by')).toHaveText(`Shared by ${data.account.organization.name}`);
    await expect(guest.getByRole('searchbox')).toHaveCount(0);
    await expect(guest.getByText(/e-mail/i)).toHaveCount(0);
    expect(await guest.locator('body').innerText()).not.toContain('@');
    await shoot(guest, 'shared-variable-report-1440');
    await guest.setViewportSize({ width: 375, height: 812 });
    await shoot(guest, 'shared-variable-report-375');
    await guest.context().close();

    // The members' own report still searches by name or e-mail.
    await signInAs(page, data.account.token);
    await page.goto(`/course/${courseId}/variable/final_score/report`);
    await expect(page.getByRole('searchbox', { name: 'Search learners' })).toBeVisible();
  });

  test('the same result reads "Incorrect" on the question report and the learner answers', async ({
    page,
    request,
  }) => {
    await signInAs(page, data.account.token);
    const questions = await request.get(`/api/courses/${courseId}/questions?pageSize=1`, {
      headers: data.headers,
    });
    const questionId = ((await questions.json()) as { items: { id: string }[] }).items[0]!.id;
    await page.goto(`/questions/${questionId}/report?correct=false`);
    const answers = page.getByRole('table', { name: 'Answers' });
    await expect(answers.getByRole('row').nth(1)).toContainText('Incorrect');
    await expect(page.getByText('Wrong', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('option', { name: 'Incorrect only' })).toBeAttached();
  });
});

test('the current organization is the primary on a fresh load, unless one was picked in this tab', async ({
  page,
  context,
  request,
}) => {
  const account = await signUpViaApi(request);
  const other = await createOrganizationViaApi(request, account.token, `Globex Academy ${account.user.id}`);
  await signInAs(page, account.token);
  await page.goto('/dashboard');
  await expect(sidebar(page).getByTestId('organization-name')).toHaveText(account.organization.name);

  await sidebar(page).getByRole('button', { name: account.organization.name }).click();
  await page
    .getByRole('list', { name: 'Your organizations' })
    .getByRole('button', { name: /^Globex/ })
    .click();
  await expect(sidebar(page).getByTestId('organization-name')).toHaveText(other.name);

  // The same tab reloads: the pick holds.
  await page.reload();
  await expect(sidebar(page).getByTestId('organization-name')).toHaveText(other.name);

  // Another tab (a fresh load, same browser): the primary organization.
  const second = await context.newPage();
  await second.goto('/dashboard');
  await expect(sidebar(second).getByTestId('organization-name')).toHaveText(account.organization.name);
  // And the first tab keeps its pick.
  await page.reload();
  await expect(sidebar(page).getByTestId('organization-name')).toHaveText(other.name);
});

test('the delete-course dialog offers only what exists', async ({ page, request }) => {
  const account = await signUpViaApi(request);
  const response = await request.post('/api/courses', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { courseTitle: 'Course to delete' },
  });
  expect(response.status(), await response.text()).toBe(201);
  await signInAs(page, account.token);
  await page.goto('/courses');
  await page.getByRole('button', { name: 'Actions for Course to delete' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete course' });
  await expect(dialog.getByRole('checkbox')).toHaveCount(2);
  await expect(dialog.getByText(/pipeline/i)).toHaveCount(0);
  await shoot(page, 'delete-course-dialog');
});

test.describe('a page about an agent that does not exist', () => {
  // Chromium logs the 404 the page then explains.
  test.use({ allowPageErrors: true });

  test('the chat page of an agent that does not exist says so, with no chat box', async ({ page }) => {
    await page.goto('/chat/00000000-0000-4000-8000-000000000000');
    await expect(
      page.getByRole('heading', { level: 1, name: 'This assistant does not exist' }),
    ).toBeVisible();
    await expect(page.getByRole('textbox')).toHaveCount(0);
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toHaveCount(0);
    await shoot(page, 'chat-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await shoot(page, 'chat-375');
  });
});
