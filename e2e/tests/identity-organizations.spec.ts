import type { APIRequestContext, Page } from '@playwright/test';

import { expect, test } from '../support/test';

const SESSION_TOKEN_KEY = 'courselens.sessionToken';

/** Signs up through the API and puts the session in the page's storage, as the app would. */
async function signUpViaApi(page: Page, request: APIRequestContext) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
  const response = await request.post('/api/signup', {
    data: {
      name: 'Grace Hopper',
      email: `grace.${stamp}@example.com`,
      password: 'correct horse battery',
      organizationName: `Compilers ${stamp}`,
    },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { token: string; organization: { name: string } };
  await page.addInitScript(
    ([key, token]) => window.localStorage.setItem(key!, token!),
    [SESSION_TOKEN_KEY, body.token],
  );
  return { stamp, organizationName: body.organization.name };
}

test('an owner creates a second organization, which becomes the current one, and renames it', async ({
  page,
  request,
}) => {
  const { stamp } = await signUpViaApi(page, request);
  await page.goto('/create-organization');

  await page.getByLabel('Organization name').fill(`Second School ${stamp}`);
  await expect(page.getByText(`Leave empty to use “second-school-${stamp}”`)).toBeVisible();
  await page.getByRole('button', { name: 'Create organization' }).click();

  await expect(page).toHaveURL(/\/organization\/settings$/);
  await expect(page.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Organization name')).toHaveValue(`Second School ${stamp}`);
  await expect(page.getByLabel('Subdomain')).toHaveValue(`second-school-${stamp}`);

  await page.getByLabel('Subdomain').fill('www');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('This subdomain is reserved and cannot be used')).toBeVisible();

  await page.getByLabel('Subdomain').fill(`second-${stamp}`);
  await page.getByLabel('Organization name').fill(`Second Academy ${stamp}`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Organization updated')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Organization name')).toHaveValue(`Second Academy ${stamp}`);
  await expect(page.getByLabel('Subdomain')).toHaveValue(`second-${stamp}`);
});

test('a person renames themself on the profile page', async ({ page, request }) => {
  await signUpViaApi(page, request);
  await page.goto('/profile/update');

  await expect(page.getByLabel('Name')).toHaveValue('Grace Hopper');
  await page.getByLabel('Name').fill('Grace Brewster Hopper');
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect(page.getByText('Profile updated')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue('Grace Brewster Hopper');
});

test('at 375 px a link to a settings tab opens with that tab scrolled into view', async ({
  page,
  request,
}) => {
  await signUpViaApi(page, request);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/organization/settings?tab=api-keys');
  const tab = page.getByRole('tab', { name: 'API keys' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  // (Its -1px bottom margin overlaps the row's border, hence not quite 1.)
  await expect(tab).toBeInViewport({ ratio: 0.95 });
  // And no sideways scroll of the page itself.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
