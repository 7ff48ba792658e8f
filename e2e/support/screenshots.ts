import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { artifactsDir } from './server-env';

/**
 * A screenshot taker for one screen family: `shoot(page, name)` saves the
 * full page at 1440 and 375 px, light and dark, as `<name>-<width>-<theme>.png`
 * under e2e/.artifacts/screenshots/<folder> (or E2E_SHOTS_DIR), then puts the
 * page back to 1440 px, light.
 */
export function screenshotsIn(folder: string): (page: Page, name: string) => Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR ?? join(artifactsDir, 'screenshots', folder);
  mkdirSync(dir, { recursive: true });
  return async (page, name) => {
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await page.screenshot({
          path: join(dir, `${name}-${width}-${colorScheme}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
  };
}
