import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { expect, test } from '../support/test';

/** The seeded demo organization (read only here: every spec may read it at the same time). */
const DEMO = { email: 'demo@courselens.dev', password: 'courselens-demo' };
const COURSE_TITLE = 'Workplace Safety Essentials';

type Timing = { name: string; startTime: number; responseEnd: number };

async function demoSession(request: APIRequestContext): Promise<{ token: string; courseId: string }> {
  const session = await request.post('/api/session', { data: DEMO });
  expect(session.status(), await session.text()).toBe(200);
  const { token } = (await session.json()) as { token: string };
  const courses = await request.get('/api/courses', {
    params: { q: COURSE_TITLE },
    headers: { authorization: `Bearer ${token}` },
  });
  const { items } = (await courses.json()) as { items: { id: string; courseTitle: string }[] };
  const course = items.find((item) => item.courseTitle === COURSE_TITLE);
  expect(course, 'the demo course').toBeDefined();
  return { token, courseId: course?.id ?? '' };
}

/** The browser's own record of a request (Resource Timing: what the network panel shows). */
async function timingOf(page: Page, path: RegExp): Promise<Timing> {
  const entries = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      ({ name, startTime, responseEnd }) => ({ name: new URL(name).pathname, startTime, responseEnd }),
    ),
  );
  const entry = entries.find((candidate) => path.test(candidate.name));
  expect(entry, `a request to ${path}`).toBeDefined();
  return entry ?? { name: '', startTime: 0, responseEnd: 0 };
}

/**
 * Holds the course's answer back for a while: a page whose requests start
 * together has the other one on the wire long before the course answers,
 * however slowly a loaded machine brings the route's code; a page that asks
 * one after the other cannot start it before then.
 */
async function holdCourseAnswer(page: Page, courseId: string): Promise<void> {
  await page.route(new RegExp(`/api/courses/${courseId}$`), async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
}

function expectOverlap(a: Timing, b: Timing) {
  // Each starts before the other has its answer: they are on the wire together.
  expect(a.startTime, `${a.name} starts before ${b.name} is answered`).toBeLessThan(b.responseEnd);
  expect(b.startTime, `${b.name} starts before ${a.name} is answered`).toBeLessThan(a.responseEnd);
}

// The browser keeps 250 resource timings by default, fewer than a signed-in
// app's chunks and requests by the time a second page has loaded.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => performance.setResourceTimingBufferSize(2000));
});

test('a member opens a course from the list: the course and its learners load together, not one after the other', async ({
  page,
  request,
}) => {
  const { token, courseId } = await demoSession(request);
  await signInAs(page, token);
  await holdCourseAnswer(page, courseId);
  await page.goto('/courses');
  await page.getByRole('link', { name: COURSE_TITLE, exact: true }).click();

  await expect(page.getByRole('heading', { level: 1, name: COURSE_TITLE })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Learners of the course' })).toBeVisible();

  const course = await timingOf(page, new RegExp(`^/api/courses/${courseId}$`));
  const learners = await timingOf(page, new RegExp(`^/api/courses/${courseId}/learners$`));
  // Started by the route loaders (whose code loads beside the page's), not
  // by the page's components one after the other.
  expectOverlap(course, learners);
});

test('a member opens a course page by its address: the course and its variables load together', async ({
  page,
  request,
}) => {
  const { token, courseId } = await demoSession(request);
  await signInAs(page, token);
  await holdCourseAnswer(page, courseId);
  await page.goto(`/course/${courseId}/variables`);

  await expect(page.getByRole('heading', { level: 1, name: COURSE_TITLE })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Variables' })).toBeVisible();

  const course = await timingOf(page, new RegExp(`^/api/courses/${courseId}$`));
  const variables = await timingOf(page, new RegExp(`^/api/courses/${courseId}/variables$`));
  expectOverlap(course, variables);
});
