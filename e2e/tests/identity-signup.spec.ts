import { expect, test } from '../support/test';

const password = 'correct horse battery';

function uniqueEmail(): string {
  return `ada.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

test('a visitor signs up, sees the first steps, and signs in again on another device', async ({ page }) => {
  const email = uniqueEmail();
  await page.goto('/signup');

  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Organization name').fill(`Analytical Engines ${Date.now()}`);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/signup-success$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to CourseLens, Ada!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an API key' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Invite the team' })).toBeVisible();

  // Another device: no stored session.
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
});

test('sign-up shows the subdomain rules inline before anything is sent', async ({ page }) => {
  await page.goto('/signup');
  let signupRequests = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/signup')) signupRequests += 1;
  });

  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Work email').fill(uniqueEmail());
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Organization name').fill('Analytical Engines');
  await expect(page.getByText('Leave empty to use “analytical-engines”')).toBeVisible();
  await page.getByLabel('Subdomain').fill('admin');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText('This subdomain is reserved and cannot be used')).toBeVisible();
  await expect(page.getByLabel('Subdomain')).toHaveAttribute('aria-invalid', 'true');
  expect(signupRequests).toBe(0);
});
