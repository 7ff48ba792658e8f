import { join } from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Variable reports on the demo organization: the organization-wide report
 * with its statistics and filters, the chart with its table fallback, one
 * course's leaders, and the links that lead there.
 *
 * Read-only on the demo organization: these tests are about the seeded demo
 * data, and every spec may read it at the same time, so none writes to it
 * (specs that change data sign up an organization of their own, with
 * support/learning-data.ts).
 */

const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };
const shotsDir = join(artifactsDir, 'screenshots', 'reports');

type ReportBody = {
  total: number;
  summary: { count: number; learners: number; values: number; mean: number | null; max: number | null };
  items: { learnerName: string | null; valueNumber: number | null }[];
};

let token: string;
let safetyCourseId: string;

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** The figure under a label of the summary statistics (a <dl>). */
function stat(page: Page, label: string) {
  return page.locator(
    `xpath=//dl[@aria-label="Summary statistics"]//dt[normalize-space()="${label}"]/following-sibling::dd[1]`,
  );
}

test.beforeAll(async ({ request }) => {
  const response = await request.post('/api/session', { data: DEMO });
  token = ((await response.json()) as { token: string }).token;
  const { items } = await api<{ items: { courseId: string; courseTitle: string }[] }>(
    request,
    '/api/variables?q=final_score&pageSize=100',
  );
  safetyCourseId = items.find((item) => item.courseTitle === 'Workplace Safety Essentials')!.courseId;
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, token);
});

test('a team member opens a variable from the list and reads its report with the statistics of the server', async ({
  page,
  request,
}) => {
  const expected = await api<ReportBody>(request, '/api/variable-reports/report?name=final_score');
  await page.goto('/variables?q=final_score');
  await page
    .getByRole('table', { name: 'Variables' })
    .getByRole('link', { name: 'final_score' })
    .first()
    .click();
  await expect(page).toHaveURL(/\/variables\/final_score\/report$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Final score' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Report', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('link', { name: 'AI summary' })).toBeVisible();

  await expect(
    page.getByRole('group', { name: 'Filters' }).or(page.getByRole('form', { name: 'Filters' })),
  ).toBeVisible();
  // Learners are people, counted once; values are their latest values per course.
  await expect(stat(page, 'Learners')).toHaveText(
    new Intl.NumberFormat('en-US').format(expected.summary.learners),
  );
  await expect(stat(page, 'Values')).toHaveText(
    new Intl.NumberFormat('en-US').format(expected.summary.values),
  );
  await expect(stat(page, 'Mean')).toHaveText(decimal.format(expected.summary.mean ?? 0));
  await expect(stat(page, 'Maximum')).toHaveText(decimal.format(expected.summary.max ?? 0));
  const table = page.getByRole('table', { name: 'Latest value of each learner' });
  await expect(table.getByRole('row')).toHaveCount(26);
  // Members see e-mail addresses in the report.
  await expect(table.getByText(/@/).first()).toBeVisible();

  await page.getByLabel('Minimum value').fill('95');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/min=95/);
  const filtered = await api<ReportBody>(request, '/api/variable-reports/report?name=final_score&min=95');
  await expect(stat(page, 'Learners')).toHaveText(
    new Intl.NumberFormat('en-US').format(filtered.summary.learners),
  );
  await expect(
    page.getByText(`of ${new Intl.NumberFormat('en-US').format(filtered.total)}`).first(),
  ).toBeVisible();

  // The filter travels with the tabs.
  await page.getByRole('link', { name: 'Leaders' }).click();
  await expect(page).toHaveURL(/\/variables\/final_score\/leaders\?min=95$/);
  await page.screenshot({ path: join(shotsDir, 'variable-report-filtered.png'), fullPage: true });
});

test('the chart shows the distribution and the trend, each readable as a table', async ({
  page,
  request,
}) => {
  const chart = await api<{ distribution: { kind: string; bins: { count: number }[] } }>(
    request,
    '/api/variable-reports/chart?name=final_score',
  );
  await page.goto('/variables/final_score/chart');
  const histogram = page.getByRole('figure', { name: 'Distribution of the latest values' });
  // The bins are the server's "nice" ones: as many as the values' range needs.
  const bins = chart.distribution.bins.length;
  await expect(
    histogram.getByRole('img', {
      name: new RegExp(`^Distribution of the latest values: [\\d,]+ Learners in ${bins} bins`),
    }),
  ).toBeVisible();
  await histogram.getByRole('button', { name: 'Show as table' }).click();
  const rows = histogram.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(chart.distribution.bins.length + 1);
  await expect(rows.nth(1).getByRole('cell')).toHaveText(String(chart.distribution.bins[0]?.count));
  await expect(page.getByRole('img', { name: /^Values per (day|week): \d+ points from / })).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(shotsDir, 'variable-chart-dark.png'), fullPage: true });
});

test("a course variable's leaders rank learners by value, names only, top N configurable", async ({
  page,
  request,
}) => {
  const leaders = await api<{ items: { rank: number; learnerName: string | null }[] }>(
    request,
    `/api/courses/${safetyCourseId}/variables/final_score/leaders?limit=5`,
  );
  await page.goto(`/course/${safetyCourseId}/variable/final_score/leaders`);
  await expect(page.getByRole('heading', { level: 1, name: 'Final score' })).toBeVisible();
  // A course variable report is a shared-view layout: no sidebar.
  await expect(page.locator('[data-layout="shared"]')).toBeVisible();
  const table = page.getByRole('table', { name: 'Leaders' });
  await expect(table.getByRole('row')).toHaveCount(11);
  await page.getByLabel('Show top').selectOption('5');
  await expect(page).toHaveURL(/top=5/);
  await expect(table.getByRole('row')).toHaveCount(6);
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toContainText(`#${leaders.items[0]?.rank}`);
  await expect(firstRow).toContainText(leaders.items[0]?.learnerName ?? 'Unnamed learner');
  await expect(table).not.toContainText('@');
  await page.getByLabel('Order').selectOption('asc');
  await expect(page).toHaveURL(/rank=asc/);
  await page.setViewportSize({ width: 375, height: 812 });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(375);
  await page.screenshot({ path: join(shotsDir, 'course-variable-leaders-375.png'), fullPage: true });
});

test('a course variable page with an id that is not a course is not found, without asking the server', async ({
  page,
}) => {
  await page.goto('/course/not-a-course/variable/final_score/report');
  await expect(page.getByRole('heading', { level: 1, name: 'Variable not found' })).toBeVisible();
});

test.describe('errors the server answers', () => {
  test.use({ allowPageErrors: true });

  test('a text variable explains why it has no leaderboard', async ({ page }) => {
    await page.goto('/variables/department/leaders');
    await expect(page.getByText('No leaderboard for this variable')).toBeVisible();
    await expect(
      page.getByText(
        'Leaders rank number and date variables; this is a text variable. Use the chart to compare its values.',
      ),
    ).toBeVisible();
  });

  test('a variable no course sends shows "Variable not found"', async ({ page }) => {
    await page.goto('/variables/no_such_variable/report');
    await expect(page.getByRole('heading', { level: 1, name: 'Variable not found' })).toBeVisible();
  });
});

test('report, chart and leaders have no serious accessibility violations in either theme', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const view of ['report', 'chart', 'leaders']) {
      await page.goto(`/course/${safetyCourseId}/variable/final_score/${view}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Final score' })).toBeVisible();
      // Wait for the data, not the spinner.
      await expect(
        view === 'chart'
          ? page.getByRole('img', { name: /^Distribution of the latest values: / })
          : page.locator('tbody tr td').first(),
      ).toBeVisible();
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(
          (violation) =>
            `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        );
      expect(serious, `${view} in ${colorScheme}`).toEqual([]);
    }
  }
});
