import AxeBuilder from '@axe-core/playwright';

import { signInAs, signUpViaApi } from '../support/accounts';
import { screenshotsIn } from '../support/screenshots';
import { expect, test } from '../support/test';

const shoot = screenshotsIn('xapi-connect');

test('an owner creates an API key, copies its LRS key and secret, and finds them under "Connect an authoring tool"', async ({
  page,
  context,
  request,
}) => {
  // Two accessibility scans and the wait for the copy confirmations to go
  // take longer than one page's default on a busy machine.
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await signUpViaApi(request);
  await signInAs(page, owner.token);
  await page.goto('/organization/settings?tab=api-keys');
  const card = page.getByRole('region', { name: 'Connect an authoring tool' });
  await expect(card.getByText('No active API key')).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByRole('dialog', { name: 'Create an API key' }).getByLabel('Name').fill('Storyline course');
  await page.getByRole('button', { name: 'Create key' }).click();

  const created = page.getByRole('dialog', { name: 'Copy your API key' });
  const secret = await created.getByLabel('Secret of “Storyline course”').inputValue();
  const listed = await request.get('/api/api-keys', { headers: { authorization: `Bearer ${owner.token}` } });
  const { apiKeys } = (await listed.json()) as { apiKeys: { id: string; name: string }[] };
  const keyId = apiKeys.find((apiKey) => apiKey.name === 'Storyline course')?.id;
  expect(keyId, 'the new key is listed').toBeDefined();
  await expect(created.getByRole('textbox', { name: 'LRS key', exact: true })).toHaveText(keyId!);
  await expect(created.getByRole('textbox', { name: 'LRS secret', exact: true })).toHaveText(secret);
  await created.getByRole('button', { name: 'Copy LRS secret' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shoot(page, 'api-key-created');
  await created.getByRole('button', { name: 'I have stored it' }).click();
  await expect(created).toHaveCount(0);

  const endpoint = card.getByRole('textbox', { name: 'LRS endpoint', exact: true });
  await expect(endpoint).toHaveText(new URL('/xapi/', page.url()).href);
  await expect(endpoint).toHaveText(/\/xapi\/$/);
  await expect(card.getByRole('textbox', { name: 'LRS key', exact: true })).toHaveText(keyId!);
  await expect(card.getByLabel('API key', { exact: true })).toHaveValue(keyId!);
  // The secret is never shown again, only where to find it.
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(card.getByRole('textbox', { name: 'LRS secret', exact: true })).toHaveValue('');

  await card.getByRole('button', { name: 'Copy LRS key' }).click();
  await expect(page.getByText('LRS key copied to the clipboard')).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(keyId);
  await card.getByRole('button', { name: 'Copy connection settings' }).click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toContain(`index_lms.html?endpoint=${encodeURIComponent(new URL('/xapi/', page.url()).href)}&auth=`);

  await card.getByText('What CourseLens records').click();
  await expect(card.getByText(/every statement is also kept whole/)).toBeVisible();

  // The tab as read once the copy confirmations have gone: a toast caught in
  // its exit animation is half transparent, and its contrast measured then
  // is not what anyone reads (the toasts have their own spec).
  await page.mouse.move(0, 0);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 10_000 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(
          (violation) =>
            `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      `the API keys tab in ${colorScheme}`,
    ).toEqual([]);
  }

  // Long values wrap inside their fields: nothing sticks out on a phone.
  // The page is measured once the shell has settled on its narrow sidebar:
  // the resize reaches React through a media query a frame later.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: 'the page fits 375 px once laid out',
    })
    .toBeLessThanOrEqual(375);
  await shoot(page, 'api-keys-one-key');
});
