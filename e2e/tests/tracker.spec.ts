import { mkdirSync } from 'node:fs';

import AxeBuilder from '@axe-core/playwright';
import type { CourseLensGlobal } from '@courselens/tracker';
import type { Page } from '@playwright/test';

import { signUpViaApi, uniqueSuffix } from '../support/accounts';
import {
  createApiKeyViaApi,
  recordIngestion,
  resendEvents,
  startCourseSite,
  type CourseSite,
  type SentEvent,
} from '../support/course-page';
import { expect, test } from '../support/test';

/**
 * The course tracker in the real Chromium against the real server: a course
 * page on another origin loads `/tracker.js`, and what it sends is checked
 * through the ingestion API (every event sent again with the same id must
 * come back as a duplicate, which proves the server stored it once).
 */
type CoursePage = Window & {
  CourseLens?: CourseLensGlobal;
  GetPlayer?: () => { GetVar: (name: string) => unknown };
};

const SHOTS_DIR = '/tmp/shots-tracker';

let site: CourseSite;

test.beforeAll(async ({ baseURL }) => {
  site = await startCourseSite(baseURL!);
});

test.afterAll(async () => {
  await site.close();
});

type Setup = {
  endpoint: string;
  key: string;
  externalCourseId: string;
  flushDelay?: number;
  /** The tracker's automatic slide views (on by default); off where a test counts queued events. */
  autoSlides?: boolean;
};

/** Opens the course page and starts the tracker for one learner. */
async function openCourse(page: Page, setup: Setup): Promise<void> {
  await page.goto(site.url);
  await page.evaluate((options) => {
    (window as CoursePage).CourseLens!.init({
      endpoint: options.endpoint,
      key: options.key,
      course: { externalCourseId: options.externalCourseId, title: 'Workplace safety: module 1' },
      learner: { email: 'lee.learner@example.com', name: 'Lee Learner' },
      flushDelay: options.flushDelay,
      autoSlides: options.autoSlides ?? false,
    });
  }, setup);
}

function queuedIds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((name) => name.startsWith('courselens:queue:'))
      .flatMap((name) =>
        (JSON.parse(localStorage.getItem(name)!) as { id: string }[]).map((event) => event.id),
      ),
  );
}

/** Makes the page's requests to the ingestion API fail as if the network were down; returns a counter. */
async function cutIngestion(page: Page, endpoint: string) {
  const state = { aborted: 0 };
  await page.route(`${endpoint}/api/v1/events`, async (route) => {
    state.aborted++;
    await route.abort('internetdisconnected');
  });
  return state;
}

async function newCourseKey(request: Parameters<typeof signUpViaApi>[0]) {
  const owner = await signUpViaApi(request);
  return createApiKeyViaApi(request, owner.token, 'Course tracker');
}

test('a course on another origin loads /tracker.js and sends a learner’s variables and answers', async ({
  page,
  request,
  baseURL,
}) => {
  const key = await newCourseKey(request);
  const log = recordIngestion(page);
  const scriptResponse = page.waitForResponse(`${baseURL}/tracker.js`);
  const externalCourseId = `safety-${uniqueSuffix()}`;
  // The product's default: the tracker also sends a slide view per page address.
  await openCourse(page, { endpoint: baseURL!, key, externalCourseId, autoSlides: true });

  const script = await scriptResponse;
  expect(script.status()).toBe(200);
  expect(script.headers()['content-type']).toBe('application/javascript; charset=utf-8');
  expect(script.headers()['access-control-allow-origin']).toBe('*');
  expect(script.headers().etag).toBeTruthy();
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL!).origin);

  const pending = await page.evaluate(async () => {
    const win = window as CoursePage;
    const lens = win.CourseLens!;
    // A Storyline player, as GetPlayer() returns it in a published course.
    const storyline: Record<string, unknown> = { Department: 'Warehouse', Score: 40, Passed: false };
    win.GetPlayer = () => ({ GetVar: (name) => storyline[name] });
    lens.syncStorylineVariables(['Department', 'Score', 'Passed']);
    storyline.Score = 85;
    storyline.Passed = true;
    lens.syncStorylineVariables(['Department', 'Score', 'Passed']); // only the two that changed
    lens.answer({
      interactionId: 'assembly-point',
      slideNumber: 3,
      questionNumber: 1,
      text: 'Where is the fire assembly point?',
      answer: 'North car park',
      correct: true,
      correctAnswer: 'North car park',
      points: 10,
    });
    lens.answer({
      interactionId: 'extinguisher-type',
      slideNumber: 4,
      questionNumber: 2,
      text: 'Which extinguisher for an electrical fire?',
      answer: 'Water',
      correct: false,
      correctAnswer: 'CO2',
      points: 0,
    });
    await lens.complete();
    return lens.pending();
  });
  expect(pending).toBe(0);

  await expect.poll(() => log.accepted()).toBe(10);
  expect(log.duplicates()).toBe(0);
  expect(log.answers.flatMap((answer) => answer.rejected)).toEqual([]);
  const events = log.sent.flat();
  expect(events.map((event) => event.type)).toEqual([
    'course.started',
    'slide.viewed',
    'variable.set',
    'variable.set',
    'variable.set',
    'variable.set',
    'variable.set',
    'question.answered',
    'question.answered',
    'course.completed',
  ]);
  expect(events[1]!.slide).toMatchObject({ number: 1 });
  expect(events.filter((event) => event.type === 'variable.set').map((event) => event.variable)).toEqual([
    { name: 'Department', value: 'Warehouse' },
    { name: 'Score', value: 40 },
    { name: 'Passed', value: false },
    { name: 'Score', value: 85 },
    { name: 'Passed', value: true },
  ]);
  // One id per event, one run per page load.
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  expect(new Set(events.map((event) => event.run)).size).toBe(1);

  const again = await resendEvents(request, key, events);
  expect(again).toEqual({ accepted: 0, duplicates: events.length, rejected: [] });
});

test.describe('when the network fails', () => {
  // Chromium logs each aborted request as a console error: that is the point here.
  test.use({ allowPageErrors: true });

  test('events queued while offline arrive exactly once when the network is back', async ({
    page,
    request,
    baseURL,
  }) => {
    const key = await newCourseKey(request);
    const log = recordIngestion(page);
    const cut = await cutIngestion(page, baseURL!);
    await openCourse(page, { endpoint: baseURL!, key, externalCourseId: 'offline-101', flushDelay: 100 });
    await page.evaluate(() => {
      for (let step = 1; step <= 5; step++) (window as CoursePage).CourseLens!.setVariable('Step', step);
    });

    await expect.poll(() => cut.aborted).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as CoursePage).CourseLens!.pending())).toBe(6);
    const waiting = await queuedIds(page);
    expect(waiting).toHaveLength(6);

    await page.unroute(`${baseURL}/api/v1/events`);
    // The next back-off retry delivers them; nothing is sent twice.
    await expect.poll(() => log.accepted(), { timeout: 20_000 }).toBe(6);
    expect(log.duplicates()).toBe(0);
    expect(await page.evaluate(() => (window as CoursePage).CourseLens!.pending())).toBe(0);
    expect(await queuedIds(page)).toEqual([]);

    const delivered = log.answers.length;
    const retried = log.sent.slice(-delivered).flat();
    expect(retried.map((event) => event.id).sort()).toEqual([...waiting].sort());
    expect(await resendEvents(request, key, retried)).toEqual({ accepted: 0, duplicates: 6, rejected: [] });
  });

  test('a tab closed with unsent events loses nothing: the next page load sends them', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const key = await newCourseKey(request);
    const cut = await cutIngestion(page, baseURL!);
    await openCourse(page, { endpoint: baseURL!, key, externalCourseId: 'closed-tab-101', flushDelay: 100 });
    await page.evaluate(() => {
      (window as CoursePage).CourseLens!.setVariable('Score', 70);
      (window as CoursePage).CourseLens!.setVariable('Department', 'Sales');
    });
    await expect.poll(() => cut.aborted).toBeGreaterThan(0);
    const leftBehind = await queuedIds(page);
    expect(leftBehind).toHaveLength(3);
    // Its goodbye beacon is lost too: only localStorage can save these events.
    await page.evaluate(() => {
      navigator.sendBeacon = () => false;
    });
    await page.close();

    const next = await context.newPage();
    const log = recordIngestion(next);
    await openCourse(next, { endpoint: baseURL!, key, externalCourseId: 'closed-tab-101', flushDelay: 100 });
    // The three left behind, and this visit's own course.started.
    await expect.poll(() => log.accepted()).toBe(4);
    expect(log.duplicates()).toBe(0);
    const sent = log.sent.flat();
    expect(sent.map((event) => event.id)).toEqual(expect.arrayContaining(leftBehind));
    expect(await queuedIds(next)).toEqual([]);
    expect(await resendEvents(request, key, sent)).toEqual({ accepted: 0, duplicates: 4, rejected: [] });
  });
});

test('leaving the page sends what is queued with sendBeacon, the key in the body', async ({
  page,
  request,
  baseURL,
}) => {
  const owner = await signUpViaApi(request);
  const key = await createApiKeyViaApi(request, owner.token, 'Course tracker');
  // A long delay: nothing leaves by fetch before the learner leaves.
  await openCourse(page, { endpoint: baseURL!, key, externalCourseId: 'beacon-101', flushDelay: 60_000 });
  await page.evaluate(() => {
    (window as CoursePage).CourseLens!.setVariable('Score', 95);
    (window as CoursePage).CourseLens!.setVariable('Passed', true);
  });
  const queued = await queuedIds(page);
  expect(queued).toHaveLength(3);

  // Record what the page hands to sendBeacon (the browser reports no
  // beacon to Playwright), and let the real beacon go out.
  await page.evaluate(() => {
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      const isQueued = send(url, data);
      localStorage.setItem('e2e:beacon', JSON.stringify({ url, data, isQueued }));
      return isQueued;
    };
  });
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const recorded = JSON.parse((await page.evaluate(() => localStorage.getItem('e2e:beacon')))!) as {
    url: string;
    data: string;
    isQueued: boolean;
  };
  expect(recorded.url).toBe(`${baseURL}/api/v1/events`);
  expect(recorded.isQueued).toBe(true);
  expect(typeof recorded.data).toBe('string'); // sent as text/plain: no preflight
  const body = JSON.parse(recorded.data) as { key: string; events: SentEvent[] };
  expect(body.key).toBe(key);
  expect(body.events.map((event) => event.id)).toEqual(queued);
  // Still queued until a normal request is acknowledged.
  expect(await page.evaluate(() => (window as CoursePage).CourseLens!.pending())).toBe(3);

  // Leaving for real fires pagehide: the same events were already handed to a beacon, so none is sent twice.
  await page.goto('about:blank');
  // A beacon has no answer to wait for: wait until the values it carried are
  // stored (its events are written in one transaction, all or none).
  const values = body.events.filter((event) => event.type === 'variable.set').length;
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/variables?pageSize=100', {
          headers: { authorization: `Bearer ${owner.token}` },
        });
        const { items } = (await response.json()) as { items: { usageCount: number }[] };
        return items.reduce((sum, item) => sum + item.usageCount, 0);
      },
      { message: 'the values sent by the beacon are stored' },
    )
    .toBe(values);
  // Stored by the beacon: sending them again finds every one already there.
  expect(await resendEvents(request, key, body.events)).toEqual({
    accepted: 0,
    duplicates: body.events.length,
    rejected: [],
  });
});

test('the snippets printed in /docs/ work as printed, for a web page and for Storyline', async ({
  page,
  request,
  baseURL,
}) => {
  const key = await newCourseKey(request);
  const docs = await request.get('/docs/json');
  const guide = ((await docs.json()) as { info: { description: string } }).info.description;
  const codeAfter = (heading: string, language: string) => {
    const section = guide.slice(guide.indexOf(heading));
    const code = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section)?.[1];
    expect(code, `a ${language} block under ${heading}`).toBeTruthy();
    return code!.replaceAll('https://courselens.example.com', baseURL!).replaceAll('YOUR_INGEST_KEY', key);
  };

  // Any web course: the HTML snippet pasted into a page as it is.
  const webLog = recordIngestion(page);
  const webPage = site.serve(
    '/docs-web.html',
    `<!doctype html><html lang="en"><head><title>Web course</title></head><body>${codeAfter('### Any web course', 'html')}</body></html>`,
  );
  await page.goto(webPage);
  await expect.poll(() => webLog.accepted()).toBe(5);
  expect(webLog.sent.flat().map((event) => event.type)).toEqual([
    'course.started',
    'slide.viewed',
    'variable.set',
    'question.answered',
    'course.completed',
  ]);

  // Storyline: the trigger's script on a page that has not loaded the tracker yet.
  const storyLog = recordIngestion(page);
  await page.goto(
    site.serve(
      '/docs-storyline.html',
      '<!doctype html><html lang="en"><head><title>Story</title></head><body></body></html>',
    ),
  );
  await page.evaluate(() => {
    const variables: Record<string, unknown> = {
      LearnerEmail: 'sam.storyline@example.com',
      LearnerName: 'Sam Storyline',
      Score: 60,
      Department: 'Operations',
      Passed: false,
    };
    (window as CoursePage).GetPlayer = () => ({ GetVar: (name) => variables[name] });
  });
  await page.addScriptTag({ content: codeAfter('### Articulate Storyline', 'js') });
  await expect.poll(() => storyLog.accepted()).toBe(5);
  const sent = storyLog.sent.flat();
  expect(sent.map((event) => event.type)).toEqual([
    'course.started',
    'slide.viewed',
    'variable.set',
    'variable.set',
    'variable.set',
  ]);
  expect(sent[0]!.learner).toEqual({ email: 'sam.storyline@example.com', name: 'Sam Storyline' });
  expect(sent[1]!.slide).toEqual({ number: 1, title: 'Story' });
  expect(sent.slice(2).map((event) => event.variable)).toEqual([
    { name: 'Score', value: 60 },
    { name: 'Department', value: 'Operations' },
    { name: 'Passed', value: false },
  ]);
});

test('the course shows its broadcast message in a banner the learner can dismiss', async ({
  page,
  request,
  baseURL,
}) => {
  // A course of the test's own organization with a broadcast set by its owner.
  const owner = await signUpViaApi(request);
  const headers = { authorization: `Bearer ${owner.token}` };
  const created = await request.post('/api/courses', {
    headers,
    data: { courseTitle: 'Workplace Safety Essentials', externalCourseId: 'workplace-safety-essentials' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const expected = 'New fire assembly point: the north car park, from Monday.';
  const broadcast = await request.put(
    `/api/courses/${((await created.json()) as { id: string }).id}/broadcast`,
    {
      headers,
      data: { message: expected },
    },
  );
  expect(broadcast.status(), await broadcast.text()).toBe(200);
  const key = await createApiKeyViaApi(request, owner.token, `Tracker e2e ${uniqueSuffix()}`);
  const show = () =>
    page.evaluate(
      async (options) => {
        const lens = (window as CoursePage).CourseLens!;
        lens.init({
          endpoint: options.endpoint,
          key: options.key,
          course: { externalCourseId: 'workplace-safety-essentials' },
          learner: { email: 'lee.learner@example.com' },
          autoStart: false, // the banner only: no course run
        });
        return lens.showBroadcast();
      },
      { endpoint: baseURL!, key },
    );

  await page.goto(site.url);
  expect(await show()).toBe(expected);
  const banner = page.getByRole('status', { name: 'Message from your course team' });
  await expect(banner).toContainText(expected);
  expect(
    (await new AxeBuilder({ page }).include('#courselens-broadcast').analyze()).violations.map(
      (violation) => violation.id,
    ),
  ).toEqual([]);

  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const width of [1440, 375]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 740 });
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${SHOTS_DIR}/broadcast-${width}-${colorScheme}.png` });
    }
  }

  // Keyboard: Tab reaches the button, Enter dismisses.
  const dismiss = banner.getByRole('button', { name: 'Dismiss message' });
  await dismiss.focus();
  await page.keyboard.press('Enter');
  await expect(banner).toHaveCount(0);

  // Dismissed stays dismissed on the next visit (the same message).
  await page.reload();
  expect(await show()).toBe(expected);
  await expect(banner).toHaveCount(0);
});
