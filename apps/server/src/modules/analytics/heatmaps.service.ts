import {
  HEATMAP_CONFIDENCE,
  HEATMAP_LEARNER_DEFAULT_ORDER,
  HEATMAP_LEARNERS_PAGE_SIZE,
  HEATMAP_MAX_INTERVAL_WIDTH,
  HEATMAP_MIN_RESPONSES,
  LEARNING_MESSAGES,
  heatmapAnswerSchema,
  type HeatmapActivityQuery,
  type HeatmapActivityResponse,
  type HeatmapLearnersQuery,
  type HeatmapLearnersResponse,
  type HeatmapQuestion,
  type HeatmapQuestionCell,
  type HeatmapQuestionsQuery,
  type HeatmapQuestionsResponse,
} from '@courselens/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { analyticsBasis, loadAnalyticsScope } from './analytics-settings.service';
import {
  countLearners,
  selectActivity,
  selectAnsweredQuestions,
  selectLearnerPage,
  selectLiveCourse,
  selectQuestionCells,
} from './heatmaps.queries';
import { isTooFewResponses, wilsonInterval } from './wilson';

/** A live course of the organization, or 404 (a course id in a query string is not checked by the tenant plugin). */
export async function getAnalyticsCourse(db: Database, organizationId: string, courseId: string) {
  const course = await selectLiveCourse(db, organizationId, courseId);
  if (!course) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return course;
}

type QuestionColumn = {
  question_id: string;
  interaction_id: string;
  question_text: string | null;
  slide_number: number | null;
  question_number: number | null;
};

function toQuestion(row: QuestionColumn): HeatmapQuestion {
  const text = row.question_text?.trim();
  return {
    questionId: row.question_id,
    interactionId: row.interaction_id,
    label: text ? text : row.interaction_id,
    slideNumber: row.slide_number,
    questionNumber: row.question_number,
  };
}

/**
 * The slides × questions grid of a course: each question's correct rate
 * (learners whose last answer in the period was right, of those graded),
 * its 95 % Wilson interval and whether it rests on too few answers. Rows
 * are the slides in order (questions without a slide last); a question's
 * column is its place on its slide.
 */
export async function getQuestionHeatmap(
  db: Database,
  organizationId: string,
  query: HeatmapQuestionsQuery,
): Promise<HeatmapQuestionsResponse> {
  const [course, scope] = await Promise.all([
    getAnalyticsCourse(db, organizationId, query.courseId),
    loadAnalyticsScope(db, organizationId),
  ]);
  const [rows, basis] = await Promise.all([
    selectQuestionCells(db, scope, query.courseId, query),
    analyticsBasis(db, scope),
  ]);
  const slides: (number | null)[] = [];
  const positions = new Map<number | null, number>();
  const cells: HeatmapQuestionCell[] = rows.map((row) => {
    if (!positions.has(row.slide_number)) slides.push(row.slide_number);
    const position = (positions.get(row.slide_number) ?? 0) + 1;
    positions.set(row.slide_number, position);
    const learners = Number(row.learners);
    const correct = Number(row.correct);
    const interval = wilsonInterval(correct, learners);
    return {
      ...toQuestion(row),
      position,
      learners,
      correct,
      responses: Number(row.responses),
      correctRate: learners > 0 ? correct / learners : null,
      low: interval?.low ?? null,
      high: interval?.high ?? null,
      isTooFew: isTooFewResponses(interval, learners),
    };
  });
  return {
    basis,
    course,
    slides,
    positions: Math.max(0, ...positions.values()),
    cells,
    thresholds: {
      minResponses: HEATMAP_MIN_RESPONSES,
      maxIntervalWidth: HEATMAP_MAX_INTERVAL_WIDTH,
      confidence: HEATMAP_CONFIDENCE,
    },
  };
}

const answersColumn = z.array(heatmapAnswerSchema.extend({ answeredAt: z.union([z.string(), z.date()]) }));

/** json_agg hands the answers over as text on one driver and parsed on the other. */
function readAnswers(value: unknown) {
  const parsed = answersColumn.parse(typeof value === 'string' ? JSON.parse(value) : value);
  return parsed.map((answer) => ({ ...answer, answeredAt: new Date(answer.answeredAt).toISOString() }));
}

/**
 * One page (50) of the learners × questions grid: each learner who answered
 * in the period, with their last answer to each question, their counts and
 * score (share right of their graded last answers), sorted by name, wrong
 * answers or score.
 */
export async function getLearnerHeatmap(
  db: Database,
  organizationId: string,
  query: HeatmapLearnersQuery,
): Promise<HeatmapLearnersResponse> {
  const [course, scope] = await Promise.all([
    getAnalyticsCourse(db, organizationId, query.courseId),
    loadAnalyticsScope(db, organizationId),
  ]);
  const order = query.order ?? HEATMAP_LEARNER_DEFAULT_ORDER[query.sort];
  const pageSize = HEATMAP_LEARNERS_PAGE_SIZE;
  const [rows, questions, basis] = await Promise.all([
    selectLearnerPage(db, scope, {
      courseId: query.courseId,
      period: query,
      sort: query.sort,
      order,
      limit: pageSize,
      offset: (query.page - 1) * pageSize,
    }),
    selectAnsweredQuestions(db, scope, query.courseId, query),
    analyticsBasis(db, scope),
  ]);
  // A page past the end has no row to carry the total.
  const total = rows[0]
    ? Number(rows[0].total)
    : query.page > 1
      ? await countLearners(db, scope, query.courseId, query)
      : 0;
  return {
    basis,
    course,
    questions: questions.map(toQuestion),
    items: rows.map((row) => ({
      learnerId: row.learner_id,
      name: row.name,
      email: row.email,
      answered: Number(row.answered),
      correct: Number(row.correct),
      wrong: Number(row.wrong),
      score: row.score === null ? null : Number(row.score),
      answers: readAnswers(row.answers),
    })),
    total,
    page: query.page,
    pageSize,
    sort: query.sort,
    order,
  };
}

/**
 * Activity by weekday × hour in the organization's time zone: events of the
 * course (or of the whole organization) and distinct learners per slot,
 * with the period's totals (a learner active in several slots counts once).
 */
export async function getActivityHeatmap(
  db: Database,
  organizationId: string,
  query: HeatmapActivityQuery,
): Promise<HeatmapActivityResponse> {
  const [course, scope] = await Promise.all([
    query.courseId ? getAnalyticsCourse(db, organizationId, query.courseId) : Promise.resolve(null),
    loadAnalyticsScope(db, organizationId),
  ]);
  const [rows, basis] = await Promise.all([
    selectActivity(db, scope, query.courseId, query),
    analyticsBasis(db, scope),
  ]);
  const cells: HeatmapActivityResponse['cells'] = [];
  let totals = { events: 0, learners: 0 };
  for (const row of rows) {
    const counts = { events: Number(row.events), learners: Number(row.learners) };
    if (row.weekday === null || row.hour === null) totals = counts;
    else cells.push({ weekday: Number(row.weekday), hour: Number(row.hour), ...counts });
  }
  cells.sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  return { basis, course, cells, totals };
}
