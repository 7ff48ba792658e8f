import { readFile } from 'node:fs/promises';

import type { APIRequestContext } from '@playwright/test';

import { signInAs, signUpViaApi, uniqueSuffix } from '../support/accounts';
import { expect, test } from '../support/test';

/**
 * The seeded demo organization (apps/server/src/db/seed): five courses with
 * learners. The tests that change courses sign up an organization of their
 * own; the ones on the demo only read it, since every spec may read it at
 * the same time.
 */
const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };
const DEMO_COURSES = [
  'Customer Service Excellence',
  'Data Privacy & GDPR Fundamentals',
  'Leadership Foundations for New Managers',
  'New Hire Onboarding',
  'Workplace Safety Essentials',
];

async function demoToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/session', { data: DEMO });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

type Course = { id: string; courseTitle: string; learners: number; views: number };

async function createCourseViaApi(
  request: APIRequestContext,
  token: string,
  data: { courseTitle: string; externalCourseId?: string },
): Promise<Course> {
  const response = await request.post('/api/courses', {
    data,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Course;
}

test('a member lists, searches and sorts the demo courses and downloads them as CSV', async ({
  page,
  request,
}) => {
  await signInAs(page, await demoToken(request));
  await page.goto('/courses');

  const table = page.getByRole('table', { name: 'Courses' });
  for (const title of DEMO_COURSES) {
    await expect(table.getByRole('link', { name: title, exact: true })).toBeVisible();
  }
  await expect(page.getByText(/of 5 courses/)).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search courses' }).fill('privacy');
  await expect(page).toHaveURL(/[?&]q=privacy/);
  await expect(table.getByRole('link')).toHaveText(['Data Privacy & GDPR Fundamentals']);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(table.getByRole('link')).toHaveCount(5);

  // Most learners first: the order the API reports.
  await table.getByRole('button', { name: /Learners/ }).click();
  await table.getByRole('button', { name: /Learners/ }).click();
  await expect(page).toHaveURL(/sort=learners&order=desc/);
  const byLearners = await request.get('/api/courses?sort=learners&order=desc', {
    headers: { authorization: `Bearer ${await demoToken(request)}` },
  });
  const expected = ((await byLearners.json()) as { items: Course[] }).items.map((c) => c.courseTitle);
  await expect(table.getByRole('link')).toHaveText(expected);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('courses.csv');
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'Title,External ID,Description,Learners,Views,Last activity,Created,Broadcast message',
  );
  expect(lines).toHaveLength(6);
  expect(lines[1]?.startsWith(`${expected[0]},`)).toBe(true);
});

test('a member opens the learners of a demo course with first and last access and their count', async ({
  page,
  request,
}) => {
  const token = await demoToken(request);
  await signInAs(page, token);
  await page.goto('/courses');
  await page.getByRole('button', { name: 'Actions for Workplace Safety Essentials' }).click();
  await page.getByRole('menuitem', { name: 'Learners' }).click();

  await expect(page).toHaveURL(/\/course\/[0-9a-f-]+\/learners$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Workplace Safety Essentials' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Course sections' }).getByRole('link', { name: 'Learners' }),
  ).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: 'Learners of the course' });
  for (const header of ['Name', 'Email', 'First access', 'Last access', 'Accesses']) {
    await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
  }
  const courseId = /\/course\/([0-9a-f-]+)\/learners/.exec(page.url())![1]!;
  const api = await request.get(`/api/courses/${courseId}/learners?sort=accessCount&order=desc&pageSize=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const top = (await api.json()) as { items: { email: string; access_count: number }[]; total: number };
  await expect(page.getByText(`of ${top.total} learners`)).toBeVisible();

  // Sort by accesses, most first: the first row is the API's top learner.
  await table.getByRole('button', { name: /Accesses/ }).click();
  await table.getByRole('button', { name: /Accesses/ }).click();
  await expect(page).toHaveURL(/sort=accessCount&order=desc/);
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toContainText(top.items[0]!.email);
  await expect(firstRow).toContainText(String(top.items[0]!.access_count));

  await page.getByRole('searchbox', { name: 'Search learners' }).fill(top.items[0]!.email);
  await expect(page.getByText('1–1 of 1 learners')).toBeVisible();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile(await (await downloadPromise).path(), 'utf8');
  expect(csv).toContain('Name,Email,First access,Last access,Access count');
  expect(csv).toContain(top.items[0]!.email);
});

test.describe('course form', () => {
  // Chromium logs the refused (409) request as a console error; the test checks it is the only one.
  test.use({ allowPageErrors: true });

  test('an owner creates a course, is told about a missing title and a taken external id, and edits it', async ({
    page,
    request,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const owner = await signUpViaApi(request);
    await signInAs(page, owner.token);
    await createCourseViaApi(request, owner.token, { courseTitle: 'Existing', externalCourseId: 'taken-id' });
    await page.goto('/courses');

    await page.getByRole('button', { name: 'New course' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a course' });
    await dialog.getByRole('button', { name: 'Create course' }).click();
    await expect(dialog.getByText('Course title is required')).toBeVisible();

    await dialog.getByLabel('Title').fill('Forklift Basics');
    await dialog.getByLabel(/External course ID/).fill('taken-id');
    await dialog.getByRole('button', { name: 'Create course' }).click();
    await expect(dialog.getByText('A course with external ID "taken-id" already exists')).toBeVisible();

    await dialog.getByLabel(/External course ID/).fill('forklift-basics');
    await dialog.getByRole('button', { name: 'Create course' }).click();
    await expect(dialog).toBeHidden();
    const table = page.getByRole('table', { name: 'Courses' });
    await expect(table.getByRole('link', { name: 'Forklift Basics' })).toBeVisible();
    await expect(table.getByText('forklift-basics').first()).toBeAttached();

    await page.getByRole('button', { name: 'Actions for Forklift Basics' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit course' });
    await expect(edit.getByLabel('Title')).toHaveValue('Forklift Basics');
    await edit.getByLabel('Title').fill('Forklift Basics (2026)');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(table.getByRole('link', { name: 'Forklift Basics (2026)' })).toBeVisible();
    // Only Chromium's own note about the refused request; the app logs nothing.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
  });
});

test('an owner deletes a course with the choices shown and the ticked ones sent', async ({
  page,
  request,
}) => {
  const owner = await signUpViaApi(request);
  await signInAs(page, owner.token);
  const suffix = uniqueSuffix();
  const first = await createCourseViaApi(request, owner.token, { courseTitle: `Plain ${suffix}` });
  const second = await createCourseViaApi(request, owner.token, { courseTitle: `Flagged ${suffix}` });
  await page.goto('/courses');

  // Defaults: nothing ticked, every flag false.
  await page.getByRole('button', { name: `Actions for ${first.courseTitle}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  let dialog = page.getByRole('dialog', { name: 'Delete course' });
  for (const choice of ['Keep learner data', 'Delete related reports']) {
    await expect(dialog.getByRole('checkbox', { name: choice })).toBeVisible();
    await expect(dialog.getByRole('checkbox', { name: choice })).not.toBeChecked();
  }
  // Pipelines cannot be built yet: nothing offers to clean them up.
  await expect(dialog.getByRole('checkbox')).toHaveCount(2);
  let requestPromise = page.waitForRequest((r) => r.method() === 'DELETE');
  await dialog.getByRole('button', { name: 'Delete course' }).click();
  expect(new URL((await requestPromise).url()).search).toBe(
    '?keepLearnerData=false&deleteRelatedReports=false&removePipelineReferences=false',
  );
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: first.courseTitle })).toBeHidden();

  // Each choice ticked travels as true.
  await page.getByRole('button', { name: `Actions for ${second.courseTitle}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  dialog = page.getByRole('dialog', { name: 'Delete course' });
  for (const choice of ['Keep learner data', 'Delete related reports']) {
    await dialog.getByRole('checkbox', { name: choice }).check();
  }
  requestPromise = page.waitForRequest((r) => r.method() === 'DELETE');
  await dialog.getByRole('button', { name: 'Delete course' }).click();
  expect(new URL((await requestPromise).url()).search).toBe(
    '?keepLearnerData=true&deleteRelatedReports=true&removePipelineReferences=false',
  );
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No courses yet')).toBeVisible();

  for (const course of [first, second]) {
    const response = await request.get(`/api/courses/${course.id}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status()).toBe(404);
  }
});

test('an owner sets and clears a course broadcast and sees the history with author and time', async ({
  page,
  request,
}) => {
  const owner = await signUpViaApi(request, { name: 'Bea Broadcaster' });
  await signInAs(page, owner.token);
  const course = await createCourseViaApi(request, owner.token, { courseTitle: `Safety ${uniqueSuffix()}` });
  await page.goto('/courses');
  await page.getByRole('button', { name: `Actions for ${course.courseTitle}` }).click();
  await page.getByRole('menuitem', { name: 'Broadcasts' }).click();

  await expect(page).toHaveURL(/\/courses\/[0-9a-f-]+\/broadcasts\?title=/);
  await expect(page.getByRole('heading', { level: 1, name: course.courseTitle })).toBeVisible();
  await expect(page.getByTestId('current-broadcast')).toHaveText('No message is showing right now.');
  await expect(page.getByText('No broadcasts yet')).toBeVisible();

  await page.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(page.getByText('Write a message, or clear the broadcast instead')).toBeVisible();

  await page.getByLabel('New message').fill('The quiz closes on Friday.');
  await page.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(page.getByTestId('current-broadcast')).toHaveText('The quiz closes on Friday.');
  const history = page.getByRole('list', { name: 'Past broadcasts' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem').first()).toContainText('Bea Broadcaster');
  await expect(history.getByRole('listitem').first()).toContainText('just now');

  await page.getByRole('button', { name: 'Clear message' }).click();
  await expect(page.getByTestId('current-broadcast')).toHaveText('No message is showing right now.');
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('Message cleared');

  const detail = await request.get(`/api/courses/${course.id}`, {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(((await detail.json()) as { broadcastMessage: string | null }).broadcastMessage).toBeNull();
});
