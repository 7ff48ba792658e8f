import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { EXTINGUISHER, signUpWithLearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Questions of an organization of the spec's own (learning data sent through
 * the ingestion API, support/learning-data.ts), since a test here hides one:
 * only active ones are listed, with totals and the correct rate; turning one
 * off hides it (kept under "Hidden questions", persisted on the server);
 * course filter, export, the course sub-page. A question turned off is
 * turned on again before the test ends.
 */

const shotsDir = process.env.SHOTS_DIR ?? join(artifactsDir, 'screenshots');

type QuestionRow = {
  id: string;
  courseId: string;
  courseTitle: string;
  questionText: string | null;
  active: boolean;
  totalResponses: number;
};

async function findQuestion(
  request: APIRequestContext,
  token: string,
  text: string,
  active = true,
): Promise<QuestionRow | undefined> {
  const response = await request.get(
    `/api/questions?q=${encodeURIComponent(text)}${active ? '' : '&active=false'}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: QuestionRow[] }).items.find(
    (item) => item.questionText === text,
  );
}

function questionsTable(page: Page) {
  return page.getByRole('table', { name: 'Questions' });
}

let token: string;

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, token);
});

test('a team member sees active questions with totals and correct rates, and searches them', async ({
  page,
  request,
}) => {
  const seeded = await findQuestion(request, token, EXTINGUISHER);
  expect(seeded?.totalResponses).toBeGreaterThan(0);
  await page.goto('/questions');
  await expect(page.getByRole('heading', { level: 1, name: 'Questions' })).toBeVisible();
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals.getByRole('meter', { name: 'Correct rate' })).toBeVisible();
  await expect(questionsTable(page).getByRole('meter', { name: 'Correct rate' }).first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search questions' }).fill('fire extinguisher');
  const row = questionsTable(page).getByRole('row').filter({ hasText: EXTINGUISHER });
  await expect(row).toHaveCount(1);
  await expect(questionsTable(page).getByRole('row')).toHaveCount(2);
  await expect(row).toContainText(new Intl.NumberFormat('en-US').format(seeded!.totalResponses));
  await expect(totals).toContainText(new Intl.NumberFormat('en-US').format(seeded!.totalResponses));
});

test('turning a question off hides it from the list; it stays hidden after a reload and can be turned on again', async ({
  page,
  request,
}) => {
  await page.goto(`/questions?q=${encodeURIComponent('fire extinguisher')}`);
  const toggle = page.getByRole('switch', { name: `Active: ${EXTINGUISHER}` });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  const saved = page.waitForResponse((response) => response.request().method() === 'PATCH');
  await toggle.click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('No questions match')).toBeVisible();

  await page.reload();
  await expect(page.getByText('No questions match')).toBeVisible();
  expect(await findQuestion(request, token, EXTINGUISHER)).toBeUndefined();

  await page.getByLabel('Show').selectOption('hidden');
  await expect(page).toHaveURL(/show=hidden/);
  const hidden = page.getByRole('switch', { name: `Active: ${EXTINGUISHER}` });
  await expect(hidden).toHaveAttribute('aria-checked', 'false');
  await hidden.click();
  await expect(page.getByText('No questions match')).toBeVisible();
  await expect.poll(async () => (await findQuestion(request, token, EXTINGUISHER))?.active).toBe(true);
});

test('the course filter narrows the questions and the export holds the filtered rows', async ({ page }) => {
  await page.goto('/questions');
  await expect(questionsTable(page).getByRole('row').nth(1)).toBeVisible();
  const select = page.getByLabel('Course', { exact: true });
  const label = (await select.locator('option', { hasText: 'Workplace Safety Essentials' }).textContent())!;
  const expected = Number(/\((\d+)\)$/.exec(label)?.[1]);
  await select.selectOption({ label });
  await expect(page).toHaveURL(/course=/);
  await expect(questionsTable(page).getByRole('row')).toHaveCount(Math.min(expected, 25) + 1);
  await expect(page.getByRole('region', { name: 'Totals' })).toContainText(String(expected));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('questions.csv');
  const lines = (await readFile(await file.path(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'Course,Interaction ID,Slide,Question number,Question,Correct answer,Total responses,Correct responses,Unique learners,Correct rate (%),Active,Question ID,Course ID',
  );
  expect(lines).toHaveLength(expected + 1);
  for (const line of lines.slice(1)) expect(line.startsWith('Workplace Safety Essentials,')).toBe(true);
});

test("a course's questions sub-page lists them in slide order and exports them", async ({
  page,
  request,
}) => {
  const question = await findQuestion(request, token, EXTINGUISHER);
  await page.goto('/questions?q=fire%20extinguisher');
  await page.getByRole('link', { name: 'Workplace Safety Essentials' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${question!.courseId}/questions$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Workplace Safety Essentials' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Course sections' }).getByRole('link', { name: 'Questions' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('columnheader', { name: 'Course' })).toHaveCount(0);
  const slideCells = questionsTable(page)
    .getByRole('row')
    .locator('td')
    .filter({ hasText: /^Slide \d+/ });
  // The rows come with their own request, after the heading: read them once shown.
  await expect(slideCells.nth(1)).toBeVisible();
  const positions = await slideCells.allTextContents();
  const slides = positions.map((text) => Number(/Slide (\d+)/.exec(text)?.[1]));
  expect(slides.length).toBeGreaterThan(1);
  expect(slides).toEqual([...slides].sort((a, b) => a - b));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Workplace-Safety-Essentials-questions.csv');
  const lines = (await readFile(await file.path(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines.length).toBe(slides.length + 1);
});

for (const width of [375, 1440] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`questions screenshots at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.goto('/questions');
      await expect(questionsTable(page).getByRole('row').nth(5)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({
        path: join(shotsDir, `questions-${width}-${colorScheme}.png`),
        fullPage: true,
      });

      const question = await findQuestion(request, token, EXTINGUISHER);
      await page.goto(`/course/${question!.courseId}/questions`);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Workplace Safety Essentials' }),
      ).toBeVisible();
      await expect(questionsTable(page).getByRole('row').nth(2)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({
        path: join(shotsDir, `course-questions-${width}-${colorScheme}.png`),
        fullPage: true,
      });
    });
  }
}
