import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { createApiKeyViaApi } from '../support/course-page';
import { SAFETY, signUpWithLearningData, type LearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Pipelines on an organization of the spec's own (with learning data sent
 * through the ingestion API): an owner builds "course completed → webhook"
 * in the editor, sees the problem until the two nodes are connected, saves,
 * turns it on, and watches the run a real `course.completed` event starts
 * succeed in the Runs tab, while a receiver on 127.0.0.1 (allowed by
 * WEBHOOK_ALLOWED_HOSTS in playwright.config.ts) gets one signed POST.
 */

type Received = { headers: IncomingHttpHeaders; body: string };

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/completions`;
});

test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function isSignedWith(secret: string, hit: Received): boolean {
  const id = String(hit.headers['webhook-id'] ?? '');
  const timestamp = String(hit.headers['webhook-timestamp'] ?? '');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(
    `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${hit.body}`).digest('base64')}`,
  );
  return String(hit.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((given) => given.length === expected.length && timingSafeEqual(Buffer.from(given), expected));
}

async function createWebhookAction(
  request: APIRequestContext,
  data: LearningData,
  name: string,
): Promise<{ id: string; secret: string }> {
  const response = await request.post('/api/actions', {
    headers: data.headers,
    data: { name, config: { type: 'webhook', url: receiverUrl } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

function completion(id: string) {
  return {
    id,
    type: 'course.completed',
    timestamp: new Date().toISOString(),
    run: `${id}-run`,
    course: { externalCourseId: SAFETY.externalCourseId, title: SAFETY.title },
    learner: { email: 'pia.archer@example.com', name: 'Pia Archer' },
  };
}

/** Picks an option of the app's combobox (type to filter, then choose). */
async function choose(page: Page, label: string, option: string) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(option);
  await page
    .getByRole('option', { name: new RegExp(option) })
    .first()
    .click();
}

/** Where an element sits once the canvas has stopped moving (it animates to fit the view). */
async function settledBox(locator: Locator) {
  let previous = await locator.boundingBox();
  for (let i = 0; i < 20; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const box = await locator.boundingBox();
    if (box && previous && box.x === previous.x && box.y === previous.y) return box;
    previous = box;
  }
  throw new Error('the canvas did not settle');
}

/** Drags from one element's middle to another's in small steps, as a hand does (the canvas follows the pointer). */
async function dragBetween(page: Page, from: Locator, to: Locator) {
  const start = await settledBox(from);
  const end = await settledBox(to);
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
  await page.mouse.up();
}

test('an owner builds course completed → webhook, sees the problem until it is connected, turns it on and watches the run succeed', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const data = await signUpWithLearningData(request);
  const action = await createWebhookAction(request, data, 'Tell the LMS');
  const key = await createApiKeyViaApi(request, data.account.token, 'Pipeline test course');
  await signInAs(page, data.account.token);

  await page.goto('/pipelines');
  await expect(page.getByRole('heading', { level: 1, name: 'Pipelines' })).toBeVisible();
  await expect(page.getByText('No pipelines yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Describe it in words' }).first()).toHaveAttribute(
    'href',
    '/pipelines/ai-generator',
  );
  await page.getByRole('button', { name: 'New pipeline' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New pipeline' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Completions to the LMS');
  await dialog.getByRole('button', { name: 'Create and open' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Completions to the LMS' })).toBeVisible();
  await expect(page).toHaveURL(/\/pipeline\/[0-9a-f-]{36}$/);
  const problems = page.locator('#pipeline-problems');
  await expect(problems).toContainText('Add a source');

  // A course source: the safety course, on completion.
  await page.getByRole('button', { name: 'Add Course events' }).click();
  await choose(page, 'Course', SAFETY.title);
  await expect(page.getByRole('checkbox', { name: 'Completed the course' })).toBeChecked();

  // The action, added with nothing selected: it stands alone, and the editor says so.
  await page.locator('.react-flow__pane').click({ position: { x: 40, y: 40 } });
  await page.getByRole('button', { name: 'Add Action' }).click();
  await choose(page, 'Action', 'Tell the LMS');
  await expect(problems).toContainText('Connect "Action action-1" to the rest of the pipeline');

  // Connect the course's output to the action's input on the canvas.
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  const output = page.locator('.react-flow__node[data-id="course-1"] .react-flow__handle.source');
  const input = page.locator('.react-flow__node[data-id="action-1"] .react-flow__handle.target');
  await dragBetween(page, output, input);
  await expect(problems).toContainText('No problems');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/Saved as version \d+/)).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  await page.getByRole('switch', { name: 'Active' }).click();
  await expect(page.getByText('Pipeline turned on')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Active' })).toHaveAttribute('aria-checked', 'true');

  // A course completes: the pipeline runs once and the receiver gets one signed POST.
  received.length = 0;
  const eventId = `pipeline-e2e-${Date.now()}`;
  const sent = await request.post('/api/v1/events', {
    data: { events: [completion(eventId)] },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(sent.status(), await sent.text()).toBe(200);

  await page.getByRole('link', { name: 'Runs' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByText('Succeeded').filter({ visible: true })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => received.length).toBe(1);
  expect(isSignedWith(action.secret, received[0]!)).toBe(true);

  await runs
    .getByRole('button', { name: /Open the run started/ })
    .first()
    .click();
  const run = page.getByRole('dialog', { name: 'Run' });
  await expect(run.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(2);
  await expect(run.getByText('Action action-1', { exact: true })).toBeVisible();
  await run.getByRole('button', { name: 'Close' }).click();

  // The same event again (same id) starts nothing new.
  await request.post('/api/v1/events', {
    data: { events: [completion(eventId)] },
    headers: { authorization: `Bearer ${key}` },
  });
  await page.waitForTimeout(2_000);
  expect(received).toHaveLength(1);

  await page.getByRole('link', { name: 'Pipelines', exact: true }).first().click();
  const row = page.getByRole('row', { name: /Completions to the LMS/ });
  await expect(row.getByText('Active', { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(row.getByText('1 succeeded')).toBeVisible();
});

test.describe('a refused activation', () => {
  // The server's 400 is the point: the browser logs it as a failed request.
  test.use({ allowPageErrors: true });

  test('turning on a pipeline with problems from the list opens the editor on its problems', async ({
    page,
    request,
  }) => {
    const data = await signUpWithLearningData(request);
    const created = await request.post('/api/pipelines', {
      headers: data.headers,
      data: {
        name: 'Half built',
        nodes: [
          {
            id: 'course-1',
            type: 'course',
            position: { x: 0, y: 0 },
            data: { courseId: data.courseIds[SAFETY.externalCourseId], events: ['course.completed'] },
          },
        ],
        edges: [],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    await signInAs(page, data.account.token);
    await page.goto('/pipelines');
    const row = page.getByRole('row', { name: /Half built/ });
    await expect(row.getByText('Off', { exact: true }).filter({ visible: true })).toBeVisible();
    await row.getByRole('switch', { name: 'Active: Half built' }).click();
    await expect(page.getByText('Fix the problems of this pipeline before turning it on')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Half built' })).toBeVisible();
    await expect(page.locator('#pipeline-problems')).toContainText(
      'Add an action: a pipeline that runs no action does nothing',
    );
  });
});

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'layouts');

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

test('the list, the editor, a dry run and the runs at 375 and 1440 px in both themes, without serious accessibility problems', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  mkdirSync(shotsDir, { recursive: true });
  const data = await signUpWithLearningData(request);
  const action = await createWebhookAction(request, data, 'Tell the LMS');
  const courseId = data.courseIds[SAFETY.externalCourseId];
  const graph = {
    nodes: [
      {
        id: 'course-1',
        type: 'course',
        position: { x: 0, y: 60 },
        data: { courseId, events: ['course.completed'], label: 'Safety completed' },
      },
      {
        id: 'branch-1',
        type: 'branch',
        position: { x: 280, y: 60 },
        data: {
          match: 'all',
          conditions: [{ field: 'learner.variable', variableName: 'final_score', op: 'gte', value: 70 }],
        },
      },
      {
        id: 'action-1',
        type: 'action',
        position: { x: 560, y: 0 },
        data: { actionId: action.id, label: 'Tell the LMS' },
      },
      { id: 'delay-1', type: 'delay', position: { x: 560, y: 120 }, data: { amount: 2, unit: 'days' } },
      {
        id: 'action-2',
        type: 'action',
        position: { x: 840, y: 120 },
        data: { actionId: action.id, label: 'Remind later' },
      },
    ],
    edges: [
      { source: 'course-1', target: 'branch-1' },
      { source: 'branch-1', target: 'action-1', sourceHandle: 'yes' },
      { source: 'branch-1', target: 'delay-1', sourceHandle: 'no' },
      { source: 'delay-1', target: 'action-2' },
    ],
  };
  const created = await request.post('/api/pipelines', {
    headers: data.headers,
    data: {
      name: 'Safety completions',
      description: 'Passed learners go to the LMS.',
      active: true,
      ...graph,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const pipeline = (await created.json()) as { id: string };
  await request.post('/api/pipelines', {
    headers: data.headers,
    data: { name: 'Onboarding reminders', nodes: [], edges: [] },
  });
  // Two completions: one learner passed (the "yes" way, to the webhook), one did not (waits two days).
  const key = await createApiKeyViaApi(request, data.account.token, 'Screens course');
  const passed = {
    ...completion(`shots-${Date.now()}-1`),
    learner: { email: 'ben.baker@example.com', name: 'Ben Baker' },
  };
  const failed = {
    ...completion(`shots-${Date.now()}-2`),
    learner: { email: 'ann.archer@example.com', name: 'Ann Archer' },
  };
  const sent = await request.post('/api/v1/events', {
    data: { events: [passed, failed] },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await signInAs(page, data.account.token);

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      const name = `${theme}-${width}`;

      await page.goto('/pipelines');
      await expect(page.getByRole('row', { name: /Safety completions/ })).toBeVisible();
      await page.screenshot({ path: join(shotsDir, `pipelines-list-${name}.png`), fullPage: true });
      expect(await seriousViolations(page), `list ${name}`).toEqual([]);

      await page.goto(`/pipeline/${pipeline.id}`);
      await expect(page.locator('.react-flow__node')).toHaveCount(5);
      await page.screenshot({ path: join(shotsDir, `pipeline-editor-${name}.png`), fullPage: true });
      expect(await seriousViolations(page), `editor ${name}`).toEqual([]);

      await page.locator('.react-flow__node[data-id="branch-1"]').click();
      if (width < 1024) await expect(page.getByRole('dialog', { name: 'Edit Branch' })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Condition 1 field' })).toHaveValue('learner.variable');
      await page.screenshot({ path: join(shotsDir, `pipeline-node-form-${name}.png`), fullPage: false });
      if (width < 1024) await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: /List view/ }).click();
      await expect(page.getByRole('heading', { name: 'Connections (4)' })).toBeVisible();
      await page.screenshot({ path: join(shotsDir, `pipeline-list-view-${name}.png`), fullPage: true });
      expect(await seriousViolations(page), `list view ${name}`).toEqual([]);

      await page.getByRole('button', { name: 'Dry run' }).click();
      const dryRun = page.getByRole('dialog', { name: 'Dry run' });
      await dryRun.getByRole('button', { name: 'Run on this period' }).click();
      await expect(dryRun.getByTestId('dry-run-result')).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: join(shotsDir, `pipeline-dry-run-${name}.png`), fullPage: false });
      expect(await seriousViolations(page), `dry run ${name}`).toEqual([]);
      await dryRun.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('button', { name: 'Test run' }).click();
      const testRun = page.getByRole('dialog', { name: 'Test run' });
      await testRun.getByRole('button', { name: 'Run test' }).click();
      await expect(testRun.getByTestId('test-run-result')).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: join(shotsDir, `pipeline-test-run-${name}.png`), fullPage: false });
      await testRun.getByRole('button', { name: 'Done' }).click();

      await page.goto(`/pipeline/${pipeline.id}?tab=runs`);
      const runs = page.getByRole('table', { name: 'Runs' });
      await expect(runs.getByText('Waiting').filter({ visible: true })).toBeVisible({ timeout: 20_000 });
      await expect(runs.getByText('Succeeded').filter({ visible: true })).toBeVisible();
      await page.screenshot({ path: join(shotsDir, `pipeline-runs-${name}.png`), fullPage: true });
      expect(await seriousViolations(page), `runs ${name}`).toEqual([]);

      await runs
        .getByRole('row', { name: /Waiting/ })
        .getByRole('button', { name: /Open the run/ })
        .click();
      const run = page.getByRole('dialog', { name: 'Run' });
      await expect(run.getByText(/Goes on in 2 days/)).toBeVisible();
      await page.screenshot({ path: join(shotsDir, `pipeline-run-${name}.png`), fullPage: false });
      expect(await seriousViolations(page), `run ${name}`).toEqual([]);
      await run.getByRole('button', { name: 'Close' }).click();
    }
  }
});
