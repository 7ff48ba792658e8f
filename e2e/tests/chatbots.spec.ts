import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';

import { changePlanViaApi, signInAs, signUpViaApi, type Account } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Custom AI agents as people use them: an owner creates an agent with
 * knowledge and a variable in the editor; a signed-out learner talks to it
 * inside an iframe on another site's page (the course), answers its
 * question and asks the knowledge; the value appears on the learner's page
 * and in the chatbot variable report, and the conversation in the agent's
 * Conversations tab. Screenshots at 375 and 1440 px, light and dark.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'chatbots');
mkdirSync(shotsDir, { recursive: true });

async function shoot(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.screenshot({
      path: join(shotsDir, `${name}-${colorScheme}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const KNOWLEDGE = `# Safety handbook

## Evacuation
When the alarm sounds, leave by the nearest exit and gather at the assembly point in the north car park.

## Extinguishers
Extinguishers are checked every month by the facilities team.`;

/**
 * A course page on another origin (a server of its own on another port)
 * that embeds the chat for one learner, as the embed code does. A real
 * server rather than an intercepted request: Chromium lets a page frame a
 * local server only from the local address space.
 */
async function courseHostPage(
  browser: Browser,
  chatUrl: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const host = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>Fire safety course</title>
      <h1>Fire safety course</h1>
      <iframe src="${chatUrl}" title="Chat" style="width:420px;height:640px;border:0"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/course.html`);
  return {
    page,
    close: async () => {
      await context.close();
      host.closeAllConnections();
      await new Promise<void>((resolve) => host.close(() => resolve()));
    },
  };
}

let owner: Account;

test.beforeAll(async ({ request }) => {
  owner = await signUpViaApi(request);
  // Several agents: more than Free allows.
  await changePlanViaApi(request, owner.token);
});

test('an owner creates an agent, a learner talks to it in a course page on another site, and the value lands on the learner', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, owner.token);
  await page.goto('/chatbots');
  await expect(page.getByRole('heading', { level: 1, name: 'Custom AI Agents' })).toBeVisible();
  await page
    .getByRole('link', { name: /Create an agent|Create agent|New agent/ })
    .first()
    .click();

  await expect(page.getByRole('heading', { level: 1, name: 'Create agent' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).first().fill('Safety coach');
  await page.getByLabel('Welcome message').fill('Hi! I am your safety coach.');
  await page.getByLabel('Knowledge', { exact: true }).fill(KNOWLEDGE);
  await page.getByRole('button', { name: 'Add variable' }).click();
  const variable = page.getByRole('group', { name: /Variable 1/ });
  await variable.getByLabel('Name', { exact: true }).fill('team_size');
  await variable.getByLabel('Type').selectOption('number');
  await variable.getByLabel('Question').fill('How many people are in your team?');
  await page.getByRole('button', { name: 'Create agent' }).click();

  await expect(page).toHaveURL(/\/chatbots\/edit\/[0-9a-f-]{36}/);
  const chatbotId = /\/chatbots\/edit\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';

  // The learner, signed out, in a course page of another origin.
  const host = await courseHostPage(browser, `${baseURL}/chat/${chatbotId}?email=lea@example.com`);
  const course = host.page;
  expect(new URL(course.url()).origin).not.toBe(new URL(baseURL ?? '').origin);
  const chat = course.frameLocator('iframe[title="Chat"]');
  await expect(chat.getByRole('heading', { level: 1, name: 'Safety coach' })).toBeVisible();
  await expect(chat.getByText('How many people are in your team?')).toBeVisible();
  const box = chat.getByLabel('Message to Safety coach');
  await box.fill('We are 12');
  await box.press('Enter');
  await expect(chat.getByText(/Team size: 12/)).toBeVisible();
  await box.fill('Where do we gather when the alarm sounds?');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByText(/north car park/).last()).toBeVisible();
  await expect(chat.getByText('Built-in assistant').first()).toBeVisible();
  await course.screenshot({ path: join(shotsDir, 'chat-in-course-page.png'), fullPage: true });
  await host.close();

  // The value is on the learner's page, beside their course values.
  await page.goto('/learners?q=lea%40example.com');
  await page
    .getByRole('link', { name: /lea@example\.com/ })
    .first()
    .click();
  await page
    .getByRole('navigation', { name: 'Learner sections' })
    .getByRole('link', { name: 'Variables' })
    .click();
  await expect(page.getByRole('heading', { name: 'Chatbot values' })).toBeVisible();
  const values = page.getByRole('region', { name: 'Chatbot values' });
  await expect(values.getByText('12', { exact: true })).toBeVisible();

  // The conversation in the agent's Conversations tab.
  await page.goto(`/chatbots/edit/${chatbotId}?tab=conversations`);
  await expect(page.getByText('lea@example.com').first()).toBeVisible();
});

test('the agents list and editor read well on a phone and a wide screen, in both themes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const created = await request.post('/api/chatbots', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: {
      name: 'Onboarding buddy',
      description: 'Helps new starters through their first week.',
      knowledge: KNOWLEDGE,
      color: '#0ea5e9',
      avatar: '🧭',
      variables: [
        { name: 'team_size', type: 'number' },
        { name: 'site', type: 'choice', options: ['Paris', 'Lyon'] },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, owner.token);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/chatbots');
    await expect(page.getByRole('link', { name: 'Onboarding buddy', exact: true })).toBeVisible();
    await shoot(page, `chatbots-list-${width}`);
    await page.goto(`/chatbots/edit/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, `chatbot-editor-${width}`);
  }
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the chat page works on a phone, keeps its conversation, and says when the agent is switched off', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const created = await request.post('/api/chatbots', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: 'Quiz helper', welcomeMessage: 'Hello!', variables: [{ name: 'score', type: 'number' }] },
  });
  const agent = (await created.json()) as { id: string };
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  await page.goto(`/chat/${agent.id}`);
  // No e-mail in the address: the page asks for it once.
  await page.getByLabel('Your e-mail address').fill('noa@example.com');
  await page.getByRole('button', { name: 'Start the conversation' }).click();
  const box = page.getByLabel('Message to Quiz helper');
  await box.fill('8');
  await box.press('Enter');
  await expect(page.getByText(/Score: 8/)).toBeVisible();
  await shoot(page, 'chat-375');
  // Reloading resumes the same conversation.
  await page.reload();
  await expect(page.getByText(/Score: 8/)).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  const off = await request.put(`/api/chatbots/${agent.id}`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: 'Quiz helper', active: false, variables: [{ name: 'score', type: 'number' }] },
  });
  expect(off.status()).toBe(200);
  await page.reload();
  await expect(
    page.getByText('This assistant is switched off at the moment. Please try again later.'),
  ).toBeVisible();
  await expect(page.getByLabel('Message to Quiz helper')).toHaveCount(0);
  await context.close();
});
