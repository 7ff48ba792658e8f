import { test as base, expect } from '@playwright/test';

/**
 * The Playwright `test` with one addition: a page that logs a console error
 * or throws (a CSP violation, a failed chunk, a React error) fails the test.
 */
export const test = base.extend<{ allowPageErrors: boolean; failOnPageErrors: void }>({
  /** Set with `test.use({ allowPageErrors: true })` where errors are the point of the test. */
  allowPageErrors: [false, { option: true }],
  failOnPageErrors: [
    async ({ page, allowPageErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      await use();
      if (allowPageErrors) return;
      expect(errors, 'errors logged by the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const HOME_TITLE = 'Turn every course run into insight';
