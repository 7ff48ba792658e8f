import { join } from 'node:path';

import type { APIRequestContext } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Question reports on the demo organization: answers, choices with the
 * correct one marked, leaders by points.
 *
 * Read-only on the demo organization: these tests are about the seeded demo
 * data, and every spec may read it at the same time, so none writes to it
 * (specs that change data sign up an organization of their own, with
 * support/learning-data.ts).
 */

const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };
const shotsDir = join(artifactsDir, 'screenshots', 'reports');

let token: string;
let question: {
  id: string;
  questionText: string | null;
  correctAnswer: string | null;
  totalResponses: number;
};

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

test.beforeAll(async ({ request }) => {
  const response = await request.post('/api/session', { data: DEMO });
  token = ((await response.json()) as { token: string }).token;
  const list = await api<{ items: (typeof question)[] }>(
    request,
    '/api/questions?sort=totalResponses&order=desc&pageSize=1',
  );
  question = list.items[0]!;
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, token);
});

test('a team member opens a question from the list and filters its answers by result', async ({
  page,
  request,
}) => {
  const report = await api<{ totals: { responses: number; correctRate: number | null } }>(
    request,
    `/api/questions/${question.id}/report`,
  );
  await page.goto('/questions?sort=totalResponses&order=desc');
  await page
    .getByRole('link', { name: question.questionText ?? '' })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/questions/${question.id}/report$`));
  await expect(page.getByRole('heading', { level: 1, name: question.questionText ?? '' })).toBeVisible();
  await expect(page.getByText(`Correct answer: ${question.correctAnswer}`)).toBeVisible();
  const answers = page.locator('xpath=//dt[normalize-space()="Answers"]/following-sibling::dd[1]');
  await expect(answers).toHaveText(new Intl.NumberFormat('en-US').format(report.totals.responses));
  const rate = page.locator('xpath=//dt[normalize-space()="Correct rate"]/following-sibling::dd[1]');
  await expect(rate).toHaveText(`${Math.round((report.totals.correctRate ?? 0) * 100)}%`);

  await page.getByLabel('Result').selectOption('false');
  await expect(page).toHaveURL(/correct=false/);
  const table = page.getByRole('table', { name: 'Answers' });
  await expect(table.getByRole('row').nth(1)).toContainText('Incorrect');
  await expect(table.getByText('Correct', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: join(shotsDir, 'question-report.png'), fullPage: true });
});

test('the chart marks the correct answer and the leaders rank by points', async ({ page, request }) => {
  const chart = await api<{ choices: { label: string; count: number; isCorrect: boolean }[] }>(
    request,
    `/api/questions/${question.id}/chart`,
  );
  const correct = chart.choices.find((choice) => choice.isCorrect)!;
  await page.goto(`/questions/${question.id}/chart`);
  const figure = page.getByRole('figure', { name: 'Answers by choice' });
  await expect(
    figure.getByRole('img', { name: new RegExp(`correct answer ${correct.label} with`) }),
  ).toBeVisible();
  await figure.getByRole('button', { name: 'Show as table' }).click();
  await expect(figure.getByRole('rowheader', { name: `${correct.label} (correct answer)` })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Correct rate per (day|week): \d+ points from / }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Leaders' }).click();
  const leaders = page.getByRole('table', { name: 'Leaders by points' });
  await expect(leaders.getByRole('row').nth(1)).toContainText('#1');
  await expect(leaders).not.toContainText('@');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/questions/${question.id}/chart`);
  await expect(figure.getByRole('img', { name: /^Answers by choice: / })).toBeVisible();
  await page.screenshot({ path: join(shotsDir, 'question-chart-dark.png'), fullPage: true });
});
