import {
  duplicateExternalCourseIdMessage,
  LEARNING_MESSAGES,
  type BroadcastBody,
  type BroadcastListResponse,
  type CourseBody,
  type CourseLearnerBody,
  type CourseLearnerSortKey,
  type CourseListResponse,
  type CourseSortKey,
  type DeleteCourseOptions,
  type DeleteCourseResponse,
  type Paginated,
  type SetBroadcastResponse,
  type SortOrder,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { Publish } from '../../jobs/job-runner';
import { AppError } from '../../errors';
import { insertActivity } from '../organizations/organizations.queries';
import { assertCanAdd } from '../billing/entitlements';
import { isUniqueViolation } from '../organizations/organizations.service';
import { listPipelinesReferencingCourse } from '../pipelines/pipelines.service';
import {
  deleteCourseRows,
  findBroadcastMessage,
  findCourseRow,
  findLiveCourseByExternalId,
  insertCourseRow,
  listBroadcastRows,
  listCourseLearnerRows,
  listCourseRows,
  setBroadcastRows,
  updateCourseRow,
  type BroadcastRow,
  type CourseLearnerRow,
  type CourseRow,
  type DeletionCounts,
} from './courses.queries';

const EXTERNAL_ID_CONSTRAINT = 'courses_org_external_id_unique';

function toCourseBody(row: CourseRow): CourseBody {
  return {
    id: row.id,
    courseTitle: row.courseTitle,
    externalCourseId: row.externalCourseId,
    description: row.description,
    broadcastMessage: row.broadcastMessage,
    learners: row.learners,
    views: row.views,
    lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toCourseLearnerBody(row: CourseLearnerRow): CourseLearnerBody {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    first_access: row.firstAccess.toISOString(),
    last_access: row.lastAccess.toISOString(),
    access_count: row.accessCount,
  };
}

function toBroadcastBody(row: BroadcastRow): BroadcastBody {
  return {
    id: row.id,
    message: row.message,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
  };
}

type Page = { page: number; pageSize: number };

/** A page of the organization's live courses with learners, views and last activity. */
export async function listCourses(
  db: Database,
  input: Page & { organizationId: string; q?: string | undefined; sort: CourseSortKey; order: SortOrder },
): Promise<CourseListResponse> {
  const { rows, total } = await listCourseRows(db, {
    ...input,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return { items: rows.map(toCourseBody), total, page: input.page, pageSize: input.pageSize };
}

/** Every matching course (up to `limit`) for the CSV export, in the list's order. */
export async function exportCourses(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: CourseSortKey;
    order: SortOrder;
    limit: number;
  },
): Promise<CourseBody[]> {
  const { rows } = await listCourseRows(db, { ...input, offset: 0 });
  return rows.map(toCourseBody);
}

/** One live course of the organization with its counts; NOT_FOUND otherwise. */
export async function getCourse(db: Database, organizationId: string, courseId: string): Promise<CourseBody> {
  const row = await findCourseRow(db, organizationId, courseId);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return toCourseBody(row);
}

async function assertExternalIdFree(
  db: Database,
  organizationId: string,
  externalCourseId: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (!externalCourseId) return;
  if (await findLiveCourseByExternalId(db, organizationId, externalCourseId, exceptId)) {
    throw new AppError('CONFLICT', duplicateExternalCourseIdMessage(externalCourseId));
  }
}

/** Creates a course; its external id must be free among the organization's live courses (409), and the plan must allow one more (402). */
export async function createCourse(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    courseTitle: string;
    externalCourseId: string | null;
    description: string | null;
  },
): Promise<CourseBody> {
  const { organizationId, userId, ...values } = input;
  await assertExternalIdFree(db, organizationId, values.externalCourseId);
  let id: string;
  try {
    ({ id } = await db.transaction(async (tx) => {
      await assertCanAdd(tx, organizationId, 'courses');
      const row = await insertCourseRow(tx, { organizationId, ...values });
      await insertActivity(tx, {
        organizationId,
        actorUserId: userId,
        kind: 'course.created',
        subjectType: 'course',
        subjectId: row.id,
        summary: `Course “${values.courseTitle}” created`,
        details: { externalCourseId: values.externalCourseId },
      });
      return row;
    }));
  } catch (error) {
    // Two creations racing for one id: the unique index decides.
    if (isUniqueViolation(error, EXTERNAL_ID_CONSTRAINT) && values.externalCourseId) {
      throw new AppError('CONFLICT', duplicateExternalCourseIdMessage(values.externalCourseId));
    }
    throw error;
  }
  return getCourse(db, organizationId, id);
}

/** Changes a course's title, external id or description (409 for an external id in use). */
export async function updateCourse(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    courseId: string;
    courseTitle?: string | undefined;
    externalCourseId?: string | null | undefined;
    description?: string | null | undefined;
  },
): Promise<CourseBody> {
  const { organizationId, userId, courseId } = input;
  const changes: { courseTitle?: string; externalCourseId?: string | null; description?: string | null } = {};
  if (input.courseTitle !== undefined) changes.courseTitle = input.courseTitle;
  if (input.externalCourseId !== undefined) changes.externalCourseId = input.externalCourseId;
  if (input.description !== undefined) changes.description = input.description;
  await assertExternalIdFree(db, organizationId, changes.externalCourseId, courseId);
  try {
    await db.transaction(async (tx) => {
      const row = await updateCourseRow(tx, organizationId, courseId, changes);
      if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
      await insertActivity(tx, {
        organizationId,
        actorUserId: userId,
        kind: 'course.updated',
        subjectType: 'course',
        subjectId: courseId,
        summary: `Course “${row.courseTitle}” updated`,
        details: { changed: Object.keys(changes) },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, EXTERNAL_ID_CONSTRAINT) && changes.externalCourseId) {
      throw new AppError('CONFLICT', duplicateExternalCourseIdMessage(changes.externalCourseId));
    }
    throw error;
  }
  return getCourse(db, organizationId, courseId);
}

/**
 * Deletes a course per spec section 8 (see `deleteCourseRows`): one
 * transaction, recorded in the activity feed with who did it and the choices.
 * With `removePipelineReferences`, the answer names the pipelines that lose
 * the course's nodes; the pipelines module removes them when it handles
 * `course.deleted` (a new version of each), so the change has a version like
 * any other. Without an outbox, the rows are changed here, in the deletion.
 */
export async function deleteCourse(
  db: Database,
  input: DeleteCourseOptions & {
    organizationId: string;
    userId: string;
    courseId: string;
    /** The outbox: `course.deleted` goes out with the deletion or not at all. */
    publish?: Publish | undefined;
  },
  now = new Date(),
): Promise<DeleteCourseResponse> {
  const options: DeleteCourseOptions = {
    keepLearnerData: input.keepLearnerData,
    deleteRelatedReports: input.deleteRelatedReports,
    removePipelineReferences: input.removePipelineReferences,
  };
  const isHandedToPipelines = input.removePipelineReferences && input.publish !== undefined;
  const changedPipelines = isHandedToPipelines
    ? await listPipelinesReferencingCourse(db, input.organizationId, input.courseId)
    : [];
  const handedNodes = changedPipelines.reduce((sum, pipeline) => sum + pipeline.removedNodes, 0);
  const withHandedNodes = (counts: DeletionCounts): DeletionCounts =>
    isHandedToPipelines ? { ...counts, pipelineNodes: handedNodes } : counts;
  const result = await deleteCourseRows(db, {
    organizationId: input.organizationId,
    courseId: input.courseId,
    ...options,
    removePipelineReferences: input.removePipelineReferences && !isHandedToPipelines,
    now,
    activity: (courseTitle, counts) => ({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'course.deleted',
      subjectType: 'course',
      subjectId: input.courseId,
      summary: `Course “${courseTitle}” deleted`,
      details: {
        ...options,
        removed: withHandedNodes(counts),
        pipelines: changedPipelines.map(({ id, name }) => ({ id, name })),
      },
    }),
    announce: input.publish
      ? (tx) =>
          input.publish!(tx, {
            type: 'course.deleted',
            organizationId: input.organizationId,
            courseId: input.courseId,
            removePipelineReferences: input.removePipelineReferences,
          })
      : undefined,
  });
  if (!result) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return {
    id: input.courseId,
    deleted: true,
    ...options,
    removed: withHandedNodes(result.counts),
    pipelines: changedPipelines,
  };
}

/** A page of a course's learners with first access, last access and access count. */
export async function listCourseLearners(
  db: Database,
  input: Page & {
    organizationId: string;
    courseId: string;
    q?: string | undefined;
    sort: CourseLearnerSortKey;
    order: SortOrder;
  },
): Promise<Paginated<CourseLearnerBody>> {
  const { rows, total } = await listCourseLearnerRows(db, {
    ...input,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return { items: rows.map(toCourseLearnerBody), total, page: input.page, pageSize: input.pageSize };
}

export async function exportCourseLearners(
  db: Database,
  input: {
    organizationId: string;
    courseId: string;
    q?: string | undefined;
    sort: CourseLearnerSortKey;
    order: SortOrder;
    limit: number;
  },
): Promise<CourseLearnerBody[]> {
  const { rows } = await listCourseLearnerRows(db, { ...input, offset: 0 });
  return rows.map(toCourseLearnerBody);
}

/** The course's current broadcast message and a page of its history, newest first. */
export async function listBroadcasts(
  db: Database,
  input: Page & { organizationId: string; courseId: string },
): Promise<BroadcastListResponse> {
  const course = await findBroadcastMessage(db, input.organizationId, input.courseId);
  if (!course) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  const { rows, total } = await listBroadcastRows(db, {
    organizationId: input.organizationId,
    courseId: input.courseId,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return {
    currentMessage: course.broadcastMessage,
    items: rows.map(toBroadcastBody),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** Sets the message courses show (null clears it); history and activity in the same transaction. */
export async function setBroadcast(
  db: Database,
  input: { organizationId: string; userId: string; courseId: string; message: string | null },
): Promise<SetBroadcastResponse> {
  const result = await setBroadcastRows(db, {
    organizationId: input.organizationId,
    courseId: input.courseId,
    message: input.message,
    authorId: input.userId,
    activity: (courseTitle) => ({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'broadcast.set',
      subjectType: 'course',
      subjectId: input.courseId,
      summary:
        input.message === null
          ? `Broadcast of “${courseTitle}” cleared`
          : `Broadcast of “${courseTitle}” set`,
      details: { message: input.message },
    }),
  });
  if (!result) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return { currentMessage: input.message, broadcast: toBroadcastBody(result.broadcast) };
}
