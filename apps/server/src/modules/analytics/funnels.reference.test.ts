import type {
  FunnelComputeResult,
  FunnelDefinitionInput,
  FunnelOrder,
  IngestEventsResponse,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../db/seed/random';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

// Funnels computed by the API against a reference written here from the
// rules of the contract (analytics-funnels.ts), one learner at a time in
// plain TypeScript, over random learners' events: ties at one instant,
// repeats, steps out of order, events before the period and after the
// window. The SQL finds the same keys by joins and aggregates; any
// difference in a step's count or median time fails here.

let testApp: TestApp;
let owner: SignedUp;
let courseId: string;
const questionIds: Record<string, string> = {};

type Kind = 'started' | 'slide' | 'answered' | 'completed';
type Sent = { kind: Kind; at: number; slide?: number; question?: 'q1' | 'q2' };
type RefStep =
  | { kind: 'course_started' }
  | { kind: 'slide_viewed'; slideNumber: number }
  | { kind: 'question_answered'; question: 'q1' | 'q2' | null }
  | { kind: 'completed' };

const PERIOD = { from: '2026-04-01', to: '2026-04-30' };
const PERIOD_START = Date.parse('2026-04-01T00:00:00Z');
const PERIOD_END = Date.parse('2026-05-01T00:00:00Z');
const DAY = 86_400_000;

const learnerEvents = new Map<string, Sent[]>();

function generate(random: Random): void {
  for (let learner = 0; learner < 60; learner++) {
    const events: Sent[] = [];
    // Some learners start before the period, a few late in it (their later steps fall after its end).
    let at = PERIOD_START + random.int(-5, 32) * DAY + random.int(0, 86_399) * 1000;
    const count = random.int(1, 12);
    for (let index = 0; index < count; index++) {
      const kind = random.weighted<Kind>([
        ['started', 2],
        ['slide', 4],
        ['answered', 4],
        ['completed', 2],
      ]);
      const event: Sent = { kind, at };
      if (kind === 'slide') event.slide = random.int(1, 3);
      if (kind === 'answered') event.question = random.pick(['q1', 'q2'] as const);
      events.push(event);
      // The next event: often at the same instant, usually minutes later, sometimes days later.
      const gap = random.weighted<number>([
        [0, 2],
        [random.int(1, 900) * 1000, 6],
        [random.int(1, 20) * DAY, 1],
      ]);
      at += gap;
    }
    learnerEvents.set(`ref${learner}@example.com`, events);
  }
}

function payload(email: string, event: Sent, index: number) {
  const base = {
    id: `ref-${process.pid}-${email}-${index}`,
    timestamp: new Date(event.at).toISOString(),
    course: { externalCourseId: 'reference', title: 'Reference' },
    learner: { email },
  };
  switch (event.kind) {
    case 'started':
      return { ...base, type: 'course.started' };
    case 'completed':
      return { ...base, type: 'course.completed' };
    case 'slide':
      return { ...base, type: 'slide.viewed', slide: { number: event.slide } };
    case 'answered': {
      const slideNumber = event.question === 'q1' ? 2 : 3;
      return {
        ...base,
        type: 'question.answered',
        question: {
          interactionId: event.question,
          slideNumber,
          questionNumber: slideNumber - 1,
          text: `Question ${event.question}`,
          answer: 'A',
          correct: true,
        },
      };
    }
  }
}

function matches(step: RefStep, event: Sent): boolean {
  switch (step.kind) {
    case 'course_started':
      return event.kind === 'started';
    case 'completed':
      return event.kind === 'completed';
    case 'slide_viewed':
      return event.kind === 'slide' && event.slide === step.slideNumber;
    case 'question_answered':
      return event.kind === 'answered' && (step.question === null || event.question === step.question);
  }
}

/**
 * The instant (ms) each step was reached, or null, by the contract's rules,
 * for one learner. Events are ordered by time, then by the first step they
 * match; two at one instant matching the same first step count as one.
 */
function reachTimes(
  events: readonly Sent[],
  steps: readonly RefStep[],
  order: FunnelOrder,
  windowDays: number,
): (number | null)[] | null {
  const relevant = events
    .map((event) => {
      const mask = steps.map((step) => matches(step, event));
      return { at: event.at, mask, first: mask.indexOf(true) };
    })
    .filter((event) => event.first >= 0)
    .sort((a, b) => a.at - b.at || a.first - b.first);
  const inPeriod = (at: number) => at >= PERIOD_START && at < PERIOD_END;
  const none = steps.map(() => null as number | null);

  if (order === 'any') {
    const anchor = relevant.find((event) => inPeriod(event.at));
    if (!anchor) return null;
    const windowEnd = anchor.at + windowDays * DAY;
    const firsts = steps.map((_, index) => {
      const hit = relevant.find(
        (event) =>
          (event.at > anchor.at || (event.at === anchor.at && event.first >= anchor.first)) &&
          event.at <= windowEnd &&
          event.mask[index],
      );
      return hit ? { at: hit.at, first: hit.first } : null;
    });
    const done = firsts
      .filter((first): first is { at: number; first: number } => first !== null)
      .sort((a, b) => a.at - b.at || a.first - b.first);
    return none.map((_, k) => done[k]?.at ?? null);
  }

  const entry = relevant.findIndex((event) => event.mask[0] && inPeriod(event.at));
  if (entry < 0) return null;
  const reached = [...none];
  reached[0] = relevant[entry]!.at;
  const windowEnd = relevant[entry]!.at + windowDays * DAY;
  let position = entry;
  for (let step = 1; step < steps.length; step++) {
    // Events after the one that reached the previous step (not the same key: a later instant, or a later first step).
    const previous = relevant[position]!;
    const after = (event: (typeof relevant)[number]) =>
      event.at > previous.at || (event.at === previous.at && event.first > previous.first);
    let found = -1;
    for (let index = position + 1; index < relevant.length; index++) {
      const event = relevant[index]!;
      if (!after(event)) continue;
      if (order === 'sequential') {
        if (event.mask[step]) {
          found = index;
          break;
        }
      } else {
        // Strict: repeats of the previous step are skipped; any other funnel event must be this step.
        if (event.mask[step - 1] && !event.mask[step]) continue;
        // Events at this event's key that match this step count (one instant, one first step).
        const sameKey = relevant.filter((other) => other.at === event.at && other.first === event.first);
        if (sameKey.some((other) => other.mask[step])) found = index;
        break;
      }
    }
    if (found < 0 || relevant[found]!.at > windowEnd) break;
    reached[step] = relevant[found]!.at;
    position = found;
  }
  return reached;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
}

function expected(steps: readonly RefStep[], order: FunnelOrder, windowDays: number) {
  const reaches = [...learnerEvents.values()]
    .map((events) => reachTimes(events, steps, order, windowDays))
    .filter((reach): reach is (number | null)[] => reach !== null);
  return steps.map((_, index) => {
    const reachedHere = reaches.filter((reach) => reach[index] !== null);
    const spans = index === 0 ? [] : reachedHere.map((reach) => (reach[index]! - reach[index - 1]!) / 1000);
    return { count: reachedHere.length, medianSeconds: index === 0 ? null : median(spans) };
  });
}

function toApiStep(step: RefStep): FunnelDefinitionInput['steps'][number] {
  if (step.kind === 'question_answered') {
    return step.question
      ? { kind: 'question_answered', questionId: questionIds[step.question] }
      : { kind: 'question_answered' };
  }
  return step;
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  const key = await testApp.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  const ingestKey = key.json<{ key: string }>().key;
  generate(new Random(20_261_125));
  const events = [...learnerEvents.entries()].flatMap(([email, sent]) =>
    sent.map((event, index) => payload(email, event, index)),
  );
  for (let from = 0; from < events.length; from += 200) {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${ingestKey}` },
      payload: { events: events.slice(from, from + 200) },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<IngestEventsResponse>().rejected).toEqual([]);
  }
  const ids = await testApp.database.db.execute<{ kind: string; id: string; key: string }>(sql`
    select 'course' as kind, id, external_course_id as key from courses where organization_id = ${owner.organization.id}
    union all
    select 'question', id, interaction_id from questions where organization_id = ${owner.organization.id}`);
  courseId = ids.rows.find((row) => row.kind === 'course')?.id ?? '';
  for (const row of ids.rows) if (row.kind === 'question') questionIds[row.key] = row.id;
  expect(courseId && questionIds.q1 && questionIds.q2).toBeTruthy();
});

afterAll(async () => {
  await testApp.close();
});

describe('funnels against a reference of the contract', () => {
  it('agree on every step count and median time, in every order, over random funnels', async () => {
    const random = new Random(7);
    const pool: RefStep[] = [
      { kind: 'course_started' },
      { kind: 'slide_viewed', slideNumber: 1 },
      { kind: 'slide_viewed', slideNumber: 2 },
      { kind: 'slide_viewed', slideNumber: 3 },
      { kind: 'question_answered', question: 'q1' },
      { kind: 'question_answered', question: 'q2' },
      { kind: 'question_answered', question: null },
      { kind: 'completed' },
    ];
    let reachedLastStep = 0;
    for (let round = 0; round < 10; round++) {
      const steps = Array.from({ length: random.int(2, 5) }, () => random.pick(pool));
      const windowDays = random.pick([1, 3, 14]);
      for (const order of ['sequential', 'strict', 'any'] as const) {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/api/analytics/funnels/compute',
          headers: owner.headers,
          payload: {
            definition: { courseId, steps: steps.map(toApiStep), order, windowDays },
            period: PERIOD,
          },
        });
        expect(response.statusCode, response.body).toBe(200);
        const result = response.json<FunnelComputeResult>();
        const actual = result.steps.map((step) => ({ count: step.count, medianSeconds: step.medianSeconds }));
        const want = expected(steps, order, windowDays);
        expect(actual, `${order} ${JSON.stringify(steps)} within ${windowDays} d`).toEqual(want);
        reachedLastStep += want.at(-1)?.count ?? 0;
      }
    }
    // The random funnels are not all empty: learners get through to the end of many of them.
    expect(reachedLastStep).toBeGreaterThan(30);
  });
});
