import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { APIRequestContext, Browser, Page } from '@playwright/test';

import { signInAs } from '../support/accounts';
import { SAFETY, signUpWithLearningData } from '../support/learning-data';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Shared views: an owner switches sharing on from a report page and copies
 * the link; a signed-out visitor (or another site, in an iframe) sees the
 * view with names only; switching off or replacing the link ends it. On an
 * organization of the spec's own (learning data sent through the ingestion
 * API, support/learning-data.ts), since sharing changes the variable and the
 * question. Ingested variables have no title: pages show the name.
 */

const shotsDir = join(artifactsDir, 'screenshots', 'reports');
/**
 * A page on another origin that frames `src`: a tiny server of its own on
 * another port (a routed, made-up host would count as a public site, and
 * Chromium's local network rules would stop it before the frame headers).
 */
async function startEmbedder(src: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>Course portal</title><h1>Our leaderboard</h1>
      <iframe title="Embedded view" src="${src}" width="900" height="760"></iframe></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let token: string;
let safetyCourseId: string;
let questionId: string;

async function api<T>(
  request: APIRequestContext,
  method: 'GET' | 'PUT',
  path: string,
  data?: object,
): Promise<T> {
  const response = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data ? { data } : {}),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** A signed-out visitor in a browser context of their own. */
async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Turns sharing on from the report page's Share control and returns the link it shows. */
async function switchSharingOn(page: Page, subject: string): Promise<string> {
  await page.getByRole('button', { name: /^Share/ }).click();
  const toggle = page.getByRole('switch', { name: `Share ${subject}` });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  const link = page.getByRole('textbox', { name: 'Share link' });
  await expect(link).toHaveValue(/\?token=[A-Za-z0-9_-]{43}$/);
  return link.inputValue();
}

test.beforeAll(async ({ request }) => {
  token = (await signUpWithLearningData(request)).account.token;
  const variables = await api<{ items: { id: string; courseId: string; courseTitle: string }[] }>(
    request,
    'GET',
    '/api/variables?q=final_score&pageSize=100',
  );
  const safety = variables.items.find((item) => item.courseTitle === SAFETY.title)!;
  safetyCourseId = safety.courseId;
  const questions = await api<{ items: { id: string }[] }>(
    request,
    'GET',
    `/api/courses/${safetyCourseId}/questions?pageSize=1`,
  );
  questionId = questions.items[0]!.id;
});

test.describe.configure({ mode: 'serial' });

test('an owner shares a leaderboard and a signed-out visitor sees it with names only, also inside another site', async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInAs(page, token);
  await page.goto(`/course/${safetyCourseId}/variable/final_score/leaders`);
  await expect(page.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  const link = await switchSharingOn(page, 'this variable');
  expect(link).toContain(`/shared/course/${safetyCourseId}/variable/final_score/leaders?token=`);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const guest = await visitor(browser);
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  await expect(guest.getByTestId('shared-by')).toContainText('Shared by ');
  await expect(guest.locator('[data-layout="shared"]')).toBeVisible();
  await expect(guest.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  const leaders = guest.getByRole('table', { name: 'Leaders' });
  await expect(leaders.getByRole('row')).toHaveCount(11);
  await expect(leaders.getByRole('row').nth(1)).toContainText('#1');
  expect(await guest.locator('body').innerText()).not.toContain('@');
  // No member controls for a visitor.
  await expect(guest.getByRole('button', { name: /^Share/ })).toHaveCount(0);
  await expect(guest.getByRole('link', { name: 'AI summary' })).toHaveCount(0);
  // The report tab keeps the token and shows no e-mail either.
  await guest.getByRole('link', { name: 'Report', exact: true }).click();
  await expect(
    guest.getByRole('table', { name: 'Latest value of each learner' }).getByRole('row').nth(1),
  ).toBeVisible();
  expect(await guest.locator('body').innerText()).not.toContain('@');
  await guest.screenshot({ path: join(shotsDir, 'shared-variable-report.png'), fullPage: true });

  // Another site embeds the leaderboard in an iframe.
  const site = await startEmbedder(link);
  const embedder = await visitor(browser);
  await embedder.goto(site.url);
  const frame = embedder.frameLocator('iframe[title="Embedded view"]');
  await expect(frame.getByRole('heading', { level: 1, name: 'final_score' })).toBeVisible();
  await expect(frame.getByRole('table', { name: 'Leaders' }).getByRole('row')).toHaveCount(11);
  await embedder.screenshot({ path: join(shotsDir, 'shared-leaders-in-iframe.png'), fullPage: true });
  await site.close();
  await guest.context().close();
  await embedder.context().close();
});

test.describe('pages that must not show', () => {
  test.use({ allowPageErrors: true });

  test('an ordinary page refuses to be framed by another site', async ({ page, baseURL }) => {
    const site = await startEmbedder(`${baseURL}/login`);
    const blocked = page.waitForEvent('console', (message) =>
      message
        .text()
        .includes(`violates the following Content Security Policy directive: "frame-ancestors 'self'"`),
    );
    await page.goto(site.url);
    await blocked;
    // The frame shows the browser's error page, not the app.
    await expect
      .poll(() =>
        page
          .frames()
          .find((frame) => frame !== page.mainFrame())
          ?.url(),
      )
      .toMatch(/^chrome-error:/);
    await expect(
      page
        .frameLocator('iframe[title="Embedded view"]')
        .getByRole('heading', { name: 'Sign in to CourseLens' }),
    ).toHaveCount(0);
    await site.close();
  });

  test('switching sharing off or replacing the link shows "This view is not shared" to visitors', async ({
    page,
    browser,
  }) => {
    await signInAs(page, token);
    await page.goto(`/questions/${questionId}/report`);
    const link = await switchSharingOn(page, 'this question');
    const guest = await visitor(browser);
    await guest.goto(link);
    const answers = guest.getByRole('table', { name: 'Answers' });
    await expect(answers.getByRole('row').nth(1)).toBeVisible();
    expect(await guest.locator('body').innerText()).not.toContain('@');
    await guest.getByRole('link', { name: 'Leaders' }).click();
    await expect(
      guest.getByRole('table', { name: 'Leaders by points' }).getByRole('row').nth(1),
    ).toContainText('#1');

    // A new link: the old one stops working at once.
    await page.getByRole('button', { name: 'New link' }).click();
    await expect(page.getByRole('textbox', { name: 'Share link' })).not.toHaveValue(link);
    await guest.goto(link);
    await expect(guest.getByRole('heading', { level: 1, name: 'This view is not shared' })).toBeVisible();
    const fresh = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
    await guest.goto(fresh);
    await expect(guest.getByRole('table', { name: 'Answers' }).getByRole('row').nth(1)).toBeVisible();

    // Switched off: the same answer, and the page reveals nothing.
    await page.getByRole('switch', { name: 'Share this question' }).click();
    await expect(page.getByRole('switch', { name: 'Share this question' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await guest.goto(fresh);
    await expect(guest.getByRole('heading', { level: 1, name: 'This view is not shared' })).toBeVisible();
    await expect(guest.getByRole('table')).toHaveCount(0);
    await guest.screenshot({ path: join(shotsDir, 'not-shared.png') });
    await guest.context().close();
  });
});
