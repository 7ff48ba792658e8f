import {
  LEARNING_MESSAGES,
  type LearnerCourse,
  type LearnerListItem,
  type LearnerProfile,
  type LearnerResponse,
  type LearnerVariable,
  type ListLearnerCoursesQuery,
  type ListLearnerCourseVariablesResponse,
  type ListLearnerResponsesQuery,
  type ListLearnersQuery,
  type ListLearnerVariablesQuery,
  type Paginated,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { MAX_EXPORT_ROWS } from '../../lib/csv';
import {
  countLearnerResponseRows,
  countLearnerRows,
  findCourseHeading,
  findLearnerProfileRow,
  listLearnerCourseRows,
  listLearnerResponseRows,
  listLearnerRows,
  listLearnerVariableRows,
  type LearnerCourseRow,
  type LearnerListRow,
  type LearnerResponseRow,
  type LearnerVariableRow,
  type Paging,
} from './learners.queries';

/** The paging of a list request, or every row up to the export cap. */
type PageRequest = { page: number; pageSize: number } | 'export';

function toPaging(request: PageRequest): Paging {
  return request === 'export'
    ? { limit: MAX_EXPORT_ROWS, offset: 0 }
    : { limit: request.pageSize, offset: (request.page - 1) * request.pageSize };
}

function pageOf(request: PageRequest, total: number) {
  return request === 'export'
    ? { page: 1, pageSize: Math.max(1, total) }
    : { page: request.page, pageSize: request.pageSize };
}

/** Both drivers return `timestamptz` as a Date; raw text is accepted too. */
function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}

function toListItem(row: LearnerListRow): LearnerListItem {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    courses: Number(row.courses),
    lastActivityAt: isoOrNull(row.last_activity_at),
    createdAt: iso(row.created_at),
  };
}

type ListInput<Query> = { organizationId: string } & Omit<Query, 'page' | 'pageSize'>;

/**
 * A page of the organization's learners, searched by the start of the name
 * or e-mail, with an exact total. Counts run beside the page query.
 */
export async function listLearners(
  db: Database,
  input: ListInput<ListLearnersQuery>,
  request: PageRequest,
): Promise<Paginated<LearnerListItem>> {
  const [rows, total] = await Promise.all([
    listLearnerRows(db, { ...input, ...toPaging(request) }),
    request === 'export' ? Promise.resolve(-1) : countLearnerRows(db, input),
  ]);
  const items = rows.map(toListItem);
  const exactTotal = total === -1 ? items.length : total;
  return { items, total: exactTotal, ...pageOf(request, exactTotal) };
}

/** One learner with the totals of their (live) courses; 404 when not in the organization. */
export async function getLearner(
  db: Database,
  input: { organizationId: string; learnerId: string },
): Promise<LearnerProfile> {
  const row = await findLearnerProfileRow(db, input.organizationId, input.learnerId);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.learnerNotFound);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    createdAt: iso(row.created_at),
    lastActivityAt: isoOrNull(row.last_activity_at),
    totals: {
      courses: Number(row.courses),
      completedCourses: Number(row.completed_courses),
      runs: Number(row.runs),
      variables: Number(row.variables),
      responses: Number(row.responses),
      correctResponses: Number(row.correct_responses),
      points: Number(row.points ?? 0),
    },
  };
}

/**
 * Lists whose total comes from a `count(*) over ()` column: a page past the
 * end has no row to read it from, so the total is then counted with page 1.
 */
async function withWindowTotal<Row extends { total: number }>(
  request: PageRequest,
  load: (paging: Paging) => Promise<Row[]>,
): Promise<{ rows: Row[]; total: number }> {
  const rows = await load(toPaging(request));
  if (rows.length > 0) return { rows, total: Number(rows[0]?.total ?? 0) };
  if (request === 'export' || request.page === 1) return { rows, total: 0 };
  const [first] = await load({ limit: 1, offset: 0 });
  return { rows, total: Number(first?.total ?? 0) };
}

function toLearnerCourse(row: LearnerCourseRow): LearnerCourse {
  return {
    courseId: row.course_id,
    courseTitle: row.course_title,
    externalCourseId: row.external_course_id,
    runs: Number(row.runs),
    firstAccessAt: iso(row.first_access_at),
    lastAccessAt: iso(row.last_access_at),
    completed: Boolean(row.completed),
    completedAt: isoOrNull(row.completed_at),
  };
}

export async function listLearnerCourses(
  db: Database,
  input: ListInput<ListLearnerCoursesQuery> & { learnerId: string },
  request: PageRequest,
): Promise<Paginated<LearnerCourse>> {
  const { rows, total } = await withWindowTotal(request, (paging) =>
    listLearnerCourseRows(db, { ...input, ...paging }),
  );
  return { items: rows.map(toLearnerCourse), total, ...pageOf(request, total) };
}

function toLearnerVariable(row: LearnerVariableRow): LearnerVariable {
  return {
    variableId: row.variable_id,
    name: row.name,
    title: row.title,
    courseId: row.course_id,
    courseTitle: row.course_title,
    dataType: row.data_type,
    value: row.value,
    recordedAt: iso(row.recorded_at),
  };
}

export async function listLearnerVariables(
  db: Database,
  input: ListInput<ListLearnerVariablesQuery> & { learnerId: string },
  request: PageRequest,
): Promise<Paginated<LearnerVariable>> {
  const { rows, total } = await withWindowTotal(request, (paging) =>
    listLearnerVariableRows(db, { ...input, ...paging }),
  );
  return { items: rows.map(toLearnerVariable), total, ...pageOf(request, total) };
}

/** The learner's latest values of one course's variables, with the course's title. */
export async function listLearnerCourseVariables(
  db: Database,
  input: ListInput<ListLearnerVariablesQuery> & { learnerId: string; courseId: string },
  request: PageRequest,
): Promise<ListLearnerCourseVariablesResponse> {
  const [course, list] = await Promise.all([
    findCourseHeading(db, input.organizationId, input.courseId),
    listLearnerVariables(db, input, request),
  ]);
  if (!course) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return {
    ...list,
    course: { id: course.id, courseTitle: course.course_title, externalCourseId: course.external_course_id },
  };
}

function toLearnerResponse(row: LearnerResponseRow): LearnerResponse {
  return {
    id: row.id,
    questionId: row.question_id,
    questionText: row.question_text,
    slideNumber: row.slide_number,
    questionNumber: row.question_number,
    courseId: row.course_id,
    courseTitle: row.course_title,
    answer: row.answer,
    correct: row.correct,
    correctAnswer: row.correct_answer,
    points: row.points === null ? null : Number(row.points),
    answeredAt: iso(row.answered_at),
  };
}

export async function listLearnerResponses(
  db: Database,
  input: ListInput<ListLearnerResponsesQuery> & { learnerId: string },
  request: PageRequest,
): Promise<Paginated<LearnerResponse>> {
  const [rows, total] = await Promise.all([
    listLearnerResponseRows(db, { ...input, ...toPaging(request) }),
    request === 'export' ? Promise.resolve(-1) : countLearnerResponseRows(db, input),
  ]);
  const items = rows.map(toLearnerResponse);
  const exactTotal = total === -1 ? items.length : total;
  return { items, total: exactTotal, ...pageOf(request, exactTotal) };
}
