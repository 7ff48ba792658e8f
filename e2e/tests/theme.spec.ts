import { expect, test } from '../support/test';

test('theme follows the system preference until the visitor picks one', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveClass(/\bdark\b/);

  await page.getByRole('button', { name: 'Switch to light theme' }).click();

  await expect(html).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');

  // The choice survives a reload and wins over the (still dark) system setting,
  // applied by public/theme-init.js before the app starts.
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
});

test.describe('without the app bundle', () => {
  // The blocked script requests are logged as console errors, on purpose.
  test.use({ allowPageErrors: true });

  test('the stored theme is applied before the app renders', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    // Block the app bundle: only the before-paint script can set the class.
    await page.route('**/assets/*.js', (route) => route.abort());

    await page.goto('/', { waitUntil: 'domcontentloaded' });

    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
  });
});
