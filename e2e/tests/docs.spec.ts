import { expect, test } from '../support/test';

test('visitor opens /docs/ and reads the guides and the API reference under the strict CSP', async ({
  page,
}) => {
  // support/test fails the test on any console error, CSP violations included.
  await page.goto('/docs/');
  await expect(page.getByRole('heading', { name: 'Getting started' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connecting a course' })).toBeVisible();
  await expect(page.getByText('/api/signup').first()).toBeVisible();
  await expect(page.getByText('/api/session').first()).toBeVisible();
});

test('the OpenAPI document lists the API routes', async ({ request }) => {
  const response = await request.get('/docs/json');
  expect(response.ok()).toBe(true);
  const document = (await response.json()) as { paths: Record<string, unknown> };
  expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me']));
});
