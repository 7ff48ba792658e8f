import { randomUUID } from 'node:crypto';

import type { APIRequestContext } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { SAFETY, signUpWithLearningData } from '../support/learning-data';
import { expect, test } from '../support/test';

/**
 * AI summaries on an organization of the spec's own (learning data sent
 * through the ingestion API, support/learning-data.ts), since regenerating
 * stores a summary. The e2e server has no LLM_BASE_URL, so the built-in
 * engine writes every summary; the LLM engine is covered by the server tests
 * against a stub. Ingested variables have no title: pages show the name.
 */

const COURSE = SAFETY.title;

type VariableRow = { id: string; name: string; courseId: string; courseTitle: string };

async function findVariable(request: APIRequestContext, token: string, name: string): Promise<VariableRow> {
  const response = await request.get(`/api/variables?q=${encodeURIComponent(name)}&pageSize=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: VariableRow[] };
  const variable = items.find((item) => item.name === name && item.courseTitle === COURSE);
  expect(variable, `variable ${name} of ${COURSE}`).toBeDefined();
  return variable!;
}

let token: string;

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, token);
});

test('a team member reads the AI summary of a course variable and regenerates it', async ({
  page,
  request,
}) => {
  const score = await findVariable(request, token, 'final_score');
  await page.goto(`/course/${score.courseId}/variable/final_score/ai-summary`);

  await expect(page.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  await expect(page.getByText(`in ${COURSE}`, { exact: true })).toBeVisible();
  const narrative = page.getByRole('region', { name: 'Summary' });
  await expect(narrative).toContainText(`“final_score” in ${COURSE}:`);
  await expect(narrative).toContainText('learners have a value');
  await expect(narrative).toContainText('The average latest value is');
  await expect(narrative).not.toContainText('@');
  await expect(page.getByTestId('summary-engine')).toContainText('Written by the built-in engine');
  await expect(page.getByRole('heading', { name: 'Key figures' })).toBeVisible();
  await expect(page.getByText('Median', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Variable reports' }).getByRole('link', { name: 'Leaders' }),
  ).toHaveAttribute('href', `/course/${score.courseId}/variable/final_score/leaders`);

  const before = await page.locator('time').getAttribute('datetime');
  const regenerated = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().includes('/api/ai-summaries/'),
  );
  await page.getByRole('button', { name: 'Regenerate' }).click();
  expect((await regenerated).status()).toBe(200);
  await expect(page.getByText('Summary regenerated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeEnabled();
  await expect(page.locator('time')).not.toHaveAttribute('datetime', before ?? '');
  await expect(page.getByTestId('summary-engine')).toContainText('Written by the built-in engine');

  // The summary is cached: a reload shows the regenerated one without writing another.
  const after = await page.locator('time').getAttribute('datetime');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  await expect(page.locator('time')).toHaveAttribute('datetime', after ?? '');
});

test('the summary by variable id shows the same summary, for text variables too', async ({
  page,
  request,
}) => {
  const score = await findVariable(request, token, 'final_score');
  await page.goto(`/variable/${score.id}/course/ai-summary`);
  await expect(page.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  await expect(page.getByTestId('summary-engine')).toContainText('Written by the built-in engine');

  const department = await findVariable(request, token, 'department');
  await page.goto(`/variable/${department.id}/course/ai-summary`);
  await expect(page.getByRole('heading', { level: 1, name: 'department' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('The most common:');
  await expect(page.getByRole('heading', { name: 'Most common values' })).toBeVisible();
});

test.describe('missing summaries', () => {
  // Chromium logs the refused (404) request as a console error; the page's message is what is checked.
  test.use({ allowPageErrors: true });

  test('an agent variable and an unknown variable say they are not found', async ({ page, request }) => {
    const score = await findVariable(request, token, 'final_score');
    await page.goto(`/variable/${randomUUID()}/chatbot/ai-summary`);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent variable not found' })).toBeVisible();
    // The server's own words for an id no agent variable has.
    await expect(page.getByText('Variable not found', { exact: true })).toBeVisible();

    await page.goto(`/course/${score.courseId}/variable/no_such_variable/ai-summary`);
    await expect(page.getByRole('heading', { level: 1, name: 'Variable not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to variables' }).click();
    await expect(page).toHaveURL(/\/variables$/);
  });
});
