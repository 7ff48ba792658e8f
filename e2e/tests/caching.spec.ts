import { expect, test } from '../support/test';

test('static assets are served with long cache headers', async ({ page, request }) => {
  await page.goto('/');
  const scriptSrc = await page.locator('script[type="module"][src^="/assets/"]').first().getAttribute('src');
  const stylesheetHref = await page
    .locator('link[rel="stylesheet"][href^="/assets/"]')
    .first()
    .getAttribute('href');
  expect(scriptSrc).toMatch(/^\/assets\/.+-[\w-]{8,}\.js$/);
  expect(stylesheetHref).toMatch(/^\/assets\/.+-[\w-]{8,}\.css$/);

  for (const assetPath of [scriptSrc, stylesheetHref]) {
    const asset = await request.get(assetPath ?? '');
    expect(asset.status(), assetPath ?? '').toBe(200);
    const cacheControl = asset.headers()['cache-control'] ?? '';
    expect(cacheControl, assetPath ?? '').toContain('max-age=31536000');
    expect(cacheControl, assetPath ?? '').toContain('immutable');
  }

  // The HTML that names the hashed files must be revalidated on every load,
  // or a deploy would keep serving old file names.
  for (const htmlPath of ['/', '/index.html', '/some/deep/path']) {
    const html = await request.get(htmlPath);
    expect(html.status(), htmlPath).toBe(200);
    expect(html.headers()['cache-control'] ?? '', htmlPath).toContain('no-cache');
  }
});
