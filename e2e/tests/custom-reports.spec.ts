import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs, uniqueSuffix } from '../support/accounts';
import { SAFETY, signUpWithLearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Custom reports on an organization of the spec's own (learning data sent
 * through the ingestion API, support/learning-data.ts), since the tests
 * create and share reports: an owner builds a report in the browser, shares
 * it, and a signed-out visitor opens the public link and sees the same
 * numbers; the generator drafts a report that opens in the builder; a dead
 * link shows "not available". Ingested variables have no title: the builder
 * shows their names.
 */

const layoutWidths = [
  { width: 375, height: 812 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
];

type Catalog = {
  courses: { id: string; courseTitle: string }[];
  variables: { id: string; name: string; courseId: string; courseTitle: string }[];
};

async function reportCatalog(request: APIRequestContext, token: string) {
  const response = await request.get('/api/custom-reports/catalog', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const catalog = (await response.json()) as Catalog;
  const safety = catalog.courses.find((course) => course.courseTitle === SAFETY.title);
  const score = catalog.variables.find(
    (variable) => variable.name === 'final_score' && variable.courseId === safety?.id,
  );
  expect(safety && score, 'the safety course and its final score').toBeTruthy();
  return { safety: safety!, score: score! };
}

type ShownNumbers = { title: string; totals: string[] }[];

/** Each item's title and totals as the page shows them. */
async function readNumbers(page: Page): Promise<ShownNumbers> {
  const sections = page.locator('section[aria-labelledby^="item-"]');
  await expect(sections.first()).toBeVisible();
  return sections.evaluateAll((nodes): ShownNumbers =>
    nodes.map((node) => ({
      title: node.querySelector('h2')?.textContent ?? '',
      totals: Array.from(node.querySelectorAll('dl > div'), (entry) => entry.textContent ?? ''),
    })),
  );
}

let token: string;

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
});

test('an owner builds a report from learning data, shares it, and a signed-out visitor sees the same numbers', async ({
  page,
  request,
  browser,
}) => {
  const { safety, score } = await reportCatalog(request, token);
  await signInAs(page, token);
  await page.goto('/custom-reports/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Create report' })).toBeVisible();

  const name = `Safety results ${uniqueSuffix()}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('combobox', { name: 'Report type' }).selectOption('table');
  await page.getByRole('combobox', { name: 'Variable to add' }).selectOption(score.id);
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('combobox', { name: 'Breakdown of final_score' }).selectOption('by_course');
  await page.getByRole('radio', { name: 'By course, slide and number' }).check();
  await page.getByRole('combobox', { name: 'Course of the question' }).selectOption(safety.id);
  await page.getByRole('textbox', { name: 'Question number' }).fill('3');
  await page.getByRole('button', { name: 'Add question' }).click();
  await expect(page.getByTestId('report-item')).toHaveCount(2);
  // Reordering by drag (by the row's grip)...
  const items = page.getByTestId('report-item');
  await items.last().getByTestId('drag-handle').dragTo(items.first());
  await expect(items.first()).toContainText('Question 3');
  // ...and from the keyboard with the move buttons.
  await page.getByRole('button', { name: 'Move Question 3 down' }).click();
  await expect(items.first()).toContainText('final_score');
  await page.getByRole('button', { name: 'Move Question 3 up' }).click();
  await expect(items.first()).toContainText('Question 3');
  await page.getByRole('textbox', { name: 'Display name of final_score' }).fill('Final score by course');
  await page.getByRole('button', { name: 'Create report' }).click();

  await expect(page).toHaveURL(/\/custom-reports\/view\//);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const numbers = await readNumbers(page);
  expect(numbers.map((item) => item.title)).toEqual(['Question 3', 'Final score by course']);
  // The data has answers and scores: the totals are real, not zero.
  expect(numbers[0]?.totals[0]).not.toMatch(/^Answers0$/);
  expect(numbers[1]?.totals[0]).not.toMatch(/^Values0$/);
  await expect(page.getByRole('table', { name: /Final score by course/ })).toContainText(
    'Workplace Safety Essentials',
  );

  // CSV export of the same data.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = (await readFile(await (await download).path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  expect(csv[0]).toBe('Item,Course,Breakdown,Group,Value,Count,Learners,Mean,Min,Max,Rate,Points');
  expect(
    csv.some((line) => line.startsWith('Final score by course,Workplace Safety Essentials,Course,')),
  ).toBe(true);

  // The browser's Print gives the report alone: no sidebar, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('complementary')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('switch', { name: 'Public link' }).click();
  const linkField = page.getByRole('textbox', { name: 'Public link' });
  await expect(linkField).toHaveValue(/\/public-reports\/[A-Za-z0-9_-]{43}$/);
  const link = await linkField.inputValue();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(link);
  await expect(visitorPage.getByRole('heading', { level: 1, name })).toBeVisible();
  expect(await readNumbers(visitorPage)).toEqual(numbers);
  await expect(visitorPage.getByRole('navigation')).toHaveCount(0);
  expect(await visitorPage.locator('body').innerText()).not.toContain('@');
  await visitor.close();

  await page.reload();
  await expect(page.getByTestId('view-count')).toHaveText('1 view');

  // Switching off revokes the link at once.
  await page.getByRole('switch', { name: 'Public link' }).click();
  await expect(page.getByRole('textbox', { name: 'Public link' })).toHaveCount(0);
  const after = await request.get(link.replace(/^.*\/public-reports\//, '/api/public-reports/'));
  expect(after.status()).toBe(404);
});

test('the generator drafts a report that opens in the builder and saves', async ({ page }) => {
  await signInAs(page, token);
  await page.goto('/custom-reports/ai-generator');
  await page
    .getByRole('button', {
      name: 'Average final score by course for the last 30 days, with question 3 of the safety course',
    })
    .click();
  await page.getByRole('button', { name: 'Generate draft' }).click();
  await expect(page.getByTestId('generator-engine')).toHaveText('Built-in engine');
  await expect(page.getByTestId('understood')).toContainText('Period: the last 30 days');
  await expect(page.getByTestId('understood')).toContainText('Question 3 of Workplace Safety Essentials');
  await expect(page.getByText('Everything was matched.')).toBeVisible();

  await page.getByRole('button', { name: 'Open in builder' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/create$/);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(
    /^Average final score by course/,
  );
  await expect(page.getByRole('spinbutton', { name: 'Last N days' })).toHaveValue('30');
  const items = page.getByTestId('report-item');
  expect(await items.count()).toBeGreaterThanOrEqual(2);
  // Dragging across a longer list: the question (last) onto the first row. The
  // window is tall enough for both rows, as Playwright cannot scroll mid-drag.
  await page.setViewportSize({ width: 1440, height: 2000 });
  await expect(items.last()).toContainText('Question 3');
  await items.last().getByTestId('drag-handle').dragTo(items.first());
  await expect(items.first()).toContainText('Question 3');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Generated ${uniqueSuffix()}`);
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/view\//);
  await expect(page.getByText(/^Data since /)).toBeVisible();
});

test('the generator says what it could not find', async ({ page }) => {
  await signInAs(page, token);
  await page.goto('/custom-reports/ai-generator');
  await page
    .getByRole('textbox', { name: 'What should the report show?' })
    .fill('pie chart of revenue by salary');
  await page.getByRole('button', { name: 'Generate draft' }).click();
  await expect(page.getByTestId('not-found')).toContainText('revenue salary');
  await expect(page.getByTestId('understood')).toContainText('Report type: Pie chart');
});

test.describe('a link that is not shared', () => {
  test.use({ allowPageErrors: true });

  test('shows a clear "not available" page without the app chrome', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`/public-reports/${'x'.repeat(43)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This report is not available' })).toBeVisible();
    await expect(page.getByRole('navigation')).toHaveCount(0);
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
  });
});

test('report list, view and public page layouts at 375, 768 and 1440 px', async ({
  page,
  request,
  browser,
}) => {
  // Five pages at three widths in two themes.
  test.setTimeout(180_000);
  const { score } = await reportCatalog(request, token);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/custom-reports', {
    headers,
    data: {
      name: 'Final scores by learner',
      description: 'Each learner’s latest final score in Workplace Safety Essentials.',
      reportType: 'bar',
      config: { limit: 10 },
      items: [
        { kind: 'variable', variableId: score.id, comparisonType: 'by_learner', displayName: 'Final score' },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const report = (await created.json()) as { id: string };
  const shared = await request.put(`/api/custom-reports/${report.id}/public`, {
    headers,
    data: { isPublic: true },
  });
  const { publicShareToken } = (await shared.json()) as { publicShareToken: string };
  await signInAs(page, token);
  const visitor = await (await browser.newContext()).newPage();

  const pages: [string, Page, string][] = [
    ['custom-reports', page, '/custom-reports'],
    ['custom-report-builder', page, `/custom-reports/edit/${report.id}`],
    ['custom-report-generator', page, '/custom-reports/ai-generator'],
    ['custom-report-view', page, `/custom-reports/view/${report.id}`],
    ['public-report', visitor, `/public-reports/${publicShareToken}`],
  ];
  for (const [name, target, path] of pages) {
    for (const { width, height } of layoutWidths) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await target.setViewportSize({ width, height });
        await target.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await target.goto(path);
        await expect(target.getByRole('heading', { level: 1 })).toBeVisible();
        if (name === 'custom-report-generator') {
          // The page with a draft: what was understood and what was not found.
          await target
            .getByRole('textbox', { name: 'What should the report show?' })
            .fill(
              'Average final score by course for the last 30 days, with question 3 of the safety course and revenue',
            );
          await target.getByRole('button', { name: 'Generate draft' }).click();
          await expect(target.getByTestId('generator-engine')).toBeVisible();
        }
        if (name === 'custom-report-view' || name === 'public-report') {
          await expect(target.locator('section[aria-labelledby^="item-"]').first()).toBeVisible();
        }
        const scrollWidth = await target.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${name} at ${width} px sticks out sideways`).toBeLessThanOrEqual(width);
        await target.screenshot({
          path: join(artifactsDir, 'screenshots', 'layouts', `${name}-${width}-${colorScheme}.png`),
          fullPage: width !== 375,
          animations: 'disabled',
        });
      }
    }
  }
  await visitor.close();
});
