import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';

import { signInAs, signUpViaApi, uniqueSuffix, type Account } from '../support/accounts';
import { screenshotsIn } from '../support/screenshots';
import { createApiKeyViaApi } from '../support/course-page';
import { expect, test } from '../support/test';

/**
 * Billing as an owner uses it on an installation without Stripe (the local
 * provider): a new organization starts on Free, the meters count what it
 * adds, the course cap refuses a fourth course with the server's words, and
 * an upgrade to Team takes effect at once. A team member is told that only
 * owners see billing. Screenshots at 375 and 1440 px, light and dark.
 */

const LOCAL_PROVIDER =
  'This installation uses the local billing provider: plan changes take effect at once and nothing is charged.';
const COURSE_CAP =
  'Course limit reached: the Free plan allows 3 courses. Delete a course or upgrade your plan on the Billing page to add another.';

const shoot = screenshotsIn('billing');

async function expectNoAxeViolations(page: Page, where: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      ),
      `${where} in ${colorScheme}`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Overview = {
  plan: { id: string; name: string };
  provider: string;
  meters: { metric: string; used: number; cap: number }[];
};

async function billingOverview(request: APIRequestContext, token: string): Promise<Overview> {
  const response = await request.get('/api/billing', { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Overview;
}

async function createCourseViaApi(request: APIRequestContext, token: string, title: string) {
  const response = await request.post('/api/courses', {
    headers: auth(token),
    data: {
      courseTitle: title,
      externalCourseId: `${title.toLowerCase().replaceAll(' ', '-')}-${uniqueSuffix()}`,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('an owner on the local provider', () => {
  // The refused fourth course answers 402, which Chromium logs as a console error; the test checks
  // that it is the only one.
  test.use({ allowPageErrors: true });

  test('a new organization is on Free, the meters count, and the fourth course is refused in the server’s words', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    const owner = await signUpViaApi(request);
    const initial = await billingOverview(request, owner.token);
    expect(initial.plan).toEqual({ id: 'free', name: 'Free' });
    expect(initial.provider).toBe('local');

    await signInAs(page, owner.token);
    await page.goto('/billing');
    await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
    await expect(page).toHaveTitle('Billing · CourseLens');
    await expect(page.getByTestId('current-plan-name')).toHaveText('Free');
    await expect(page.getByText(LOCAL_PROVIDER)).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Learners' })).toHaveAttribute(
      'aria-valuetext',
      '0 of 100 learners used (0 %)',
    );
    await expect(page.getByRole('progressbar', { name: 'Custom AI agents' })).toBeVisible();
    await expect(page.getByText('No invoices: the local provider does not charge.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);

    // Up to the cap through the API, as a script would.
    const courses = initial.meters.find((meter) => meter.metric === 'courses');
    expect(courses?.cap).toBe(3);
    for (let i = courses?.used ?? 0; i < 3; i += 1) {
      await createCourseViaApi(request, owner.token, `Course ${i + 1}`);
    }
    await page.reload();
    const courseMeter = page.getByRole('progressbar', { name: 'Courses' });
    await expect(courseMeter).toHaveAttribute('aria-valuetext', '3 of 3 courses used (100 %)');
    await expect(page.getByTestId('meter-courses')).toHaveAttribute('data-level', 'full');
    await expect(page.getByTestId('meter-courses').getByText('Limit reached')).toBeVisible();
    await expect(page.getByTestId('meter-courses').getByText('3 added in the last 30 days.')).toBeVisible();
    await shoot(page, 'billing-free');
    await expectNoAxeViolations(page, '/billing');

    // The fourth course, in the UI: the server's message.
    await page.goto('/courses');
    await page.getByRole('button', { name: 'New course' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a course' });
    await dialog.getByLabel('Title').fill('Course 4');
    await dialog.getByRole('button', { name: 'Create course' }).click();
    await expect(page.getByText(COURSE_CAP)).toBeVisible();
    await expect(dialog).toBeVisible();
    expect(
      (await billingOverview(request, owner.token)).meters.find((m) => m.metric === 'courses')?.used,
    ).toBe(3);

    expect(errors.filter((text) => !/status of 402/.test(text))).toEqual([]);
  });
});

test('the owner upgrades to Team on /subscribe and Billing shows Team with 25 courses at once', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await signUpViaApi(request);
  await signInAs(page, owner.token);

  await page.goto('/billing');
  await page.getByRole('link', { name: 'Change plan' }).click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a plan' })).toBeVisible();
  const free = page.getByTestId('plan-free');
  await expect(free.getByRole('button', { name: 'Current plan' })).toBeDisabled();
  const team = page.getByTestId('plan-team');
  await expect(team.getByText('$49', { exact: true })).toBeVisible();

  // Yearly: ten months for twelve.
  await page.getByRole('radio', { name: /Yearly/ }).check();
  await expect(team.getByText('$490', { exact: true })).toBeVisible();
  await expect(team.getByText('2 months free')).toBeVisible();
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await shoot(page, 'subscribe-free');
  await expectNoAxeViolations(page, '/subscribe');

  await team.getByRole('button', { name: 'Choose Team' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText('Your organization is now on the Team plan.')).toBeVisible();
  await expect(page.getByTestId('current-plan-name')).toHaveText('Team');
  await expect(page.getByRole('progressbar', { name: 'Courses' })).toHaveAttribute(
    'aria-valuetext',
    '0 of 25 courses used (0 %)',
  );
  await expect(page.getByRole('progressbar', { name: 'Learners' })).toHaveAttribute(
    'aria-valuetext',
    '0 of 2,500 learners used (0 %)',
  );
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  const overview = await billingOverview(request, owner.token);
  expect(overview.plan).toEqual({ id: 'team', name: 'Team' });
  expect(overview.meters.find((meter) => meter.metric === 'courses')?.cap).toBe(25);
  await shoot(page, 'billing-team');

  await page.goto('/subscribe');
  await expect(page.getByTestId('plan-team').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await expect(page.getByTestId('plan-free').getByRole('button', { name: 'Move to Free' })).toBeEnabled();
  await shoot(page, 'subscribe-team');
  await expectNoAxeViolations(page, '/subscribe on Team');

  // Cancelling with the local provider: back to Free at once, after a confirmation.
  await page.goto('/billing');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'End the Team plan?' });
  await expect(dialog).toContainText('Your organization moves to the Free plan at once');
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText('Your organization is now on the Free plan.')).toBeVisible();
  await expect(page.getByTestId('current-plan-name')).toHaveText('Free');
  await expect(page.getByRole('progressbar', { name: 'Courses' })).toHaveAttribute(
    'aria-valuetext',
    '0 of 3 courses used (0 %)',
  );
});

test('a team member sees that only owners can see billing, and nothing is refused', async ({
  page,
  request,
}) => {
  const owner: Account = await signUpViaApi(request, { name: 'Olive Owner' });
  const invited = await request.post('/api/invitations', {
    headers: auth(owner.token),
    data: { email: `mia.${uniqueSuffix()}@example.com` },
  });
  expect(invited.status(), await invited.text()).toBeLessThan(300);
  const { token: invitationToken } = (await invited.json()) as { token: string };
  const joined = await request.post(`/api/invitations/${invitationToken}/signup`, {
    data: { name: 'Mia Member', password: 'a sturdy passphrase' },
  });
  expect(joined.status(), await joined.text()).toBeLessThan(300);
  const member = (await joined.json()) as Account;

  // The server refuses a member, with the words the screen shows.
  const refused = await request.get('/api/billing', { headers: auth(member.token) });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toBe('Only owners can manage billing');

  await signInAs(page, member.token);
  await page.goto('/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByTestId('billing-owner-only')).toContainText('Only owners can manage billing');
  await expect(page.getByRole('link', { name: 'Change plan' })).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await shoot(page, 'billing-member');

  await page.goto('/subscribe');
  await expect(page.getByTestId('billing-owner-only')).toContainText('Only owners can manage billing');
  await expect(page.getByRole('button', { name: /Choose/ })).toHaveCount(0);
});

test('past the learner cap, every page shows the grace period and the owner goes to Billing from it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await signUpViaApi(request);
  const key = await createApiKeyViaApi(request, owner.token, 'Pilot course');
  // 101 learners start the pilot course: one more than Free holds, so the grace period begins.
  const now = Date.now();
  const events = Array.from({ length: 101 }, (_, i) => ({
    id: `grace-${i}`,
    type: 'course.started',
    course: { externalCourseId: 'pilot', title: 'Pilot course' },
    learner: { email: `learner.${i}@example.com`, name: `Learner ${i}` },
    run: `grace-run-${i}`,
    timestamp: new Date(now - 60_000 + i).toISOString(),
  }));
  const sent = await request.post('/api/v1/events', { data: { events }, headers: auth(key) });
  expect(sent.status(), await sent.text()).toBe(200);
  const status = await request.get('/api/billing/status', { headers: auth(owner.token) });
  const { banner } = (await status.json()) as { banner: { kind: string; message: string } | null };
  expect(banner?.kind).toBe('learner-grace');

  await signInAs(page, owner.token);
  await page.goto('/dashboard');
  const strip = page.getByTestId('billing-banner');
  await expect(strip).toHaveAttribute('role', 'status');
  await expect(strip).toContainText(banner?.message ?? 'a banner');
  await expect(
    page.getByRole('status').filter({ hasText: 'reached its limit of 100 learners' }),
  ).toBeVisible();
  await shoot(page, 'banner-dashboard');

  await strip.getByRole('link', { name: 'Go to Billing' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId('learner-grace')).toContainText('New learners are still stored until');
  await expect(page.getByRole('progressbar', { name: 'Learners' })).toHaveAttribute(
    'aria-valuetext',
    '101 of 100 learners used (101 %)',
  );
  // On Billing itself the banner stays, without a link to where the owner already is.
  await expect(page.getByTestId('billing-banner').getByRole('link')).toHaveCount(0);
  await shoot(page, 'billing-grace');
  await expectNoAxeViolations(page, '/billing in the learner grace period');
});
