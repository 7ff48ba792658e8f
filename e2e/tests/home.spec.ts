import AxeBuilder from '@axe-core/playwright';

import { HOME_TITLE, expect, test } from '../support/test';

test('visitor opens the home page and sees the system status', async ({ page }) => {
  await page.goto('/');

  await expect(page).toHaveTitle(/CourseLens/);
  await expect(page.getByRole('heading', { level: 1, name: HOME_TITLE })).toBeVisible();
  const status = page.getByRole('region', { name: 'System status' });
  await expect(status.getByText('Operational')).toBeVisible();
  // The server under test runs on the embedded engine.
  await expect(status.getByText('PGlite', { exact: true })).toBeVisible();
  await expect(status).toContainText(/v\d+\.\d+\.\d+/);
  await expect(page.getByRole('link', { name: /Start free/ })).toHaveAttribute('href', '/signup');
});

test('visitor follows the sign-up call to action to the sign-up form', async ({ page }) => {
  await page.goto('/');

  await page.getByRole('link', { name: /Start free/ }).click();

  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create your CourseLens account' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`home page has no serious accessibility violations in ${colorScheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'System status' }).getByText('Operational')).toBeVisible();
    await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);

    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));

    expect(serious).toEqual([]);
  });
}

test.describe('when the database is down', () => {
  // Chromium logs the 503 answers as console errors.
  test.use({ allowPageErrors: true });

  test('visitor sees that the system is unavailable and can check again', async ({ page }) => {
    let isDatabaseUp = false;
    await page.route('**/api/health', (route) =>
      isDatabaseUp
        ? route.continue()
        : route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":"error"}' }),
    );
    await page.goto('/');
    const status = page.getByRole('region', { name: 'System status' });

    // The app retries a 5xx twice with back-off before it says so.
    await expect(status.getByText('Unavailable')).toBeVisible({ timeout: 15_000 });
    await expect(status.getByText(/database is not answering/)).toBeVisible();

    isDatabaseUp = true;
    await status.getByRole('button', { name: 'Try again' }).click();

    await expect(status.getByText('Operational')).toBeVisible();
    await expect(status.getByText('PGlite', { exact: true })).toBeVisible();
  });
});
