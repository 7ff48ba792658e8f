import { randomUUID } from 'node:crypto';

import { signInAs, signUpViaApi, uniqueSuffix } from '../support/accounts';
import { startCourseSite, type CourseSite } from '../support/course-page';
import { expect, test } from '../support/test';

/**
 * A course published for xAPI, on another origin, reports to the LRS the
 * way Storyline does (statements with Basic auth and the version header,
 * across origins), and what it sent shows up in the product's screens.
 */
let site: CourseSite;

test.beforeAll(async ({ baseURL }) => {
  site = await startCourseSite(baseURL!);
});

test.afterAll(async () => {
  await site.close();
});

const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });

test('statements a Storyline course sends show up in the course, learner, question and variable screens', async ({
  page,
  request,
  baseURL,
}) => {
  const owner = await signUpViaApi(request);
  const created = await request.post('/api/api-keys', {
    data: { name: 'Storyline LRS', scope: 'ingest' },
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(created.status()).toBe(201);
  const key = (await created.json()) as { id: string; key: string };

  const suffix = uniqueSuffix();
  const courseId = `https://courses.example.com/fire-safety-${suffix}`;
  const courseTitle = `Fire safety ${suffix}`;
  const email = `sam.storyline.${suffix}@example.com`;
  const actor = { objectType: 'Agent', name: 'Sam Storyline', mbox: `mailto:${email}` };
  const course = {
    id: courseId,
    definition: { type: 'http://adlnet.gov/expapi/activities/course', name: { 'en-US': courseTitle } },
  };
  const context = { registration: randomUUID(), contextActivities: { grouping: [course] } };
  const statements = [
    { actor, verb: verb('attempted'), object: course, context },
    {
      actor,
      verb: verb('experienced'),
      object: { id: `${courseId}/scene1/slide1`, definition: { name: { 'en-US': 'Welcome' } } },
      context,
    },
    {
      actor,
      verb: verb('answered'),
      object: {
        id: `${courseId}/scene1/slide2/exit-question`,
        definition: {
          type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
          description: { 'en-US': 'Which exit is nearest to the kitchen?' },
          interactionType: 'choice',
          correctResponsesPattern: ['north'],
          choices: [
            { id: 'north', description: { 'en-US': 'North door' } },
            { id: 'south', description: { 'en-US': 'South door' } },
          ],
        },
      },
      result: { response: 'south', success: false, score: { raw: 0 } },
      context,
    },
    {
      actor,
      verb: verb('experienced'),
      object: { id: `${courseId}/scene1/results`, definition: { name: { 'en-US': 'Results' } } },
      result: { extensions: { 'https://courses.example.com/xapi/variables/department': 'Warehouse' } },
      context,
    },
    {
      actor,
      verb: verb('completed'),
      object: course,
      result: { completion: true },
      context,
    },
  ];

  // From the course's own origin, as a published course in a browser sends them.
  await page.goto(site.url);
  const answer = await page.evaluate(
    async ({ endpoint, auth, body }) => {
      const response = await fetch(`${endpoint}statements`, {
        method: 'POST',
        headers: {
          Authorization: auth,
          'X-Experience-API-Version': '1.0.3',
          'Content-Type': 'application/json',
        },
        body,
      });
      return {
        status: response.status,
        version: response.headers.get('X-Experience-API-Version'),
        ids: (await response.json()) as string[],
      };
    },
    {
      endpoint: `${baseURL}/xapi/`,
      auth: `Basic ${Buffer.from(`${key.id}:${key.key}`).toString('base64')}`,
      body: JSON.stringify(statements),
    },
  );
  expect(answer.status).toBe(200);
  expect(answer.version).toBe('1.0.3');
  expect(answer.ids).toHaveLength(statements.length);

  await signInAs(page, owner.token);

  await page.goto('/courses');
  await expect(page.getByRole('link', { name: courseTitle })).toBeVisible();

  await page.goto(`/learners?q=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: 'Sam Storyline' }).click();
  await expect(page.getByText(courseTitle).filter({ visible: true }).first()).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Learner sections' })
    .getByRole('link', { name: 'Responses' })
    .click();
  await expect(
    page.getByText('Which exit is nearest to the kitchen?').filter({ visible: true }).first(),
  ).toBeVisible();
  await expect(page.getByText('South door').filter({ visible: true }).first()).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Learner sections' })
    .getByRole('link', { name: 'Variables' })
    .click();
  await expect(page.getByText('department').filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByText('Warehouse').filter({ visible: true }).first()).toBeVisible();

  await page.goto('/questions');
  await expect(
    page.getByText('Which exit is nearest to the kitchen?').filter({ visible: true }).first(),
  ).toBeVisible();

  await page.goto('/variables');
  await expect(page.getByText('department').filter({ visible: true }).first()).toBeVisible();
});
