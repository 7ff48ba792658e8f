import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

import { SESSION_TOKEN_KEY, createOrganizationViaApi, signInAs, signUpViaApi } from '../support/accounts';
import { expect, test } from '../support/test';

const pages = [
  { path: '/', signedIn: false },
  { path: '/features', signedIn: false },
  { path: '/solutions', signedIn: false },
  { path: '/pricing', signedIn: false },
  { path: '/blog', signedIn: false },
  { path: '/blog/send-storyline-variables-to-courselens', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/shared/questions/q1/report', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/courses', signedIn: true },
] as const;

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

for (const colorScheme of ['light', 'dark'] as const) {
  test(`public pages, login, dashboard and a list page have no serious violations in ${colorScheme}`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    // Two organizations, so the sidebar shows the organization switcher too.
    const { token, user } = await signUpViaApi(request);
    await createOrganizationViaApi(request, token, `Globex Academy ${user.id}`);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    for (const { path, signedIn } of pages) {
      await page
        .evaluate(
          ([isSignedIn, key, value]) => {
            if (isSignedIn) window.localStorage.setItem(key, value);
            else window.localStorage.removeItem(key);
          },
          [signedIn, SESSION_TOKEN_KEY, token] as const,
        )
        .catch(() => {});
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      expect(await seriousViolations(page), `${path} in ${colorScheme}`).toEqual([]);
    }
  });
}

test('keyboard: the skip link is the first stop, visibly focused, and moves focus to the main content', async ({
  page,
  request,
}) => {
  await signInAs(page, (await signUpViaApi(request)).token);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // Sidebar links are reachable and show a focus outline.
  const courses = page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Courses' });
  await courses.focus();
  const outline = await courses.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/courses$/);
});

test('keyboard: the mobile menu opens, is navigable and closes with Escape', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/pricing');
  const button = page.getByRole('button', { name: 'Open menu' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('mobile-menu').getByRole('link', { name: 'Home' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the product documentation at /docs/ has no serious violations in ${colorScheme}`, async ({
    page,
  }) => {
    // Genuinely long: axe checks every node of the whole API reference (about
    // 12 s on a quiet machine, over 30 s when the 2 cores are busy).
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/docs/');
    await expect(page.getByRole('heading', { name: /Getting started/ })).toBeVisible();
    // The API reference is rendered by Swagger UI from the OpenAPI document: wait for its operations.
    await expect(page.locator('.opblock').first()).toBeVisible();
    expect(await seriousViolations(page), `/docs/ in ${colorScheme}`).toEqual([]);
  });
}
