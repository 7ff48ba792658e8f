import { HOME_TITLE, expect, test } from '../support/test';

const NOT_FOUND_TEXT = "The page you're looking for doesn't exist or has been moved.";

test('unknown path shows the 404 page and Go Home returns to /', async ({ page }) => {
  await page.goto('/no-such-page');

  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);

  await page.getByRole('link', { name: 'Go Home' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: HOME_TITLE })).toBeVisible();
});

test('deep link is served by the history fallback', async ({ page }) => {
  const response = await page.goto('/some/deep/path?with=query');

  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  // The app's assets resolved from a nested path: the page is styled and interactive.
  await expect(page.getByRole('link', { name: 'Go Home' })).toHaveCSS('border-radius', '8px');
});

test('an unknown API path answers a JSON 404, not the app', async ({ request }) => {
  const response = await request.get('/api/no-such-endpoint');

  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toMatch(/application\/json/);
  expect(await response.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
});
