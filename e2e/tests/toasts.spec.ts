import type { Page } from '@playwright/test';

import { uniqueSuffix } from '../support/accounts';
import { expect, test } from '../support/test';

// A wrong password is the simplest real action that raises a toast.
async function raiseToast(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(`nobody.${uniqueSuffix()}@example.com`);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const toastElement = page.locator('.Toastify__toast');
  await expect(toastElement).toBeVisible();
  await expect(toastElement).toContainText('Invalid email or password');
  return toastElement;
}

test.describe('toasts behave as the spec says', () => {
  // The browser logs the failed sign-in's 401 as a console error: expected here.
  test.use({ allowPageErrors: true });

  test('a toast closes after 3000 ms on its own, and at once on click', async ({ page }) => {
    const first = await raiseToast(page);
    await expect(first).toBeHidden({ timeout: 6_000 });

    const second = await raiseToast(page);
    await second.click();
    await expect(second).toBeHidden({ timeout: 1_500 });
  });

  test('hovering a toast pauses it', async ({ page }) => {
    const toastElement = await raiseToast(page);
    await toastElement.hover();
    await page.waitForTimeout(4_000);
    await expect(toastElement).toBeVisible();
    await page.mouse.move(0, 0);
    await expect(toastElement).toBeHidden({ timeout: 6_000 });
  });

  test('losing focus pauses a toast until the window has focus again', async ({ page }) => {
    const toastElement = await raiseToast(page);
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await page.waitForTimeout(4_000);
    await expect(toastElement).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(toastElement).toBeHidden({ timeout: 6_000 });
  });
});
