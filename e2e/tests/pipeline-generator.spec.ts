import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs, signUpViaApi, type Account } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * The natural-language pipeline generator on an organization of the spec's
 * own (two safety courses and one action, made through the API): an owner
 * types a request, answers which safety course it means, gives the new
 * webhook its address, creates the pipeline, keeps the webhook's secret and
 * lands in the editor with the draft, off. The page is checked at 375 and
 * 1440 px in both themes.
 */

const REQUEST =
  'When a learner fails the safety course twice, alert the training team and send a webhook to our HR system';
const WEBHOOK_URL = 'https://hr.example.com/hooks/courselens';

type Seeded = { account: Account; safetyId: string; fireId: string; alertId: string };

async function post(request: APIRequestContext, account: Account, url: string, data: unknown) {
  const response = await request.post(url, { headers: { authorization: `Bearer ${account.token}` }, data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  const account = await signUpViaApi(request);
  const safety = await post(request, account, '/api/courses', { courseTitle: 'Workplace Safety Essentials' });
  const fire = await post(request, account, '/api/courses', { courseTitle: 'Fire Safety Refresher' });
  const alert = await post(request, account, '/api/actions', {
    name: 'Alert training team',
    config: { type: 'notify_team', message: '{{learner.name}} needs help with {{course.title}}' },
  });
  return { account, safetyId: safety.id, fireId: fire.id, alertId: alert.id };
}

async function askAndAnswer(page: Page) {
  await page.getByRole('textbox', { name: 'Describe your pipeline' }).fill(REQUEST);
  await page.getByRole('button', { name: 'Generate draft' }).click();
  const question = page.getByRole('group', { name: '“safety” fits 2 courses. Which one did you mean?' });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Workplace Safety Essentials' }).click();
  await expect(page.getByTestId('ambiguities')).toHaveCount(0);
  await expect(page.getByTestId('draft-steps')).toContainText(
    'When a learner fails Workplace Safety Essentials',
  );
}

test('an owner describes a pipeline in words, answers its question and lands in the editor with the draft', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { account, safetyId, alertId } = await seed(request);
  await signInAs(page, account.token);
  await page.goto('/pipelines/ai-generator');
  await expect(page.getByRole('heading', { level: 1, name: 'Pipeline AI generator' })).toBeVisible();

  await askAndAnswer(page);
  const steps = page.getByTestId('draft-steps');
  await expect(steps).toContainText('they failed it at least 2 times');
  await expect(steps).toContainText('Alert training team');
  await expect(page.getByTestId('unmapped')).toContainText('“HR system”: none of your actions has this name');

  // The new webhook needs its address before anything is created.
  await page.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Fill in what the new actions need' }),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Webhook URL' }).fill(WEBHOOK_URL);
  await page.getByRole('button', { name: 'Create pipeline' }).click();

  await expect(page.getByRole('heading', { name: 'Copy the signing secret now' })).toBeVisible();
  await expect(page.getByText(/^whsec_/)).toBeVisible();
  await page.getByRole('button', { name: 'Open the pipeline' }).click();
  await expect(page).toHaveURL(/\/pipeline\/[0-9a-f-]{36}$/);
  const pipelineId = page.url().split('/').at(-1) ?? '';
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    'When a learner fails the safety course twice',
  );

  // What was saved: the draft, off, its action nodes on the reused action and the new webhook.
  const saved = await request.get(`/api/pipelines/${pipelineId}`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(saved.status()).toBe(200);
  const pipeline = (await saved.json()) as {
    active: boolean;
    nodes: { type: string; data: Record<string, unknown> }[];
  };
  expect(pipeline.active).toBe(false);
  expect(pipeline.nodes.filter((node) => node.type === 'course').map((node) => node.data.courseId)).toEqual([
    safetyId,
  ]);
  const actionIds = pipeline.nodes.filter((node) => node.type === 'action').map((node) => node.data.actionId);
  expect(actionIds).toContain(alertId);
  expect(actionIds).toHaveLength(2);
  const actions = await request.get('/api/actions?type=webhook', {
    headers: { authorization: `Bearer ${account.token}` },
  });
  const webhooks = (await actions.json()) as { items: { id: string; target: string }[] };
  expect(webhooks.items.map((item) => item.id)).toEqual(actionIds.filter((id) => id !== alertId));
});

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'layouts');

// One test per width and theme: each pass runs the whole generator and an axe scan, which take
// their time on a busy machine.
for (const { width, height } of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the generator and its draft at ${width} px in ${colorScheme} mode, without serious accessibility problems`, async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      const { account } = await seed(request);
      await signInAs(page, account.token);
      mkdirSync(shotsDir, { recursive: true });
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.goto('/pipelines/ai-generator');
      await expect(page.getByRole('heading', { level: 1, name: 'Pipeline AI generator' })).toBeVisible();
      await askAndAnswer(page);
      await expect(page.getByRole('textbox', { name: 'Webhook URL' })).toBeVisible();
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${width}px ${colorScheme}: nothing sticks out sideways`).toBeLessThanOrEqual(
        width,
      );
      await page.screenshot({
        path: join(shotsDir, `pipeline-generator-${width}-${colorScheme}.png`),
        fullPage: true,
      });
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          id: violation.id,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        }));
      expect(serious, `${width}px ${colorScheme}`).toEqual([]);
    });
  }
}
