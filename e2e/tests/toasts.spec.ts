import type { Page } from '@playwright/test';

import { uniqueSuffix } from '../support/accounts';
import { expect, test } from '../support/test';

// A wrong password is the simplest real action that raises a toast.
async function raiseToast(page: Page, beforeSubmit?: () => Promise<void>) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(`nobody.${uniqueSuffix()}@example.com`);
  await page.getByLabel('Password').fill('not the password');
  await beforeSubmit?.();
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
    await expect(toastElement.getByRole('progressbar')).toHaveCSS('animation-play-state', 'paused');
    await page.waitForTimeout(4_000);
    await expect(toastElement).toBeVisible();
    await page.mouse.move(0, 0);
    await expect(toastElement).toBeHidden({ timeout: 6_000 });
  });

  test('a toast sits top-right with an icon, a progress bar and a close button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const toastElement = await raiseToast(page);
    const box = await toastElement.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeLessThan(100);
    expect(box!.x + box!.width).toBeGreaterThan(1280 - 100);
    await expect(toastElement.locator('.Toastify__toast-icon svg')).toBeVisible();
    await expect(toastElement.getByRole('progressbar')).toBeAttached();
    await toastElement.getByRole('button', { name: /close/i }).click();
    await expect(toastElement).toBeHidden({ timeout: 1_500 });
  });

  test('dragging a toast sideways dismisses it, a short drag puts it back', async ({ page }) => {
    const toastElement = await raiseToast(page);
    await toastElement.hover();
    const box = (await toastElement.boundingBox())!;
    const y = box.y + box.height / 2;
    // A drag shorter than react-toastify's threshold (80% of the width) snaps back.
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, y, { steps: 5 });
    await page.mouse.up();
    await expect(toastElement).toBeVisible();
    // A long one throws it away well before its 3000 ms are up.
    await toastElement.hover();
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 20 + box.width, y, { steps: 10 });
    // Mid-drag the toast follows the pointer (so it is a drag, not a click that closes it).
    await expect(toastElement).toHaveAttribute('style', /translate3d\((?!0px)/);
    await page.mouse.up();
    await expect(toastElement).toBeHidden({ timeout: 1_500 });
  });

  test('losing focus pauses a toast until the window has focus again', async ({ page }) => {
    // The window loses focus before the toast appears, so it starts paused
    // whatever time the busy machine takes between its showing and the test
    // looking at it (its 3000 ms could otherwise run out first).
    const toastElement = await raiseToast(page, () =>
      page.evaluate(() => {
        document.hasFocus = () => false;
        window.dispatchEvent(new Event('blur'));
      }),
    );
    await page.waitForTimeout(4_000);
    await expect(toastElement).toBeVisible();
    await page.evaluate(() => {
      document.hasFocus = () => true;
      window.dispatchEvent(new Event('focus'));
    });
    await expect(toastElement).toBeHidden({ timeout: 6_000 });
  });
});
