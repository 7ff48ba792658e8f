import AxeBuilder from '@axe-core/playwright';

import { HOME_TITLE, expect, test } from '../support/test';

test('visitor opens the home page and sees nothing of how the server runs', async ({ page }) => {
  await page.goto('/');

  await expect(page).toHaveTitle(/CourseLens/);
  await expect(page.getByRole('heading', { level: 1, name: HOME_TITLE })).toBeVisible();
  await expect(page.getByRole('link', { name: /Start free/ })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('list', { name: 'Highlights' })).toBeVisible();
  // No database engine, version or health panel for visitors.
  await expect(page.getByRole('region', { name: 'System status' })).toHaveCount(0);
  await expect(page.getByText(/PGlite|PostgreSQL|embedded/)).toHaveCount(0);
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
    await expect(page.getByRole('heading', { level: 1, name: HOME_TITLE })).toBeVisible();
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
