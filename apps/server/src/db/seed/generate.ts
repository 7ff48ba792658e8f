import {
  buildBroadcast,
  buildCourse,
  buildCourseRun,
  buildLearner,
  buildQuestion,
  buildResponse,
  buildVariable,
  buildVariableValue,
} from '../factories/learning';
import type {
  NewActivityEvent,
  NewBroadcast,
  NewCourse,
  NewCourseRun,
  NewCourseRunQuestion,
  NewLearner,
  NewLearnerVariableValue,
  NewLearningEvent,
  NewQuestion,
  NewVariable,
} from '../schema';
import {
  COURSES,
  DEPARTMENTS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  MANAGEMENT_LEVELS,
  REGIONS,
  type CourseSpec,
  type LearnerProfile,
  type QuestionSpec,
  type RunOutcome,
  type VariableSpec,
} from './catalog';
import { IdSequence } from './ids';
import { Random, clamp, hashSeed, logistic, logit } from './random';

// The demo dataset as pure, deterministic row generators: the same options
// give the same rows (ids included) on every run and every engine. Nothing
// here touches the database; seed.ts writes what these produce.

const MINUTE = 60_000;
const DAY = 86_400_000;
const SLIDE_ONE_DELAY_MS = 1000;

/** Table tags of the deterministic ids (see IdSequence). */
const TABLE_TAGS = {
  organization: 1,
  authUser: 2,
  authAccount: 3,
  userProfile: 4,
  membership: 5,
  course: 6,
  variable: 7,
  question: 8,
  broadcast: 9,
  learner: 10,
  courseRun: 11,
  value: 12,
  response: 13,
  activity: 14,
  learningEvent: 15,
} as const;

export type DatasetOptions = {
  seed: number;
  now: Date;
  /** Activity spans this many days before `now`. */
  days: number;
  learners: number;
  /** Names the dataset's ids; include the organization so two organizations never share ids. */
  namespace: string;
  organizationId: string;
  ownerUserId: string;
};

export function datasetIds(namespace: string, table: keyof typeof TABLE_TAGS): IdSequence {
  return new IdSequence(namespace, TABLE_TAGS[table]);
}

type CatalogQuestion = { id: string; spec: QuestionSpec; interactionId: string; distractorWeights: number[] };
type CatalogVariable = { id: string; spec: VariableSpec };

export type CatalogCourse = {
  id: string;
  spec: CourseSpec;
  maxPoints: number;
  questionsBySlide: Map<number, CatalogQuestion[]>;
  variables: CatalogVariable[];
};

export type Catalog = {
  courses: CatalogCourse[];
  rows: {
    courses: NewCourse[];
    variables: NewVariable[];
    questions: NewQuestion[];
    broadcasts: NewBroadcast[];
    activity: NewActivityEvent[];
  };
};

/** Courses, their variables and questions, broadcast history and the team's first activity. */
export function buildCatalog(options: DatasetOptions): Catalog {
  const { now, days, organizationId, ownerUserId } = options;
  const ids = {
    course: datasetIds(options.namespace, 'course'),
    variable: datasetIds(options.namespace, 'variable'),
    question: datasetIds(options.namespace, 'question'),
    broadcast: datasetIds(options.namespace, 'broadcast'),
    activity: datasetIds(options.namespace, 'activity'),
  };
  const catalog: Catalog = {
    courses: [],
    rows: { courses: [], variables: [], questions: [], broadcasts: [], activity: [] },
  };
  COURSES.forEach((spec, courseIndex) => {
    const createdAt = new Date(now.getTime() - (days + 40 - courseIndex * 4) * DAY);
    const courseId = ids.course.next();
    const broadcastTimes = spec.broadcasts.map(
      (_, index) =>
        new Date(now.getTime() - (spec.broadcasts.length - index) * 11 * DAY - courseIndex * 3 * 3_600_000),
    );
    catalog.rows.courses.push(
      buildCourse({
        id: courseId,
        organizationId,
        courseTitle: spec.title,
        description: spec.description,
        externalCourseId: spec.externalCourseId,
        broadcastMessage: spec.broadcasts.at(-1) ?? null,
        createdAt,
        updatedAt: broadcastTimes.at(-1) ?? createdAt,
      }),
    );
    catalog.rows.activity.push({
      id: ids.activity.next(),
      organizationId,
      actorUserId: ownerUserId,
      kind: 'course.created',
      subjectType: 'course',
      subjectId: courseId,
      summary: `Created course ${spec.title}`,
      details: { externalCourseId: spec.externalCourseId },
      createdAt,
      updatedAt: createdAt,
    });
    spec.broadcasts.forEach((message, index) => {
      const at = broadcastTimes[index] ?? now;
      catalog.rows.broadcasts.push(
        buildBroadcast({
          id: ids.broadcast.next(),
          organizationId,
          courseId,
          message,
          authorId: ownerUserId,
          createdAt: at,
          updatedAt: at,
        }),
      );
      catalog.rows.activity.push({
        id: ids.activity.next(),
        organizationId,
        actorUserId: ownerUserId,
        kind: 'broadcast.set',
        subjectType: 'course',
        subjectId: courseId,
        summary: `Broadcast to ${spec.title}: ${message}`,
        details: { message },
        createdAt: at,
        updatedAt: at,
      });
    });

    const variables = spec.variables.map((variableSpec) => {
      const id = ids.variable.next();
      catalog.rows.variables.push(
        buildVariable({
          id,
          organizationId,
          courseId,
          name: variableSpec.name,
          title: variableSpec.title,
          description: variableSpec.description,
          dataType: variableSpec.dataType,
          createdAt,
          updatedAt: createdAt,
        }),
      );
      return { id, spec: variableSpec };
    });

    const questionsBySlide = new Map<number, CatalogQuestion[]>();
    for (const questionSpec of spec.questions) {
      const id = ids.question.next();
      const interactionId = `Slide${questionSpec.slide}_MultiChoice_${questionSpec.number}`;
      catalog.rows.questions.push(
        buildQuestion({
          id,
          organizationId,
          courseId,
          interactionId,
          slideNumber: questionSpec.slide,
          questionNumber: questionSpec.number,
          questionText: questionSpec.text,
          correctAnswer: questionSpec.choices[0],
          createdAt,
          updatedAt: createdAt,
        }),
      );
      // The first distractor is the common misconception.
      const distractorWeights = questionSpec.choices.slice(1).map((_, index) => 6 / (index + 1) ** 1.4);
      const onSlide = questionsBySlide.get(questionSpec.slide) ?? [];
      onSlide.push({ id, spec: questionSpec, interactionId, distractorWeights });
      questionsBySlide.set(questionSpec.slide, onSlide);
    }
    catalog.courses.push({
      id: courseId,
      spec,
      maxPoints: spec.questions.reduce((sum, question) => sum + question.points, 0),
      questionsBySlide,
      variables,
    });
  });
  return catalog;
}

type PlannedAnswer = { question: CatalogQuestion; choice: string; correct: boolean; at: Date };
/** A slide the learner opened, and how long they stayed on the slide before it (null on slide 1). */
type PlannedSlideView = { slide: number; at: Date; secondsOnPrevious: number | null };
type PlannedRun = RunOutcome & {
  course: CatalogCourse;
  answers: PlannedAnswer[];
  slideViews: PlannedSlideView[];
};
export type LearnerPlan = { index: number; profile: LearnerProfile; domain: string; runs: PlannedRun[] };

/**
 * Everything learner `index` does: who they are, which courses they take,
 * how far they get, what they answer. Seeded per learner, so any learner can
 * be planned on its own, in any order, with the same result.
 */
export function planLearner(options: DatasetOptions, catalog: Catalog, index: number): LearnerPlan {
  const random = new Random(hashSeed(options.seed, 'learner', index));
  const managementLevel = random.weighted(MANAGEMENT_LEVELS);
  const profile: LearnerProfile = {
    firstName: random.pick(FIRST_NAMES),
    lastName: random.pick(LAST_NAMES),
    department: random.weighted(DEPARTMENTS),
    region: random.weighted(REGIONS),
    ability: random.normal(),
    persistence: clamp(random.normal(1, 0.3), 0.4, 1.6),
    managementLevel,
    teamSize:
      managementLevel === 'Team lead'
        ? random.int(2, 8)
        : managementLevel === 'Manager'
          ? random.int(5, 14)
          : random.int(10, 35),
  };
  const domain = random.weighted(EMAIL_DOMAINS);
  const runs: PlannedRun[] = [];
  const takeCourse = (course: CatalogCourse) => {
    let start = pickStart(random, options);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const run = simulateRun(random, options, course, profile, start, attempt);
      runs.push(run);
      const retake = run.passed ? 0.03 : run.completedAt ? 0.3 : 0.2;
      if (!random.chance(retake)) break;
      start = new Date(run.lastActivityAt.getTime() + random.int(1, 10) * DAY + random.int(0, 8) * 3_600_000);
      if (start.getTime() >= options.now.getTime() - 10 * MINUTE) break;
    }
  };
  for (const course of catalog.courses) {
    if (random.chance(course.spec.popularity)) takeCourse(course);
  }
  if (runs.length === 0) {
    // Learners exist because a course reported them: everyone has taken one.
    takeCourse(random.weighted(catalog.courses.map((course) => [course, course.spec.popularity] as const)));
  }
  return { index, profile, domain, runs };
}

/** When a first attempt starts: more activity lately, working hours, quieter weekends. */
function pickStart(random: Random, options: DatasetOptions): Date {
  const nowMs = options.now.getTime();
  // Half spread evenly, half ramping up towards now: a programme that is growing.
  const offsetDays = options.days * (random.chance(0.5) ? random.next() : 1 - Math.sqrt(random.next()));
  const day = new Date(nowMs - offsetDays * DAY);
  day.setUTCHours(0, 0, 0, 0);
  const weekday = day.getUTCDay();
  if ((weekday === 0 || weekday === 6) && random.chance(0.75)) {
    day.setUTCDate(day.getUTCDate() - (weekday === 6 ? 1 : 2));
  }
  const hour = clamp(random.normal(11.5, 2.6), 6, 21);
  let start = day.getTime() + hour * 3_600_000 + random.int(0, 59) * MINUTE;
  start = clamp(start, nowMs - options.days * DAY, nowMs - 15 * MINUTE);
  return new Date(start);
}

function simulateRun(
  random: Random,
  options: DatasetOptions,
  course: CatalogCourse,
  profile: LearnerProfile,
  startedAt: Date,
  attempt: number,
): PlannedRun {
  const { spec } = course;
  const nowMs = options.now.getTime();
  const practice = attempt > 1 ? 0.6 : 0;
  const answers: PlannedAnswer[] = [];
  const slideViews: PlannedSlideView[] = [];
  let time = startedAt.getTime();
  let previousSlideMinutes: number | null = null;
  let minutes = 0;
  let earned = 0;
  let isFinished = true;
  for (let slide = 1; slide <= spec.slides; slide += 1) {
    const [low, high] = spec.minutesPerSlide;
    const slideMinutes = low + random.next() * (high - low);
    // Recorded without drawing, so the rest of the dataset stays as it was.
    // The first slide opens a second after the start, so the two never tie.
    slideViews.push({
      slide,
      at: new Date(slide === 1 ? time + SLIDE_ONE_DELAY_MS : time),
      secondsOnPrevious: previousSlideMinutes === null ? null : Math.round(previousSlideMinutes * 60),
    });
    previousSlideMinutes = slideMinutes;
    if (time + slideMinutes * MINUTE > nowMs) {
      // Still in the course right now.
      isFinished = false;
      break;
    }
    time += slideMinutes * MINUTE;
    minutes += slideMinutes;
    for (const question of course.questionsBySlide.get(slide) ?? []) {
      const probability = logistic(logit(question.spec.difficulty) + 0.9 * profile.ability + practice);
      const correct = random.chance(probability);
      const choice = correct
        ? question.spec.choices[0]
        : random.weighted(
            question.spec.choices
              .slice(1)
              .map((text, i) => [text, question.distractorWeights[i] ?? 1] as const),
          );
      answers.push({ question, choice, correct, at: new Date(time - random.int(5, 40) * 1000) });
      if (correct) earned += question.spec.points;
    }
    if (slide < spec.slides) {
      const drop = (spec.dropPerSlide + (spec.dropSpikes[slide] ?? 0)) / profile.persistence;
      if (random.chance(drop)) {
        isFinished = false;
        break;
      }
    }
  }
  const score = course.maxPoints === 0 ? 0 : Math.round((100 * earned) / course.maxPoints);
  const lastActivityAt = new Date(Math.max(time, startedAt.getTime() + MINUTE));
  return {
    course,
    answers,
    slideViews,
    attempt,
    startedAt,
    lastActivityAt,
    completedAt: isFinished ? lastActivityAt : null,
    score,
    passed: isFinished && score >= spec.passMark,
    minutes: Math.max(1, Math.round(minutes)),
  };
}

/** ASCII e-mail local part: "Zoë O'Brien" → "zoe.obrien". */
function emailPart(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '');
}

/**
 * Learner rows in index order. E-mails are made unique within the dataset
 * by numbering repeats (ann.lee, ann.lee2, ...), so this runs sequentially.
 */
export function* generateLearners(options: DatasetOptions, catalog: Catalog): Generator<NewLearner> {
  const ids = datasetIds(options.namespace, 'learner');
  const seen = new Map<string, number>();
  for (let index = 0; index < options.learners; index += 1) {
    const plan = planLearner(options, catalog, index);
    const { firstName, lastName } = plan.profile;
    const local = `${emailPart(firstName)}.${emailPart(lastName)}`;
    const key = `${local}@${plan.domain}`;
    const repeat = (seen.get(key) ?? 0) + 1;
    seen.set(key, repeat);
    const firstSeen = Math.min(...plan.runs.map((run) => run.startedAt.getTime()));
    const lastSeen = Math.max(...plan.runs.map((run) => run.lastActivityAt.getTime()));
    yield buildLearner({
      id: ids.at(index),
      organizationId: options.organizationId,
      name: `${firstName} ${lastName}`,
      email: repeat === 1 ? key : `${local}${repeat}@${plan.domain}`,
      createdAt: new Date(firstSeen),
      updatedAt: new Date(lastSeen),
      lastActivityAt: new Date(lastSeen),
    });
  }
}

export type LearnerActivity = {
  runs: NewCourseRun[];
  values: NewLearnerVariableValue[];
  responses: NewCourseRunQuestion[];
  /**
   * The learning-event log rows only the seed knows (slides viewed, passed or
   * failed); the starts, values, answers and completions are back-filled
   * from the facts above once they are stored.
   */
  events: NewLearningEvent[];
};

/** Id sequences of the activity rows; one set per dataset, used in learner order. */
export type ActivityIds = {
  learner: IdSequence;
  courseRun: IdSequence;
  value: IdSequence;
  response: IdSequence;
  event: IdSequence;
};

export function activityIds(namespace: string): ActivityIds {
  return {
    learner: datasetIds(namespace, 'learner'),
    courseRun: datasetIds(namespace, 'courseRun'),
    value: datasetIds(namespace, 'value'),
    response: datasetIds(namespace, 'response'),
    event: datasetIds(namespace, 'learningEvent'),
  };
}

/** The title and scene the course reports for a slide. */
function slideLabels(spec: CourseSpec, slide: number): { slideTitle: string; scene: string | null } {
  let scene: string | null = null;
  for (const [firstSlide, name] of spec.scenes ?? []) {
    if (firstSlide <= slide) scene = name;
  }
  return { slideTitle: spec.slideTitles?.[slide - 1] ?? `Slide ${slide}`, scene };
}

/** The event id a seeded log row is sent under (its idempotency key). */
export const seedEventId = (id: string) => `seed:${id}`;

/** The course runs, variable values, answers and slide events of learner `index`. */
export function generateLearnerActivity(
  options: DatasetOptions,
  catalog: Catalog,
  index: number,
  ids: ActivityIds,
): LearnerActivity {
  const plan = planLearner(options, catalog, index);
  const random = new Random(hashSeed(options.seed, 'values', index));
  const { organizationId } = options;
  const learnerId = ids.learner.at(index);
  const activity: LearnerActivity = { runs: [], values: [], responses: [], events: [] };
  const logEvent = (
    event: Omit<NewLearningEvent, 'id' | 'eventId' | 'organizationId' | 'source' | 'receivedAt'>,
  ) => {
    const id = ids.event.next();
    activity.events.push({
      id,
      eventId: seedEventId(id),
      organizationId,
      source: 'seed',
      receivedAt: event.occurredAt,
      ...event,
    });
  };
  for (const run of plan.runs) {
    const courseId = run.course.id;
    const courseRunId = ids.courseRun.next();
    activity.runs.push(
      buildCourseRun({
        id: courseRunId,
        organizationId,
        courseId,
        learnerId,
        startedAt: run.startedAt,
        completedAt: run.completedAt,
        // A finished run has its outcome, as a course that reports pass/fail sends it.
        passed: run.completedAt ? run.passed : null,
        score: run.completedAt ? run.score : null,
        passMark: run.completedAt ? run.course.spec.passMark : null,
        progressPercent: run.completedAt ? 100 : null,
        createdAt: run.startedAt,
        updatedAt: run.lastActivityAt,
      }),
    );
    for (const view of run.slideViews) {
      logEvent({
        type: 'slide.viewed',
        occurredAt: view.at,
        courseId,
        learnerId,
        runId: courseRunId,
        slideNumber: view.slide,
        ...slideLabels(run.course.spec, view.slide),
        seconds: view.secondsOnPrevious,
      });
    }
    if (run.completedAt) {
      logEvent({
        type: run.passed ? 'course.passed' : 'course.failed',
        occurredAt: run.completedAt,
        courseId,
        learnerId,
        runId: courseRunId,
        score: run.score,
        passMark: run.course.spec.passMark,
      });
    }
    for (const answer of run.answers) {
      const { spec } = answer.question;
      activity.responses.push(
        buildResponse({
          id: ids.response.next(),
          organizationId,
          courseRunId,
          questionId: answer.question.id,
          learnerId,
          courseId,
          slideNumber: spec.slide,
          questionNumber: spec.number,
          questionText: spec.text,
          answerChoice: answer.choice,
          correct: answer.correct,
          correctAnswer: spec.choices[0],
          pointsAssigned: answer.correct ? spec.points : 0,
          createdAt: answer.at,
          updatedAt: answer.at,
        }),
      );
    }
    for (const variable of run.course.variables) {
      const recordedAt =
        variable.spec.recordedAt === 'start'
          ? new Date(run.startedAt.getTime() + 20_000)
          : variable.spec.recordedAt === 'exit'
            ? run.lastActivityAt
            : run.completedAt;
      if (!recordedAt) continue;
      const raw = variable.spec.produce({ random, learner: plan.profile, run });
      if (raw === undefined) continue;
      activity.values.push(
        buildVariableValue({
          id: ids.value.next(),
          organizationId,
          variableId: variable.id,
          learnerId,
          courseId,
          courseRunId,
          raw,
          dataType: variable.spec.dataType,
          recordedAt,
          createdAt: recordedAt,
          updatedAt: recordedAt,
        }),
      );
    }
  }
  return activity;
}
