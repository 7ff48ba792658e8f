import {
  LEARNING_MESSAGES,
  type QuestionBody,
  type QuestionCourseOption,
  type QuestionListItem,
  type QuestionSortKey,
  type QuestionTotals,
  type SortOrder,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import {
  selectCoursesWithQuestions,
  selectQuestionRows,
  selectQuestionTotals,
  updateQuestionRow,
  type QuestionFilters,
  type QuestionRecord,
  type QuestionRow,
} from './questions.queries';

export type QuestionListInput = QuestionFilters & { sort: QuestionSortKey; order: SortOrder };

/** correct / total from 0 to 1, or null before the first answer. */
export function correctRate(correct: number, total: number): number | null {
  return total > 0 ? correct / total : null;
}

function toListItem(row: QuestionRow): QuestionListItem {
  const totalResponses = Number(row.total_responses);
  const correctResponses = Number(row.correct_responses);
  return {
    id: row.id,
    courseId: row.course_id,
    courseTitle: row.course_title,
    interactionId: row.interaction_id,
    slideNumber: row.slide_number,
    questionNumber: row.question_number,
    questionText: row.question_text,
    correctAnswer: row.correct_answer,
    active: row.active,
    totalResponses,
    correctResponses,
    uniqueLearnersCount: Number(row.unique_learners),
    correctRate: correctRate(correctResponses, totalResponses),
    createdAt: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
  };
}

/**
 * One page of the organization's questions (optionally of one course) with
 * totalResponses, correctResponses, uniqueLearnersCount and the correct rate,
 * plus the totals over every matching question. Active questions by default
 * (spec section 4).
 */
export async function listQuestions(
  db: Database,
  input: QuestionListInput & { page: number; pageSize: number },
): Promise<{
  items: QuestionListItem[];
  total: number;
  page: number;
  pageSize: number;
  totals: QuestionTotals;
}> {
  const [rows, totals] = await Promise.all([
    selectQuestionRows(db, input, input, {
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    selectQuestionTotals(db, input),
  ]);
  const totalResponses = Number(totals.total_responses);
  const correctResponses = Number(totals.correct_responses);
  return {
    items: rows.map(toListItem),
    total: Number(totals.questions),
    page: input.page,
    pageSize: input.pageSize,
    totals: {
      questions: Number(totals.questions),
      totalResponses,
      correctResponses,
      averageLearnersPerQuestion:
        Number(totals.questions) === 0 ? 0 : Number(totals.learner_pairs) / Number(totals.questions),
      correctRate: correctRate(correctResponses, totalResponses),
    },
  };
}

/** Every matching question (up to `maxRows`) in the list's order, for a CSV export. */
export async function exportQuestions(
  db: Database,
  input: QuestionListInput,
  maxRows: number,
): Promise<QuestionListItem[]> {
  return (await selectQuestionRows(db, input, input, { limit: maxRows, offset: 0 })).map(toListItem);
}

export async function listQuestionCourses(
  db: Database,
  organizationId: string,
  active: boolean,
): Promise<QuestionCourseOption[]> {
  const rows = await selectCoursesWithQuestions(db, organizationId, active);
  return rows.map((row) => ({ id: row.id, courseTitle: row.course_title, questions: Number(row.questions) }));
}

function toBody(record: QuestionRecord): QuestionBody {
  return { ...record, updatedAt: record.updatedAt.toISOString() };
}

function describeQuestion(question: QuestionRecord): string {
  const text = question.questionText?.trim() || question.interactionId;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * Turns a question on (listed) or off (hidden from the lists). Text, numbers
 * and correct answer are the course's and are not edited here.
 */
export async function updateQuestion(
  db: Database,
  input: { organizationId: string; userId: string; questionId: string; active: boolean },
): Promise<QuestionBody> {
  const question = await updateQuestionRow(db, {
    organizationId: input.organizationId,
    questionId: input.questionId,
    active: input.active,
    activity: (previous, next) =>
      previous.active === next.active
        ? null
        : {
            organizationId: input.organizationId,
            actorUserId: input.userId,
            kind: 'question.updated',
            subjectType: 'question',
            subjectId: next.id,
            summary: `Question “${describeQuestion(next)}” ${next.active ? 'turned on' : 'turned off'}`,
            details: { courseId: next.courseId, active: next.active },
          },
  });
  if (!question) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.questionNotFound);
  return toBody(question);
}

/** The columns of a questions CSV export. */
export const questionCsvColumns: readonly CsvColumn<QuestionListItem>[] = [
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Interaction ID', value: (row) => row.interactionId },
  { header: 'Slide', value: (row) => row.slideNumber },
  { header: 'Question number', value: (row) => row.questionNumber },
  { header: 'Question', value: (row) => row.questionText },
  { header: 'Correct answer', value: (row) => row.correctAnswer },
  { header: 'Total responses', value: (row) => row.totalResponses },
  { header: 'Correct responses', value: (row) => row.correctResponses },
  { header: 'Unique learners', value: (row) => row.uniqueLearnersCount },
  {
    header: 'Correct rate (%)',
    value: (row) => (row.correctRate === null ? null : Math.round(row.correctRate * 1000) / 10),
  },
  { header: 'Active', value: (row) => (row.active ? 'yes' : 'no') },
  { header: 'Question ID', value: (row) => row.id },
  { header: 'Course ID', value: (row) => row.courseId },
];
