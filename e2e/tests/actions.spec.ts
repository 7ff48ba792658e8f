import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

import { signInAs, signUpViaApi, type Account } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * Actions on an organization of the spec's own: an owner creates a webhook
 * action to a receiver this test runs on 127.0.0.1 (allowed for the run by
 * WEBHOOK_ALLOWED_HOSTS in playwright.config.ts), sees its signing secret
 * once, sends a test the receiver can verify, edits and deletes it. The
 * screens are checked at 375 and 1440 px in both themes.
 */

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'e2e' });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/courselens`;
});

test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** What a Standard Webhooks receiver checks: HMAC-SHA256 of "id.timestamp.body" with the secret's bytes. */
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

test('an owner creates a webhook action, keeps its secret, sends a test the receiver verifies, edits and deletes it', async ({
  page,
  request,
}) => {
  const account = await signUpViaApi(request);
  await signInAs(page, account.token);
  await page.goto('/actions');
  await expect(page.getByRole('heading', { level: 1, name: 'Actions' })).toBeVisible();
  await expect(page.getByText('No actions yet')).toBeVisible();
  await page.getByRole('link', { name: 'New action' }).first().click();

  await expect(page.getByRole('heading', { level: 1, name: 'Create action' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Tell the LMS');
  await page.getByRole('textbox', { name: 'URL' }).fill(receiverUrl);
  await page.getByRole('button', { name: 'Add header' }).click();
  await page.getByRole('textbox', { name: 'Header 1 name' }).fill('Authorization');
  await page.getByLabel('Header 1 value').fill('Bearer lms-token');
  await page.getByRole('checkbox', { name: 'Secret' }).check();
  await page.getByRole('button', { name: 'Create action' }).click();

  const dialog = page.getByRole('dialog', { name: 'Copy the signing secret' });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByTestId('action-secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await dialog.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tell the LMS' })).toBeVisible();
  await expect(page).toHaveURL(/\/actions\/edit\/[0-9a-f-]{36}$/);
  // Shown once: the edit page has only its start, and the secret header only says it is stored.
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByText(`${secret.slice(0, 10)}…`)).toBeVisible();
  await expect(page.getByPlaceholder('Stored and encrypted: leave empty to keep')).toHaveValue('');

  received.length = 0;
  await page.getByRole('button', { name: 'Send test' }).click();
  const result = page.getByTestId('action-test-result');
  await expect(result.getByText('200 OK')).toBeVisible();
  await expect(result.getByLabel('Response body')).toContainText('"received": true');
  await expect(result.getByText('webhook-signature')).toBeVisible();
  await expect(result.getByText('Bearer lms-token')).toHaveCount(0);
  expect(received).toHaveLength(1);
  expect(received[0]?.headers.authorization).toBe('Bearer lms-token');
  expect(isSignedWith(secret, received[0]!)).toBe(true);
  expect(JSON.parse(received[0]?.body ?? '')).toMatchObject({ type: 'course.completed' });

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Tell the LMS about completions');
  await page.getByRole('combobox', { name: 'Method' }).selectOption('PUT');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tell the LMS about completions' })).toBeVisible();
  received.length = 0;
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(result.getByText('200 OK')).toBeVisible();
  await expect.poll(() => received.length).toBe(1);
  expect(received[0]?.method).toBe('PUT');
  // The secret header kept its stored value, and the signing secret is the same.
  expect(received[0]?.headers.authorization).toBe('Bearer lms-token');
  expect(isSignedWith(secret, received[0]!)).toBe(true);

  await page.getByRole('link', { name: 'Actions', exact: true }).first().click();
  const row = page.getByRole('row', { name: /Tell the LMS about completions/ });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Delete Tell the LMS about completions' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this action?' })
    .getByRole('button', { name: 'Delete action' })
    .click();
  await expect(page.getByText('No actions yet')).toBeVisible();
});

test.describe('refusals', () => {
  // The refusal is the server's 400: the browser logs the failed request.
  test.use({ allowPageErrors: true });

  test('a webhook to the server’s own network is refused with a clear message', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.goto('/actions/create');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Metadata');
    await page.getByRole('textbox', { name: 'URL' }).fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Create action' }).click();
    await expect(
      page.getByText(
        'Webhooks cannot reach 169.254.169.254: it is a loopback, private or link-local address. An administrator can allow the host in WEBHOOK_ALLOWED_HOSTS',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/actions\/create$/);
  });
});

test('the pipelines page leads to actions', async ({ page, request }) => {
  await signInAs(page, (await signUpViaApi(request)).token);
  await page.goto('/pipelines');
  await page.getByRole('link', { name: 'Manage actions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Actions' })).toBeVisible();
});

const shotsDir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', 'layouts');

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

async function createViaApi(
  account: Account,
  page: Page,
  data: Record<string, unknown>,
): Promise<{ id: string }> {
  const response = await page.request.post('/api/actions', {
    headers: { authorization: `Bearer ${account.token}` },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

test('the list, the form and a test result at 375 and 1440 px in both themes, without serious accessibility problems', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const account = await signUpViaApi(request);
  const webhook = await createViaApi(account, page, {
    name: 'Tell the LMS',
    description: 'Every completion goes to the LMS, signed.',
    config: {
      type: 'webhook',
      url: receiverUrl,
      headers: [{ name: 'Authorization', value: 'Bearer lms-token', secret: true }],
    },
  });
  const email = await createViaApi(account, page, {
    name: 'Congratulate the learner',
    config: {
      type: 'email',
      to: { kind: 'learner' },
      subject: 'Well done, {{learner.name}}',
      body: 'You completed {{course.title}}.',
      quietHours: { start: '21:00', end: '08:00', timeZone: 'Europe/Paris' },
    },
  });
  await createViaApi(account, page, {
    name: 'Tell the team',
    config: { type: 'notify_team', message: '{{learner.name}} completed {{course.title}}' },
  });
  await signInAs(page, account.token);

  const screens: [string, string][] = [
    ['actions-list', '/actions'],
    ['action-create', '/actions/create'],
    ['action-edit', `/actions/edit/${webhook.id}`],
    ['action-edit-email', `/actions/edit/${email.id}`],
  ];
  for (const [name, path] of screens) {
    for (const { width, height } of [
      { width: 375, height: 812 },
      { width: 1440, height: 900 },
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (name === 'actions-list')
          await expect(page.getByRole('link', { name: 'Tell the team', exact: true })).toBeVisible();
        if (name === 'action-edit') {
          await page.getByRole('button', { name: 'Send test' }).click();
          await expect(page.getByTestId('action-test-result').getByText('200 OK')).toBeVisible();
        }
        if (name === 'action-edit-email') {
          // The end-to-end server has no SMTP server: the test says so, and shows the e-mail it would send.
          await page.getByRole('button', { name: 'Send test' }).click();
          await expect(page.getByTestId('action-test-result').getByRole('alert')).toContainText('SMTP_URL');
        }
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        // Names what sticks out (an element, or the text inside one), so a failure says where to look.
        const outside = await page.evaluate((limit) => {
          const found: string[] = [];
          const walker = document.createTreeWalker(
            document.body,
            NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
          );
          for (let node = walker.nextNode(); node && found.length < 5; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const right =
              node instanceof Element
                ? node.getBoundingClientRect().right
                : range.getBoundingClientRect().right;
            if (right > limit + 0.5) {
              const element = node instanceof Element ? node : node.parentElement;
              found.push(
                `${element?.tagName.toLowerCase()}.${String(element?.className)} ${node.textContent?.slice(0, 40) ?? ''}`.slice(
                  0,
                  160,
                ),
              );
            }
          }
          return found;
        }, width);
        expect(
          scrollWidth,
          `${name} at ${width} px sticks out sideways: ${outside.join(' | ')}`,
        ).toBeLessThanOrEqual(width);
        if (width === 1440) {
          await page.mouse.move(0, 0);
          expect(await seriousViolations(page), `${name} in ${colorScheme}`).toEqual([]);
        }
        await page.screenshot({
          path: join(shotsDir, `${name}-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    }
  }
});
