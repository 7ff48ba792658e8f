import type { Page } from '@playwright/test';

import {
  SESSION_TOKEN_KEY,
  createOrganizationViaApi,
  getMe,
  signInAs,
  signUpViaApi,
} from '../support/accounts';
import { expect, test } from '../support/test';

const NOT_FOUND_TEXT = "The page you're looking for doesn't exist or has been moved.";
const SIGNED_IN_LABELS = [
  'Dashboard',
  'Courses',
  'Learners',
  'Custom AI Agents',
  'Pipelines',
  'Variables',
  'Questions',
  'Reports',
  'Analytics',
  'Activity',
  'Settings',
  'Billing',
  'Help',
];

const navbar = (page: Page) => page.getByRole('banner');
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

test.describe('route guard and redirects', () => {
  test('signed-out visitor on an auth route goes to /login and comes back after signing in', async ({
    page,
    request,
  }) => {
    await page.goto('/courses?sort=name');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcourses%3Fsort%3Dname$/);

    // Signing in stores the token (the identity screens call lib/auth signIn);
    // the login route then sends the user back where the guard found them.
    const { token } = await signUpViaApi(request);
    await page.evaluate(
      ([key, value]) => window.localStorage.setItem(key!, value!),
      [SESSION_TOKEN_KEY, token],
    );
    await page.reload();

    await expect(page).toHaveURL(/\/courses\?sort=name$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
  });

  for (const path of ['/dashboard', '/analytics/funnels', '/organization/settings', '/learner/l1/courses']) {
    test(`signed-out visitor on ${path} is sent to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path)}$`));
    });
  }

  test('signed-in user on / goes to /dashboard and sends the bearer token and organization', async ({
    page,
    request,
  }) => {
    const account = await signUpViaApi(request);
    // A newer, non-primary organization must not become the current one.
    await createOrganizationViaApi(request, account.token, `Globex Academy ${account.user.id}`);
    await signInAs(page, account.token);
    const meRequest = page.waitForRequest(
      (sent) => new URL(sent.url()).pathname === '/api/me' && sent.method() === 'GET',
    );
    await page.goto('/');
    expect((await meRequest).headers().authorization).toBe(`Bearer ${account.token}`);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // Current organization: the primary one.
    await expect(sidebar(page).getByTestId('organization-name')).toHaveText(account.organization.name);
  });
});

test.describe('start-up failures', () => {
  // Chromium logs the failed request itself as a console error; the app adds none.
  test.use({ allowPageErrors: true });

  test('a failing session request at start-up is ignored silently', async ({ page }) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript((key) => window.localStorage.setItem(key, 'broken'), SESSION_TOKEN_KEY);
    await page.route('**/api/me', (route) => route.abort());
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1, name: /Simple plans/ })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    expect(pageErrors).toEqual([]);
  });
});

test.describe('screens of later capabilities', () => {
  test('every navigation scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto('/features');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('layout rules', () => {
  for (const path of ['/', '/features', '/pricing', '/solutions']) {
    test(`${path} has the top navbar and no sidebar`, async ({ page }) => {
      await page.goto(path);
      await expect(navbar(page)).toBeVisible();
      await expect(page.locator('[data-layout="marketing"]')).toBeVisible();
      await expect(sidebar(page)).toHaveCount(0);
    });
  }

  for (const path of ['/blog', '/blog/send-storyline-variables-to-courselens', '/login', '/no-such-page']) {
    test(`${path} has the sidebar and no top navbar`, async ({ page }) => {
      await page.goto(path);
      await expect(sidebar(page)).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    });
  }

  for (const path of [
    '/shared/course/c1/variable/score/report',
    '/shared/chatbot/mood/chart',
    '/shared/questions/q1/leaders',
    '/public-reports/abc123',
  ]) {
    test(`shared view ${path} has neither navbar nor sidebar`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[data-layout="shared"]')).toBeVisible();
      await expect(navbar(page)).toHaveCount(0);
      await expect(sidebar(page)).toHaveCount(0);
    });
  }

  for (const path of ['/course/c1/variable/score/leaders', '/questions/q1/chart']) {
    test(`signed-in report ${path} is a shared view too`, async ({ page, request }) => {
      await signInAs(page, (await signUpViaApi(request)).token);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[data-layout="shared"]')).toBeVisible();
      await expect(sidebar(page)).toHaveCount(0);
    });
  }
});

test.describe('layout rules of pages about something that does not exist', () => {
  // The agent and its variable are unknown: Chromium logs the 404 the page then explains.
  test.use({ allowPageErrors: true });

  test('a signed-in agent variable report is a shared view too', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.goto('/chatbot/mood/report');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('[data-layout="shared"]')).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
  });

  test('a chat page has no sidebar', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.goto('/chat/00000000-0000-4000-8000-000000000000');
    await expect(
      page.getByRole('heading', { level: 1, name: 'This assistant does not exist' }),
    ).toBeVisible();
    await expect(page.locator('[data-layout="chat"]')).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
    await expect(navbar(page)).toHaveCount(0);
  });
});

test.describe('layout rules in a frame', () => {
  for (const path of ['/pricing', '/dashboard']) {
    test(`${path} embedded in a frame has neither navbar nor sidebar`, async ({ page, request }) => {
      await signInAs(page, (await signUpViaApi(request)).token);
      await page.route('**/e2e-frame-host.html', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>host</title><iframe src="${path}" width="1200" height="800"></iframe>`,
        }),
      );
      await page.goto('/e2e-frame-host.html');
      const frame = page.frameLocator('iframe');
      await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(frame.locator('[data-layout="embedded"]')).toBeVisible();
      await expect(frame.getByRole('banner')).toHaveCount(0);
      await expect(frame.getByRole('complementary')).toHaveCount(0);
    });
  }

  test('visitor navigation lists the spec links', async ({ page }) => {
    await page.goto('/blog');
    await expect(sidebar(page).getByRole('link', { name: 'Sign up' })).toBeVisible();
    const links = sidebar(page).getByRole('link');
    const hrefs = await links.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('href')),
    );
    for (const href of ['/', '/features', '/solutions', '/pricing', '/blog', '/docs/', '/login', '/signup']) {
      expect(hrefs).toContain(href);
    }
  });
});

test.describe('sidebar', () => {
  test('shows the organization, the user, the spec navigation, theme toggle and Sign Out', async ({
    page,
    request,
  }) => {
    const account = await signUpViaApi(request, { name: 'Ada Lovelace' });
    await signInAs(page, account.token);
    await page.goto('/dashboard');
    const aside = sidebar(page);
    await expect(aside.getByTestId('organization-name')).toHaveText(account.organization.name);
    await expect(aside.getByTestId('user-initial')).toHaveText('A');
    await expect(aside.getByTestId('user-name')).toHaveText('Ada Lovelace');
    const nav = aside.getByRole('navigation', { name: 'Primary' });
    await expect(nav.getByRole('link')).toHaveText(SIGNED_IN_LABELS);
    const hrefs = await nav
      .getByRole('link')
      .evaluateAll((elements) => elements.map((e) => e.getAttribute('href')));
    expect(hrefs).toEqual([
      '/dashboard',
      '/courses',
      '/learners',
      '/chatbots',
      '/pipelines',
      '/variables',
      '/questions',
      '/custom-reports',
      '/analytics',
      '/activity',
      '/organization/settings',
      '/billing',
      '/docs/',
    ]);
    await expect(aside.getByRole('link', { name: /Ada Lovelace/ })).toHaveAttribute(
      'href',
      '/profile/update',
    );
    await expect(aside.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeVisible();
    // One organization: no switcher.
    await expect(aside.getByRole('button', { name: /Switch organization/ })).toHaveCount(0);
    await expect(aside.getByRole('button', { name: account.organization.name })).toHaveCount(0);

    await aside.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The server ended the session: the old token no longer works.
    await expect.poll(async () => (await getMe(request, account.token)).status()).toBe(401);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_TOKEN_KEY)).toBeNull();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  });

  test('collapses to w-20 and remembers it under sidebarCollapsed', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/dashboard');
    const aside = sidebar(page);
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(256);

    await aside.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(80);
    expect(await page.evaluate(() => window.localStorage.getItem('sidebarCollapsed'))).toBe('true');
    // Labels stay available to assistive technology and as tooltips.
    await expect(aside.getByRole('link', { name: 'Courses' })).toHaveAttribute('title', 'Courses');

    await page.reload();
    await expect.poll(async () => (await sidebar(page).boundingBox())?.width).toBe(80);
    await sidebar(page).getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(async () => (await sidebar(page).boundingBox())?.width).toBe(256);
    expect(await page.evaluate(() => window.localStorage.getItem('sidebarCollapsed'))).toBe('false');
  });

  test('auto-collapses under 768 px and a button reopens it', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.setViewportSize({ width: 767, height: 900 });
    await page.goto('/dashboard');
    const aside = sidebar(page);
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(80);

    await aside.getByRole('button', { name: 'Open sidebar' }).click();
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(256);
    // Opening on a small screen does not change the stored preference.
    expect(await page.evaluate(() => window.localStorage.getItem('sidebarCollapsed'))).toBeNull();

    await aside.getByRole('link', { name: 'Courses' }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(80);

    await page.setViewportSize({ width: 768, height: 900 });
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(256);
  });

  test('organization switcher lists roles and Primary, selects and marks primary', async ({
    page,
    request,
  }) => {
    const account = await signUpViaApi(request);
    const primary = account.organization;
    const other = await createOrganizationViaApi(request, account.token, `Globex Academy ${account.user.id}`);
    await signInAs(page, account.token);
    await page.goto('/dashboard');
    const aside = sidebar(page);
    await aside.getByRole('button', { name: primary.name }).click();
    const list = page.getByRole('list', { name: 'Your organizations' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').nth(0)).toContainText(primary.name);
    await expect(list.getByRole('listitem').nth(0)).toContainText('Primary');
    await expect(list.getByRole('listitem').nth(0)).toContainText('Owner');
    // The creator of an organization is its owner (a team-member role needs an invitation).
    await expect(list.getByRole('listitem').nth(1)).toContainText(other.name);
    await expect(list.getByRole('listitem').nth(1)).toContainText('Owner');
    await expect(list.getByRole('listitem').nth(1)).not.toContainText('Primary');

    await list.getByRole('button', { name: `${other.name} Owner` }).click();
    await expect(aside.getByTestId('organization-name')).toHaveText(other.name);
    // A pick holds for this tab only (sessionStorage), never for every tab and visit.
    expect(await page.evaluate(() => window.sessionStorage.getItem('courselens.currentOrganizationId'))).toBe(
      other.id,
    );
    expect(
      await page.evaluate(() => window.localStorage.getItem('courselens.currentOrganizationId')),
    ).toBeNull();

    await aside.getByRole('button', { name: other.name }).click();
    await page.getByRole('button', { name: `Make ${other.name} primary` }).click();
    await expect(page.getByText(`${other.name} is now your primary organization`)).toBeVisible();
    await expect(list.getByRole('listitem').filter({ hasText: other.name })).toContainText('Primary');
    // The server holds the change.
    const me = (await (await getMe(request, account.token)).json()) as {
      organizations: { id: string; isPrimary: boolean }[];
    };
    expect(me.organizations.find((organization) => organization.id === other.id)?.isPrimary).toBe(true);
    expect(me.organizations.find((organization) => organization.id === primary.id)?.isPrimary).toBe(false);

    // A click outside closes the list.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).click();
    await expect(list).toHaveCount(0);
  });
});

test.describe('top navbar', () => {
  test('below xl a menu lists the signed-in links and the theme toggle', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.setViewportSize({ width: 1279, height: 900 });
    await page.goto('/features');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu.getByRole('navigation', { name: 'Mobile' }).getByRole('link')).toHaveText(
      SIGNED_IN_LABELS,
    );
    await expect(menu.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeVisible();
    await menu.getByRole('link', { name: 'Learners' }).click();
    await expect(page).toHaveURL(/\/learners$/);
  });

  test('from xl up the links sit in the bar and there is no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/solutions');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
  });

  test('a visitor on a phone opens the menu with the visitor links', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const links = page.getByTestId('mobile-menu').getByRole('link');
    await expect(links).toHaveText([
      'Home',
      'Features',
      'Solutions',
      'Pricing',
      'Blog',
      'Docs',
      'Sign in',
      'Sign up',
    ]);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
  });
});

test.describe('404', () => {
  test('Go Home leads a signed-in user to /dashboard', async ({ page, request }) => {
    await signInAs(page, (await signUpViaApi(request)).token);
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an unknown report view is a 404, not a report', async ({ page }) => {
    await page.goto('/shared/questions/q1/nonsense');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  });
});

test.describe('against the real identity API', () => {
  test('demo owner signs in on /login and comes back to the page the guard stopped', async ({ page }) => {
    await page.goto('/learners');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Flearners$/);
    await page.getByLabel('Email').fill('demo@courselens.dev');
    await page.getByLabel('Password').fill('courselens-demo');
    await page.getByRole('button', { name: /Sign in/ }).click();
    await expect(page).toHaveURL(/\/learners$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Learners' })).toBeVisible();
    await expect(sidebar(page).getByTestId('user-name')).not.toBeEmpty();

    await sidebar(page).getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });
});
