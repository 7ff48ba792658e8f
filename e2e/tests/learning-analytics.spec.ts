import { signInAs } from '../support/accounts';
import { screenshotsIn } from '../support/screenshots';
import { createApiKeyViaApi } from '../support/course-page';
import { SAFETY, signUpWithLearningData, type LearningData } from '../support/learning-data';
import { expect, test } from '../support/test';

/**
 * Learning analytics as an owner uses them, on an organization of its own
 * with thirty learners' runs, answers and completions sent through the
 * ingestion API: the settings decide what counts (a test account left out,
 * the clock), and each screen shows it. Screenshots at 375 and 1440 px,
 * light and dark.
 */

const shoot = screenshotsIn('analytics');

let data: LearningData;

/** Slide views of twelve learners in the safety course: eight finish all five slides, four leave after slide 3. */
function slideViews() {
  const now = Date.now();
  return Array.from({ length: 12 }, (_, i) => {
    const learner = { email: `paths.${i}@example.com`, name: `Path Learner ${i}` };
    const course = { externalCourseId: SAFETY.externalCourseId, title: SAFETY.title };
    const run = `paths-${i}`;
    const slides = i < 8 ? [1, 2, 3, 4, 5] : [1, 2, 3];
    const at = (step: number) => new Date(now - 3 * 86_400_000 + i * 3_600_000 + step * 60_000).toISOString();
    return [
      { id: `${run}-start`, type: 'course.started', course, learner, run, timestamp: at(0) },
      ...slides.map((number, step) => ({
        id: `${run}-slide-${number}`,
        type: 'slide.viewed',
        course,
        learner,
        run,
        timestamp: at(step + 1),
        slide: { number, title: `Slide ${number}` },
      })),
    ];
  }).flat();
}

test.beforeAll(async ({ request }, testInfo) => {
  testInfo.setTimeout(90_000);
  data = await signUpWithLearningData(request);
  const key = await createApiKeyViaApi(request, data.account.token, 'Slides');
  const events = slideViews();
  const response = await request.post('/api/v1/events', {
    data: { events },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status(), await response.text()).toBe(200);
});

test.describe('analytics settings', () => {
  test('an owner leaves a test account out and picks the clock; every screen says so', async ({ page }) => {
    await signInAs(page, data.account.token);
    await page.goto('/analytics/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Analytics settings' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Analytics sections' })).toBeVisible();
    await expect(page.getByTestId('excluded-count')).toHaveText('No learner is left out now (42 learners).');

    // A mistyped address is named on its field and nothing is saved.
    const addresses = page.getByLabel('E-mail addresses');
    await addresses.fill('ann.archer@example.com\nnot-an-address');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(
      page.getByText('Enter e-mail addresses such as test.user@example.com (“not-an-address”)'),
    ).toBeVisible();

    await addresses.fill('ann.archer@example.com');
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Europe/Ber');
    await page.getByRole('option', { name: 'Europe/Berlin' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Analytics settings saved')).toBeVisible();
    await expect(page.getByTestId('excluded-count')).toHaveText('1 of 42 learners are left out now.');
    await shoot(page, 'settings');

    // The dashboard counts on the same terms, and says so.
    await page.goto('/dashboard');
    await expect(page.getByTestId('analytics-basis')).toContainText('Times in Europe/Berlin');
    await expect(page.getByTestId('analytics-basis')).toContainText('1 test account left out');
  });
});

test.describe('analytics screens', () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, data.account.token);
  });

  test('the overview shows the period’s figures and links to each section', async ({ page }) => {
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Runs started' })).toBeVisible();
    await expect(page.getByTestId('analytics-basis').first()).toContainText('Times in');
    await shoot(page, 'overview');
  });

  test('question analysis shows the quiz statistics and each question’s facility', async ({
    page,
    request,
  }) => {
    const courseId = data.courseIds[SAFETY.externalCourseId] ?? '';
    const api = await request.get(`/api/analytics/questions?courseId=${courseId}`, {
      headers: data.headers,
    });
    expect(api.status()).toBe(200);
    const analysis = (await api.json()) as { quiz: { attempts: number }; questions: unknown[] };
    expect(analysis.quiz.attempts).toBeGreaterThan(20);

    await page.goto(`/analytics/questions?courseId=${courseId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Question analysis' })).toBeVisible();
    await expect(page.getByText('Cronbach’s alpha').first()).toBeVisible();
    await expect(page.getByRole('table').first()).toBeVisible();
    await expect(page.getByRole('table').first().getByRole('row')).toHaveCount(analysis.questions.length + 1);
    await shoot(page, 'questions');
  });

  test('a funnel from the suggestion shows each step’s conversion and can be saved', async ({ page }) => {
    const computed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/analytics/funnels/compute') && response.request().method() === 'POST',
    );
    await page.goto('/analytics/funnels');
    await expect(page.getByRole('heading', { level: 1, name: 'Funnels' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Result' })).toBeVisible();
    await expect(page.getByLabel('Step 1 event')).toHaveValue('course_started');

    // Each step shows the learners the server counted, and the later ones their conversion.
    const result = (await (await computed).json()) as {
      entered: number;
      steps: { index: number; count: number }[];
    };
    expect(result.entered).toBeGreaterThan(0);
    for (const step of result.steps) {
      await expect(page.getByTestId(`funnel-step-${step.index}`)).toContainText(
        `${step.count} ${step.count === 1 ? 'learner' : 'learners'}`,
      );
    }
    await expect(page.getByTestId('funnel-step-1')).toContainText('Of previous step');
    await shoot(page, 'funnels');

    await page.getByRole('button', { name: 'Save funnel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save funnel' });
    await dialog.getByLabel('Name').fill('Safety: start to completion');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Funnel saved')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Saved funnels' })).toContainText(
      'Safety: start to completion',
    );
  });

  test('heatmaps colour each question by its correct rate, with a table view', async ({ page }) => {
    const courseId = data.courseIds[SAFETY.externalCourseId] ?? '';
    await page.goto(`/analytics/heatmaps?course=${courseId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Heatmaps' })).toBeVisible();
    const toggle = page.getByRole('button', { name: 'Show as table' }).first();
    await expect(toggle).toBeVisible();
    await shoot(page, 'heatmaps');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Show as grid' }).first()).toBeVisible();
  });

  test('learning paths show where learners of a course go and where they leave', async ({ page }) => {
    const courseId = data.courseIds[SAFETY.externalCourseId] ?? '';
    await page.goto(`/analytics/learning-paths?course=${courseId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Learning paths' })).toBeVisible();
    await expect(page.getByText('Top paths').first()).toBeVisible();
    await expect(page.getByText('Where learners exit').first()).toBeVisible();
    await shoot(page, 'learning-paths');

    // On a phone the cards side by side on a desktop stack, and nothing sticks out sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await expect(page.getByText('Top course sequences').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test('insights are computed on demand and can be dismissed', async ({ page }) => {
    await page.goto('/analytics/insights');
    await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByText(/Checked|Last checked|checked/i).first()).toBeVisible();
    await shoot(page, 'insights');
  });
});
