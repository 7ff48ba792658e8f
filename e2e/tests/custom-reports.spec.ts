import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';

import { signInAs, uniqueSuffix } from '../support/accounts';
import { createApiKeyViaApi } from '../support/course-page';
import { SAFETY, signUpWithLearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Custom reports on an organization of the spec's own (learning data sent
 * through the ingestion API, support/learning-data.ts), since the tests
 * create and share reports: an owner builds "pass rate of
 * passed_safety_check by department" in the builder and watches the live
 * preview, saves, shares, and a signed-out visitor opens the public link and
 * sees the same numbers; the generator drafts a report that opens in the
 * builder; a dead link shows "not available". Ingested variables have no
 * title: the builder shows their names.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'layouts');

const layoutWidths = [
  { width: 375, height: 812 },
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
  const variable = (name: string) =>
    catalog.variables.find((entry) => entry.name === name && entry.courseId === safety?.id);
  const [score, passed] = [variable('final_score'), variable('passed_safety_check')];
  expect(safety && score && passed, 'the safety course, its final score and its pass check').toBeTruthy();
  return { safety: safety!, score: score!, passed: passed! };
}

/** Opens a searchable picker of the item, narrows it by typing and picks the option. */
async function pick(item: Locator, picker: string, search: string, option: string | RegExp) {
  const input = item.getByRole('combobox', { name: picker, exact: true });
  await input.click();
  await input.fill(search);
  await item.getByRole('listbox', { name: picker }).getByRole('option', { name: option }).first().click();
}

type ShownItem = { title: string; facts: string[]; rows: string[] };

/** Each item's title, figures and first table rows as a section of the page shows them. */
async function readItems(scope: Page | Locator): Promise<ShownItem[]> {
  const sections = scope.locator('section[aria-labelledby^="item-"]');
  await expect(sections.first()).toBeVisible();
  return sections.evaluateAll((nodes): ShownItem[] =>
    nodes.map((node) => {
      const text = (element: Element) => {
        const copy = element.cloneNode(true) as Element;
        copy.querySelectorAll('[role="tooltip"]').forEach((tip) => tip.remove());
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      };
      return {
        title: node.querySelector('h2, h3')?.textContent ?? '',
        facts: Array.from(node.querySelectorAll('dl > div'), text),
        rows: Array.from(node.querySelectorAll('table tbody tr'), text),
      };
    }),
  );
}

/** Serious and critical accessibility problems axe finds on the page (contrast included, so per theme). */
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

let token: string;

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
});

test('an owner builds a pass rate by department with a live preview, saves and shares it, and a signed-out visitor sees the same numbers', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  await reportCatalog(request, token);
  await signInAs(page, token);
  await page.goto('/custom-reports/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Create report' })).toBeVisible();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('Nothing to show yet')).toBeVisible();

  const name = `Safety results ${uniqueSuffix()}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);

  // Pass rate of passed_safety_check by department.
  await page.getByRole('button', { name: 'Add an item' }).click();
  const first = page.getByTestId('report-item').first();
  await pick(first, 'Variable', 'passed_safety', /^passed_safety_check/);
  // Only what a true/false variable can measure.
  await expect(first.getByRole('combobox', { name: 'Measure' }).getByRole('option')).toHaveText([
    'Automatic (pass rate)',
    'Learners',
    'Values',
    'Pass rate',
  ]);
  await first.getByRole('combobox', { name: 'Measure' }).selectOption('pass_rate');
  await first.getByRole('combobox', { name: 'Breakdown' }).selectOption('variable');
  await pick(first, 'Variable to break down by', 'depart', 'department');

  // The preview draws it as it is built: bars of the five departments.
  const previewItem = preview.locator('section[aria-labelledby^="item-"]').first();
  await expect(previewItem.getByRole('figure', { name: 'Pass rate by department' })).toBeVisible();
  await expect(previewItem.getByRole('table').locator('tbody tr')).toHaveCount(5);
  await expect(first.getByRole('option', { name: 'Automatic (bar chart)' })).toBeAttached();
  const [previewed] = await readItems(preview);

  // A second item: the final score of every course that has one, compared by course.
  await page.getByRole('button', { name: 'Add an item' }).click();
  const second = page.getByTestId('report-item').nth(1);
  await pick(second, 'Variable', 'final_score', /^final_score/);
  await second
    .getByRole('combobox', { name: 'Courses of the variable' })
    .selectOption({ label: 'in all 2 courses with it' });
  await expect(second.getByRole('combobox', { name: 'Breakdown' })).toHaveValue('course');
  await expect(preview.locator('section[aria-labelledby^="item-"]')).toHaveCount(2);

  // A third: every question ranked hardest first, the top 3.
  await page.getByRole('button', { name: 'Add an item' }).click();
  const third = page.getByTestId('report-item').nth(2);
  await third.getByRole('combobox', { name: 'What the item reads' }).selectOption('questions');
  await third.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Hardest first' });
  await third.getByRole('spinbutton', { name: 'Top N' }).fill('3');
  await third.getByRole('textbox', { name: 'Title of Every question' }).fill('Hardest questions');
  await expect(preview.getByRole('heading', { name: 'Hardest questions' })).toBeVisible();

  // Reordering from the keyboard: the grip's arrow keys.
  await third.getByTestId('drag-handle').focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('report-item').nth(1)).toHaveAttribute(
    'aria-label',
    'Item 2: Hardest questions',
  );
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('report-item').nth(2)).toHaveAttribute(
    'aria-label',
    'Item 3: Hardest questions',
  );

  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/view\//);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const shown = await readItems(page);
  expect(shown.map((item) => item.title)).toEqual([
    'passed_safety_check',
    'final_score',
    'Hardest questions',
  ]);
  // The saved report shows what the preview showed.
  expect(shown[0]?.facts).toEqual(previewed?.facts);
  expect(shown[0]?.facts[0]).toMatch(/^Pass rate\d+(\.\d)?%$/);
  await expect(
    page.getByRole('button', { name: 'What Pass rate means' }).first(),
  ).toHaveAccessibleDescription(/^Pass rate: share of learners/);

  // CSV export of the same data.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = (await readFile(await (await download).path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  expect(csv[0]).toMatch(/^Item,Course,Agent,Measure,/);
  expect(csv.filter((line) => line.startsWith('passed_safety_check,'))).toHaveLength(5);

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
  await expect(visitorPage.getByTestId('shared-by')).toHaveText(/^Shared by \S/);
  expect(await readItems(visitorPage)).toEqual(shown);
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

test('a saved report says when its figures were computed, and Refresh shows the learning data sent since', async ({
  page,
  request,
}) => {
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/custom-reports', {
    headers,
    data: {
      name: `Learners per course ${uniqueSuffix()}`,
      items: [
        {
          kind: 'query',
          chart: 'table',
          query: {
            subject: { kind: 'courses', courseIds: [] },
            measure: { fn: 'learners' },
            breakdown: { kind: 'course' },
          },
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, token);
  await page.goto(`/custom-reports/view/${id}`);
  await expect(page.getByRole('status').filter({ hasText: /^Figures as of \S/ })).toBeVisible();
  const safetyRow = page.locator('table tbody tr').filter({ hasText: SAFETY.title });
  const learners = async () =>
    Number(/\d+/.exec((await safetyRow.innerText()).replace(SAFETY.title, ''))?.[0] ?? Number.NaN);
  const before = await learners();
  expect(before).toBeGreaterThan(0);

  const key = await createApiKeyViaApi(request, token, `Refresh ${uniqueSuffix()}`);
  const learner = { email: `late.${uniqueSuffix()}@example.com`, name: 'Late Learner' };
  const course = { externalCourseId: SAFETY.externalCourseId, title: SAFETY.title };
  const run = `late-${uniqueSuffix()}`;
  const sent = await request.post('/api/v1/events', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      events: [
        { id: `${run}-0`, type: 'course.started', timestamp: new Date().toISOString(), course, learner, run },
      ],
    },
  });
  expect(sent.status()).toBe(200);

  // On PostgreSQL the learners' rollup folds the event in a moment after
  // it is acknowledged: a person clicks Refresh again until it shows.
  const refresh = page.getByRole('button', { name: 'Refresh' });
  await expect(async () => {
    await refresh.click();
    await expect(refresh).toBeEnabled();
    expect(await learners()).toBe(before + 1);
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText('New learning data arrived; updating…')).toHaveCount(0);
});

test('the generator drafts a report that opens in the builder with its preview, and saves', async ({
  page,
}) => {
  await signInAs(page, token);
  await page.goto('/custom-reports/ai-generator');
  await page
    .getByRole('textbox', { name: 'What should the report show?' })
    .fill('Average final score by course for the last 30 days');
  await page.getByRole('button', { name: 'Generate draft' }).click();
  await expect(page.getByTestId('generator-engine')).toHaveText('Built-in engine');
  await expect(page.getByTestId('understood')).toContainText('30 days');
  await expect(page.getByTestId('draft-items')).toContainText('final_score');

  await page.getByRole('button', { name: 'Open in builder' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/create$/);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).not.toHaveValue('');
  await expect(page.getByTestId('report-item').first()).toContainText('final_score');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('section[aria-labelledby^="item-"]').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Generated ${uniqueSuffix()}`);
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/view\//);
  await expect(page.locator('section[aria-labelledby^="item-"]').first()).toBeVisible();
});

test('the generator says what it did not understand', async ({ page }) => {
  await signInAs(page, token);
  await page.goto('/custom-reports/ai-generator');
  await page
    .getByRole('textbox', { name: 'What should the report show?' })
    .fill('pie chart of revenue by salary');
  await page.getByRole('button', { name: 'Generate draft' }).click();
  await expect(page.getByTestId('not-found')).toContainText('revenue');
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

test('builder with its preview, and a report of several charts, at 375 and 1440 px in both themes, without serious accessibility problems', async ({
  page,
  request,
  browser,
}) => {
  // Five pages at two widths in two themes.
  test.setTimeout(180_000);
  const { safety, score, passed } = await reportCatalog(request, token);
  const headers = { authorization: `Bearer ${token}` };
  const filters = { courseIds: [], period: null, values: [], activity: [] };
  const item = (displayName: string, chart: string, query: Record<string, unknown>) => ({
    kind: 'query',
    displayName,
    chart,
    query: {
      measure: null,
      breakdown: { kind: 'none', variableName: null },
      filters,
      sort: null,
      limit: null,
      ...query,
    },
  });
  const created = await request.post('/api/custom-reports', {
    headers,
    data: {
      name: 'Safety at a glance',
      description: 'Pass rates, scores, questions and activity of Workplace Safety Essentials.',
      items: [
        item('Passed the safety check', 'auto', {
          subject: { kind: 'variable', variableIds: [passed.id] },
          measure: { fn: 'pass_rate', mark: null },
        }),
        item('Pass rate by department', 'auto', {
          subject: { kind: 'variable', variableIds: [passed.id] },
          measure: { fn: 'pass_rate', mark: null },
          breakdown: { kind: 'variable', variableName: 'department' },
        }),
        item('Top learners by final score', 'auto', {
          subject: { kind: 'variable', variableIds: [score.id] },
          breakdown: { kind: 'learner', variableName: null },
          limit: 5,
        }),
        item('Responses per day', 'auto', {
          subject: { kind: 'questions', courseIds: [safety.id] },
          measure: { fn: 'responses', mark: null },
          breakdown: { kind: 'day', variableName: null },
        }),
        item('Learners by department', 'pie', {
          subject: { kind: 'variable', variableIds: [score.id] },
          measure: { fn: 'learners', mark: null },
          breakdown: { kind: 'variable', variableName: 'department' },
          limit: 3,
        }),
        item('Hardest questions', 'table', {
          subject: { kind: 'questions', courseIds: [] },
          breakdown: { kind: 'question', variableName: null },
          sort: { by: 'measure', order: 'asc' },
        }),
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const report = (await created.json()) as { id: string };
  const shared = await request.put(`/api/custom-reports/${report.id}/public`, {
    headers,
    data: { isPublic: true },
  });
  const { publicShareToken } = (await shared.json()) as { publicShareToken: string };
  await signInAs(page, token);
  const visitor = await (await browser.newContext()).newPage();

  const pages: [string, Page, string][] = [
    ['custom-report-create', page, '/custom-reports/create'],
    ['custom-report-builder', page, `/custom-reports/edit/${report.id}`],
    ['custom-report-view', page, `/custom-reports/view/${report.id}`],
    ['public-report', visitor, `/public-reports/${publicShareToken}`],
    ['custom-report-generator', page, '/custom-reports/ai-generator'],
  ];
  for (const [name, target, path] of pages) {
    for (const { width, height } of layoutWidths) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await target.setViewportSize({ width, height });
        await target.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await target.goto(path);
        await expect(target.getByRole('heading', { level: 1 })).toBeVisible();
        if (name === 'custom-report-generator') {
          await target
            .getByRole('textbox', { name: 'What should the report show?' })
            .fill('Pass rate of passed safety check by department and revenue');
          await target.getByRole('button', { name: 'Generate draft' }).click();
          await expect(target.getByTestId('generator-engine')).toBeVisible();
        } else if (name === 'custom-report-create') {
          await target.getByRole('button', { name: 'Add an item' }).click();
          await expect(target.getByText('Nothing to show yet')).toBeVisible();
        } else {
          const sections = target.locator('section[aria-labelledby^="item-"]');
          await expect(sections).toHaveCount(6);
          await expect(target.locator('[aria-busy="true"]')).toHaveCount(0);
        }
        const scrollWidth = await target.evaluate(() => document.documentElement.scrollWidth);
        // Names what sticks out, so a failure says where to look.
        const outside = await target.evaluate(
          (limit) =>
            Array.from(document.querySelectorAll('body *'))
              .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
              .slice(0, 5)
              .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120)),
          width,
        );
        expect(
          scrollWidth,
          `${name} at ${width} px sticks out sideways: ${outside.join(' | ')}`,
        ).toBeLessThanOrEqual(width);
        if (width === 1440) {
          // Away from the button just clicked: axe would judge its hover colours.
          await target.mouse.move(0, 0);
          expect(await seriousViolations(target), `${name} in ${colorScheme}`).toEqual([]);
        }
        await target.screenshot({
          path: join(shotsDir, `${name}-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    }
  }
  await visitor.close();
});

// Last: it adds a second course whose name says "safety", which makes the word ambiguous.
test('the generator asks which course when two match, and drafts the report with the one chosen', async ({
  page,
  request,
}) => {
  const key = await createApiKeyViaApi(request, token, 'E2E fire safety course');
  const course = { externalCourseId: 'fire-safety-basics', title: 'Fire Safety Basics' };
  const learner = { email: 'fire.learner@example.com', name: 'Fay Fire' };
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const sent = await request.post('/api/v1/events', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      events: [
        { id: 'fire-1', type: 'course.started', course, learner, run: 'fire-run-1', timestamp: at },
        { id: 'fire-2', type: 'course.completed', course, learner, run: 'fire-run-1', timestamp: at },
      ],
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await expect
    .poll(async () => {
      const catalog = await request.get('/api/custom-reports/catalog', {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await catalog.json()) as Catalog).courses.map((entry) => entry.courseTitle);
    })
    .toContain('Fire Safety Basics');

  await signInAs(page, token);
  await page.goto('/custom-reports/ai-generator');
  await page
    .getByRole('textbox', { name: 'What should the report show?' })
    .fill('pass rate of the safety course');
  await page.getByRole('button', { name: 'Generate draft' }).click();
  const question = page.getByTestId('ambiguities').getByRole('group');
  await expect(question).toHaveCount(1);
  await expect(question.getByRole('button', { name: 'Course: Fire Safety Basics' })).toBeVisible();
  await question.getByRole('button', { name: 'Course: Workplace Safety Essentials' }).click();
  await expect(page.getByTestId('ambiguities')).toHaveCount(0);
  await expect(page.getByTestId('draft-items')).toContainText(
    'Pass rate of Runs of Workplace Safety Essentials',
  );

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/custom-reports\/view\//);
  await expect(page.locator('section[aria-labelledby^="item-"]').first()).toContainText('Pass rate');
});

test('an agent variable is a report subject: the values learners gave in chats, averaged in the preview', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const agentName = `Quiz coach ${uniqueSuffix()}`;
  const created = await request.post('/api/chatbots', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: agentName, welcomeMessage: 'Hello!', variables: [{ name: 'score', type: 'number' }] },
  });
  expect(created.status()).toBe(201);
  const agent = (await created.json()) as { id: string };
  // Two learners give their scores in the agent's chat.
  for (const [email, score] of [
    [`ada-${uniqueSuffix()}@example.com`, '8'],
    [`bo-${uniqueSuffix()}@example.com`, '6'],
  ] as const) {
    const context = await browser.newContext();
    const chat = await context.newPage();
    await chat.goto(`/chat/${agent.id}?email=${encodeURIComponent(email)}`);
    const box = chat.getByLabel(`Message to ${agentName}`);
    await box.fill(score);
    await box.press('Enter');
    await expect(chat.getByText(new RegExp(`Score: ${score}`))).toBeVisible();
    await context.close();
  }

  await signInAs(page, token);
  await page.goto('/custom-reports/create');
  await page.getByRole('button', { name: 'Add an item' }).click();
  const item = page.getByTestId('report-item').first();
  await item.getByRole('combobox', { name: 'What the item reads' }).selectOption('chatbot_variable');
  await pick(item, 'Agent variable', 'score', `score — ${agentName}`);
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect.poll(async () => (await readItems(preview))[0]?.facts[0]).toMatch(/^Average7(\.0+)?$/);
  // Agent values belong to no course: the item offers no course filter, and breaks down by agent.
  await expect(item.getByRole('combobox', { name: 'Breakdown' }).getByRole('option')).toContainText([
    'Agent',
  ]);
});
