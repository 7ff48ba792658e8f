import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { signUpWithLearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Variables of an organization of the spec's own (learning data sent through
 * the ingestion API, support/learning-data.ts), since these tests change
 * them: search, course filter, the active toggle and the description persist
 * on the server, CSV export, the course sub-page.
 */

const shotsDir = process.env.SHOTS_DIR ?? join(artifactsDir, 'screenshots');

type VariableRow = {
  id: string;
  name: string;
  active: boolean;
  description: string | null;
  courseId: string;
  courseTitle: string;
};

async function findVariable(request: APIRequestContext, token: string, name: string): Promise<VariableRow> {
  const response = await request.get(`/api/variables?q=${encodeURIComponent(name)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: VariableRow[] };
  const variable = items.find((item) => item.name === name);
  expect(variable, `variable ${name}`).toBeDefined();
  return variable!;
}

function variablesTable(page: Page) {
  return page.getByRole('table', { name: 'Variables' });
}

let token: string;

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, token);
});

test('a team member searches variables and turns one off; it stays off after a reload', async ({
  page,
  request,
}) => {
  await page.goto('/variables');
  await expect(page.getByRole('heading', { level: 1, name: 'Variables' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search variables' }).fill('passed_safety');
  const row = variablesTable(page).getByRole('row').filter({ hasText: 'passed_safety_check' });
  await expect(row).toHaveCount(1);
  await expect(variablesTable(page).getByRole('row')).toHaveCount(2);
  await expect(row.getByRole('link', { name: 'Workplace Safety Essentials' })).toBeVisible();
  await expect(page).toHaveURL(/q=passed_safety/);

  const toggle = page.getByRole('switch', { name: 'Active: passed_safety_check' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  const saved = page.waitForResponse((response) => response.request().method() === 'PATCH');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect((await saved).status()).toBe(200);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Active: passed_safety_check' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  expect((await findVariable(request, token, 'passed_safety_check')).active).toBe(false);

  // The inactive filter finds it, and turns it on again.
  await page.getByLabel('Status').selectOption('inactive');
  await expect(page).toHaveURL(/status=inactive/);
  await expect(variablesTable(page).getByRole('row').filter({ hasText: 'passed_safety_check' })).toHaveCount(
    1,
  );
  await page.getByRole('switch', { name: 'Active: passed_safety_check' }).click();
  await expect
    .poll(async () => (await findVariable(request, token, 'passed_safety_check')).active)
    .toBe(true);
});

test('a team member edits a description in a dialog; it is saved on the server', async ({
  page,
  request,
}) => {
  const before = await findVariable(request, token, 'it_setup_complete');
  const text = `Set when IT has handed over the laptop (${Date.now()})`;
  await page.goto('/variables?q=it_setup_complete');
  await page.getByRole('button', { name: 'Edit description of it_setup_complete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit description' });
  await expect(dialog.getByLabel('Description')).toHaveValue(before.description ?? '');
  await dialog.getByLabel('Description').fill(text);
  await dialog.getByRole('button', { name: 'Save description' }).click();
  await expect(dialog).toBeHidden();
  await expect(variablesTable(page).getByText(text)).toBeVisible();

  await page.reload();
  await expect(variablesTable(page).getByText(text)).toBeVisible();
  expect((await findVariable(request, token, 'it_setup_complete')).description).toBe(text);

  // Put the description back for the tests after this one.
  const restore = await request.patch(`/api/variables/${before.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: before.name, description: before.description ?? '' },
  });
  expect(restore.status()).toBe(200);
});

test('the course filter narrows the list and the export holds exactly the filtered rows', async ({
  page,
}) => {
  await page.goto('/variables');
  await expect(variablesTable(page).getByRole('row').nth(1)).toBeVisible();
  const option = page
    .getByLabel('Course', { exact: true })
    .locator('option', { hasText: 'New Hire Onboarding' });
  const label = (await option.textContent())!;
  const expected = Number(/\((\d+)\)$/.exec(label)?.[1]);
  await page.getByLabel('Course', { exact: true }).selectOption({ label });
  await expect(page).toHaveURL(/course=/);
  const rows = variablesTable(page).getByRole('row');
  await expect(rows).toHaveCount(expected + 1);
  await expect(variablesTable(page).getByRole('link', { name: 'New Hire Onboarding' })).toHaveCount(expected);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('variables.csv');
  const csv = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'Name,Title,Course,Data type,Usage count,Learners,Last recorded at,Active,Description,Variable ID,Course ID',
  );
  expect(lines).toHaveLength(expected + 1);
  for (const line of lines.slice(1)) expect(line).toContain(',New Hire Onboarding,');
});

test("a course's variables sub-page shows the course, its variables only, and exports them", async ({
  page,
}) => {
  await page.goto('/variables?q=passed_safety_check');
  await page.getByRole('link', { name: 'Workplace Safety Essentials' }).click();
  await expect(page).toHaveURL(/\/course\/[0-9a-f-]{36}\/variables$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Workplace Safety Essentials' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Course sections' }).getByRole('link', { name: 'Variables' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(variablesTable(page).getByText('passed_safety_check')).toBeVisible();
  await expect(variablesTable(page).getByText('it_setup_complete')).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Course' })).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Workplace-Safety-Essentials-variables.csv');
  const lines = (await readFile(await file.path(), 'utf8')).trimEnd().split('\r\n').slice(1);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toContain(',Workplace Safety Essentials,');
});

test.describe('an unknown course', () => {
  // The browser logs the API's 404 answer as a console error: that is the point here.
  test.use({ allowPageErrors: true });

  test('an unknown course sub-page says the course was not found', async ({ page }) => {
    await page.goto('/course/00000000-0000-4000-8000-000000000000/variables');
    await expect(page.getByRole('heading', { level: 1, name: 'Course not found' })).toBeVisible();
  });
});

for (const width of [375, 1440] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`variables screenshots at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.goto('/variables');
      await expect(variablesTable(page).getByRole('row').nth(5)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({
        path: join(shotsDir, `variables-${width}-${colorScheme}.png`),
        fullPage: true,
      });

      await page
        .getByRole('button', { name: /^Edit description of/ })
        .first()
        .click();
      await expect(page.getByRole('dialog', { name: 'Edit description' })).toBeVisible();
      await page.screenshot({ path: join(shotsDir, `variables-dialog-${width}-${colorScheme}.png`) });
      await page.keyboard.press('Escape');

      const { courseId } = await findVariable(request, token, 'passed_safety_check');
      await page.goto(`/course/${courseId}/variables`);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Workplace Safety Essentials' }),
      ).toBeVisible();
      await expect(variablesTable(page).getByRole('row').nth(2)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({
        path: join(shotsDir, `course-variables-${width}-${colorScheme}.png`),
        fullPage: true,
      });
    });
  }
}
