import {
  LEARNING_MESSAGES,
  QUESTION_COUNT_DEFINITIONS,
  QUESTION_LEADERS_DEFINITION,
  type QuestionChartResponse,
  type QuestionLeadersResponse,
  type QuestionReportResponse,
  type QuestionReportSortKey,
  type QuestionReportSubject,
  type QuestionResponseRow,
  type SortOrder,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import { isPartialBucket } from '../../lib/time-axis';
import { withoutEmails } from '../metrics/privacy';
import { DAILY_TREND_MAX_DAYS } from '../metrics/statistics.service';
import {
  countResponses,
  selectChoices,
  selectCorrectTrend,
  selectQuestionLeaders,
  selectQuestionSubject,
  selectRangeSpanDays,
  selectResponses,
  selectTotals,
  type QuestionRange,
  type ResponseFilters,
  type ResponseRow,
} from './question-reports.queries';

const TOP_CHOICES = 12;

export type QuestionScope = { organizationId: string; question: QuestionReportSubject };

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The question of a live course of the organization, else 404 (as for another organization's). */
export async function resolveQuestion(
  db: Database,
  organizationId: string,
  questionId: string,
): Promise<QuestionScope> {
  const row = await selectQuestionSubject(db, organizationId, questionId);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.questionNotFound);
  return {
    organizationId,
    question: {
      id: row.id,
      courseId: row.course_id,
      courseTitle: row.course_title,
      interactionId: row.interaction_id,
      slideNumber: row.slide_number,
      questionNumber: row.question_number,
      questionText: row.question_text,
      correctAnswer: row.correct_answer,
    },
  };
}

function toResponseRow(row: ResponseRow, includeEmail: boolean): QuestionResponseRow {
  return {
    id: row.id,
    learnerId: row.learner_id,
    // Members see the name as sent beside the e-mail; a public payload shows neither an address nor a name that is one.
    learnerName: includeEmail ? row.learner_name : row.learner_display_name,
    ...(includeEmail ? { learnerEmail: row.learner_email } : {}),
    answer: includeEmail ? row.answer_choice : withoutEmails(row.answer_choice),
    correct: row.correct,
    points: row.points_assigned === null ? null : Number(row.points_assigned),
    answeredAt: toIso(row.created_at),
  };
}

export type QuestionReportInput = {
  filters: ResponseFilters;
  sort: QuestionReportSortKey;
  order: SortOrder;
  page: number;
  pageSize: number;
};

/**
 * One page of answers with the totals of the date range. E-mails only for
 * members: a shared view (`includeEmail: false`) gets display names and
 * answers with any e-mail address hidden.
 */
export async function getQuestionReport(
  db: Database,
  scope: QuestionScope,
  input: QuestionReportInput,
  options: { includeEmail: boolean },
): Promise<QuestionReportResponse> {
  const base = { organizationId: scope.organizationId, questionId: scope.question.id };
  const range: QuestionRange = { from: input.filters.from, to: input.filters.to };
  const [rows, total, totals] = await Promise.all([
    selectResponses(db, {
      ...base,
      filters: input.filters,
      sort: input.sort,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countResponses(db, { ...base, filters: input.filters }),
    selectTotals(db, { ...base, range }),
  ]);
  return {
    question: scope.question,
    items: rows.map((row) => toResponseRow(row, options.includeEmail)),
    total,
    page: input.page,
    pageSize: input.pageSize,
    totals: {
      responses: totals.responses,
      graded: totals.graded,
      correct: totals.correct,
      correctRate: totals.graded > 0 ? totals.correct / totals.graded : null,
      points: totals.points === null ? null : Number(totals.points),
      learners: totals.learners,
      definitions: { ...QUESTION_COUNT_DEFINITIONS },
    },
  };
}

export async function exportQuestionReport(
  db: Database,
  scope: QuestionScope,
  input: Omit<QuestionReportInput, 'page' | 'pageSize'>,
  maxRows: number,
): Promise<QuestionResponseRow[]> {
  const rows = await selectResponses(db, {
    organizationId: scope.organizationId,
    questionId: scope.question.id,
    filters: input.filters,
    sort: input.sort,
    order: input.order,
    limit: maxRows,
    offset: 0,
  });
  return rows.map((row) => toResponseRow(row, true));
}

export const questionReportCsvColumns: readonly CsvColumn<QuestionResponseRow>[] = [
  { header: 'Learner', value: (row) => row.learnerName },
  { header: 'Email', value: (row) => row.learnerEmail },
  { header: 'Answer', value: (row) => row.answer },
  { header: 'Correct', value: (row) => (row.correct === null ? '' : row.correct ? 'yes' : 'no') },
  { header: 'Points', value: (row) => row.points },
  { header: 'Answered at', value: (row) => row.answeredAt },
  { header: 'Learner ID', value: (row) => row.learnerId },
];

/**
 * How the answers spread across the choices (no e-mail address in a label)
 * and the correct rate per day or week, the bucket not over yet flagged.
 */
export async function getQuestionChart(
  db: Database,
  scope: QuestionScope,
  input: { range: QuestionRange; interval?: 'day' | 'week' | undefined; now?: Date },
): Promise<QuestionChartResponse> {
  const now = input.now ?? new Date();
  const base = { organizationId: scope.organizationId, questionId: scope.question.id, range: input.range };
  const interval =
    input.interval ?? ((await selectRangeSpanDays(db, base)) > DAILY_TREND_MAX_DAYS ? 'week' : 'day');
  const [choices, trend] = await Promise.all([
    selectChoices(db, { ...base, correctAnswer: scope.question.correctAnswer, top: TOP_CHOICES }),
    selectCorrectTrend(db, { ...base, interval }),
  ]);
  return {
    question: scope.question,
    choices: choices.map((row) => ({
      label: row.is_other ? 'Other' : withoutEmails(row.label ?? ''),
      count: row.count,
      isCorrect: row.is_correct,
    })),
    trend: {
      interval,
      points: trend.map((point) => ({
        date: point.bucket,
        responses: point.responses,
        correct: point.correct,
        correctRate: point.graded > 0 ? point.correct / point.graded : null,
        isPartial: isPartialBucket(point.bucket, interval, now),
      })),
    },
  };
}

/** Learners by their best points on the question, each once, names only. */
export async function getQuestionLeaders(
  db: Database,
  scope: QuestionScope,
  input: { range: QuestionRange; limit: number },
): Promise<QuestionLeadersResponse> {
  const rows = await selectQuestionLeaders(db, {
    organizationId: scope.organizationId,
    questionId: scope.question.id,
    range: input.range,
    limit: input.limit,
  });
  return {
    question: scope.question,
    limit: input.limit,
    definition: QUESTION_LEADERS_DEFINITION,
    items: rows.map((row) => ({
      rank: Number(row.rank),
      learnerId: row.learner_id,
      learnerName: row.learner_name,
      points: Number(row.score),
      responses: Number(row.responses),
      correct: Number(row.correct),
    })),
  };
}
