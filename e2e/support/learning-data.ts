import type { APIRequestContext } from '@playwright/test';

import { signUpViaApi, type Account, type SignUpOverrides } from './accounts';
import { createApiKeyViaApi } from './course-page';
import { expect } from './test';

/**
 * Learning data of an organization of the test's own, sent through the
 * public ingestion API (`POST /api/v1/events` with an ingest key), as a
 * course would. Specs that change learning data (a variable's flag, a
 * question's visibility, sharing, reports, summaries) use it instead of the
 * demo organization, which every spec may read at the same time.
 *
 * The shape follows the demo's so the screens look alike: two courses,
 * thirty learners over the last twenty days, number, boolean and text
 * variables, and graded questions with slide and question numbers. The
 * values are deterministic. Variables registered by ingestion have no title,
 * so screens show their names (`final_score`).
 */

export const SAFETY = {
  externalCourseId: 'workplace-safety-essentials',
  title: 'Workplace Safety Essentials',
};
export const ONBOARDING = { externalCourseId: 'new-hire-onboarding', title: 'New Hire Onboarding' };
export const EXTINGUISHER = 'Which type of fire extinguisher should be used on an electrical fire?';

type QuestionSpec = { interactionId: string; slide: number; number: number; text: string; choices: string[] };

/** The first choice is the correct one. */
const SAFETY_QUESTIONS: QuestionSpec[] = [
  {
    interactionId: 'safety-q1',
    slide: 3,
    number: 1,
    text: 'What is the first thing you should do when you discover a fire?',
    choices: ['Raise the alarm', 'Try to put it out', 'Collect your belongings'],
  },
  { interactionId: 'safety-q2', slide: 4, number: 2, text: EXTINGUISHER, choices: ['CO2', 'Water', 'Foam'] },
  {
    interactionId: 'safety-q3',
    slide: 6,
    number: 3,
    text: 'How often should you take a short break from screen work?',
    choices: ['Every hour, for 5 to 10 minutes', 'Every four hours', 'Only at lunch'],
  },
  {
    interactionId: 'safety-q4',
    slide: 7,
    number: 4,
    text: 'What does a yellow triangular sign indicate?',
    choices: ['A warning of a hazard', 'A mandatory action', 'A safe condition'],
  },
];

const ONBOARDING_QUESTIONS: QuestionSpec[] = [
  {
    interactionId: 'onboarding-q1',
    slide: 2,
    number: 1,
    text: 'Where do you find the staff handbook?',
    choices: ['On the intranet', 'In the car park', 'Nowhere'],
  },
  {
    interactionId: 'onboarding-q2',
    slide: 5,
    number: 2,
    text: 'Who approves your holiday requests?',
    choices: ['Your line manager', 'The receptionist', 'Nobody'],
  },
];

// prettier-ignore
const FIRST_NAMES = [
  'Ann', 'Ben', 'Cleo', 'Dev', 'Eva', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jade',
  'Kai', 'Lena', 'Milo', 'Nora', 'Omar', 'Pia', 'Quin', 'Rosa', 'Sami', 'Tara',
  'Uma', 'Vik', 'Wren', 'Xia', 'Yves', 'Zoe', 'Abel', 'Bea', 'Cyd', 'Dora',
];
const LAST_NAMES = ['Archer', 'Baker', 'Carter', 'Dalton', 'Ellis', 'Fisher'];
const DEPARTMENTS = ['Operations', 'Sales', 'Engineering', 'Finance', 'Customer Support'];

export type LearningData = {
  account: Account;
  /** `authorization` for the owner's session. */
  headers: Record<string, string>;
  /** Course ids by external id. */
  courseIds: Record<string, string>;
  learners: number;
};

type Event = Record<string, unknown> & { id: string; type: string };

function buildEvents(): { events: Event[]; values: number; answers: number } {
  const events: Event[] = [];
  let values = 0;
  let answers = 0;
  const now = Date.now();
  FIRST_NAMES.forEach((first, i) => {
    const last = LAST_NAMES[i % LAST_NAMES.length]!;
    const learner = { email: `${first}.${last}@example.com`.toLowerCase(), name: `${first} ${last}` };
    // One run a day over the last twenty days, in working hours.
    const startedAt = now - (1 + (i % 20)) * 86_400_000 - (i % 8) * 3_600_000;
    const run = (
      course: typeof SAFETY,
      questions: QuestionSpec[],
      variables: Record<string, string | number | boolean>,
      runIndex: number,
    ) => {
      const base = { course: { externalCourseId: course.externalCourseId, title: course.title }, learner };
      const runId = `${course.externalCourseId}-${i}`;
      let step = 0;
      const at = () => new Date(startedAt + runIndex * 3_600_000 + step * 60_000).toISOString();
      const push = (type: string, fields: Record<string, unknown> = {}) => {
        events.push({ ...base, run: runId, id: `${runId}-${step}`, type, timestamp: at(), ...fields });
        step += 1;
      };
      push('course.started');
      for (const [name, value] of Object.entries(variables)) {
        push('variable.set', { variable: { name, value } });
        values += 1;
      }
      questions.forEach((question, q) => {
        const isCorrect = (i * 7 + q * 3) % 10 < 7;
        push('question.answered', {
          question: {
            interactionId: question.interactionId,
            slideNumber: question.slide,
            questionNumber: question.number,
            text: question.text,
            answer: isCorrect ? question.choices[0] : question.choices[1 + ((i + q) % 2)],
            correct: isCorrect,
            correctAnswer: question.choices[0],
            points: isCorrect ? 10 : 0,
          },
        });
        answers += 1;
      });
      push('course.completed');
    };
    const score = 40 + ((i * 37) % 61);
    run(
      SAFETY,
      SAFETY_QUESTIONS,
      {
        final_score: score,
        passed_safety_check: score >= 70,
        department: DEPARTMENTS[i % DEPARTMENTS.length]!,
        time_spent_minutes: 10 + ((i * 13) % 50),
      },
      0,
    );
    if (i % 3 !== 2) {
      run(
        ONBOARDING,
        ONBOARDING_QUESTIONS,
        { final_score: 50 + ((i * 23) % 51), it_setup_complete: i % 4 !== 0 },
        1,
      );
    }
  });
  return { events, values, answers };
}

/**
 * Signs up a new owner (and organization) and gives it the learning data
 * above. Resolves once every list shows it: on PostgreSQL the rollups behind
 * the lists' counts are folded by a worker shortly after the events commit.
 */
export async function signUpWithLearningData(
  request: APIRequestContext,
  overrides: SignUpOverrides = {},
): Promise<LearningData> {
  const account = await signUpViaApi(request, overrides);
  const headers = { authorization: `Bearer ${account.token}` };
  const key = await createApiKeyViaApi(request, account.token, 'E2E course player');
  const { events, values, answers } = buildEvents();
  const response = await request.post('/api/v1/events', {
    data: { events },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(await response.json()).toEqual({ accepted: events.length, duplicates: 0, rejected: [] });

  const get = async <T>(path: string): Promise<T> => {
    const answer = await request.get(path, { headers });
    expect(answer.status(), await answer.text()).toBe(200);
    return (await answer.json()) as T;
  };
  await expect
    .poll(
      async () => {
        const questions = await get<{ totals: { totalResponses: number } }>('/api/questions?pageSize=100');
        const variables = await get<{ items: { usageCount: number }[] }>('/api/variables?pageSize=100');
        return {
          answers: questions.totals.totalResponses,
          values: variables.items.reduce((sum, variable) => sum + variable.usageCount, 0),
        };
      },
      { message: 'the lists count every ingested answer and value', timeout: 30_000 },
    )
    .toEqual({ answers, values });

  const courses = await get<{ items: { id: string; externalCourseId: string | null }[] }>(
    '/api/courses?pageSize=100',
  );
  const courseIds = Object.fromEntries(
    courses.items.flatMap((course) =>
      course.externalCourseId ? [[course.externalCourseId, course.id]] : [],
    ),
  );
  return { account, headers, courseIds, learners: FIRST_NAMES.length };
}
