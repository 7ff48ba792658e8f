import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { APIRequestContext } from '@playwright/test';

import { signInAs, signUpViaApi, type Account } from '../support/accounts';
import { artifactsDir } from '../support/server-env';
import { expect, test } from '../support/test';

const screenshotsDir = process.env.SHOTS_DIR ?? join(artifactsDir, 'screenshots');

/** An organization with known activity: a key created and revoked, and an invitation. */
async function organizationWithActivity(request: APIRequestContext): Promise<Account> {
  const account = await signUpViaApi(request, { name: 'Olive Owner' });
  const headers = { authorization: `Bearer ${account.token}` };
  const created = await request.post('/api/api-keys', { headers, data: { name: 'Course player' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await request.post(`/api/api-keys/${id}/revoke`, { headers })).status()).toBe(200);
  const invited = await request.post('/api/invitations', { headers, data: { email: 'ann@example.com' } });
  expect(invited.status(), await invited.text()).toBe(201);
  return account;
}

test.describe('activity', () => {
  test('the owner filters the feed by kind, person, text and days, and exports it', async ({
    page,
    request,
  }) => {
    const account = await organizationWithActivity(request);
    await signInAs(page, account.token);
    await page.goto('/activity');
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    const feed = page.getByRole('list', { name: 'Activity feed' });
    await expect(feed.getByRole('listitem')).toHaveCount(3);
    await expect(feed.getByRole('listitem').first()).toContainText('Member invited');
    await expect(feed.getByRole('listitem').first()).toContainText(`by Olive Owner (${account.user.email})`);

    const kinds = page.getByRole('group', { name: 'Kind of activity' });
    await kinds.getByRole('button', { name: 'API keys' }).click();
    await expect(page).toHaveURL(/kind=api_key\.created%2Capi_key\.revoked/);
    await expect(feed.getByRole('listitem')).toHaveCount(2);
    await expect(feed).toContainText('API key revoked');
    await expect(feed).toContainText('API key created');

    await page.getByRole('searchbox', { name: 'Search activity' }).fill('revoked');
    await expect(feed.getByRole('listitem')).toHaveCount(1);
    await expect(feed).toContainText('API key “Course player” revoked');

    await page.getByLabel('Who').selectOption({ label: 'System (API keys)' });
    await expect(page.getByText('No activity matches these filters')).toBeVisible();
    await page.getByLabel('Who').selectOption({ label: `Olive Owner (${account.user.email})` });
    await expect(feed.getByRole('listitem')).toHaveCount(1);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(tomorrow);
    await expect(page.getByText('No activity matches these filters')).toBeVisible();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(feed.getByRole('listitem')).toHaveCount(3);

    await kinds.getByRole('button', { name: 'Team' }).click();
    await expect(feed.getByRole('listitem')).toHaveCount(1);
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadPromise;
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Activity,Kind,Summary,Actor,Actor e-mail,Subject type,Subject id');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      'Member invited,member.invited,Olive Owner invited ann@example.com,Olive Owner',
    );
  });

  test.describe('with a refused request', () => {
    // The browser logs the 400 answer as a console error: that is the point here.
    test.use({ allowPageErrors: true });

    test('a bad date range in the URL shows the server’s message', async ({ page, request }) => {
      const account = await signUpViaApi(request);
      await signInAs(page, account.token);
      await page.goto('/activity?from=2026-03-05&to=2026-03-01');
      await expect(page.getByRole('alert')).toContainText('The start date must be on or before the end date');
    });
  });

  for (const width of [375, 1440] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`activity screenshots at ${width} px in ${colorScheme} mode`, async ({ page, request }) => {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        const account = await organizationWithActivity(request);
        await signInAs(page, account.token);
        await page.goto('/activity');
        await expect(page.getByRole('list', { name: 'Activity feed' }).getByRole('listitem')).toHaveCount(3);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: join(screenshotsDir, `activity-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      });
    }
  }
});
