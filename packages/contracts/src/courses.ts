import { z } from 'zod';
import { uuidSchema } from './ids';

import { listQuerySchema, paginatedSchema, queryBoolean } from './list';

/**
 * Messages of the learning data (courses, learners, variables, questions),
 * shared by the server and the web app. The spec's own texts are verbatim.
 */
export const LEARNING_MESSAGES = {
  courseNotFound: 'Course not found',
  learnerNotFound: 'Learner not found',
  variableNotFound: 'Variable not found',
  questionNotFound: 'Question not found',
} as const;

/** Messages of the courses screens and API; spec section 8 texts are verbatim. */
export const COURSE_MESSAGES = {
  /** Spec section 8: course deletion without a session. */
  noSession: 'No active session. Please login and try again.',
  /** Spec section 8: a deletion that failed without a server explanation. */
  deleteFailed: 'Failed to delete course',
  /** Spec section 8: the database lacks the soft-delete columns. */
  schemaNeedsUpdate:
    'Database schema needs update. Please contact your administrator to run the course-deletion.sql script.',
  titleRequired: 'Course title is required',
  titleTooLong: 'Course title must be at most 200 characters long',
  externalIdTooLong: 'External course ID must be at most 128 characters long',
  descriptionTooLong: 'Description must be at most 2000 characters long',
  nothingToUpdate: 'Send at least one of courseTitle, externalCourseId or description',
  broadcastEmpty: 'Write a message, or clear the broadcast instead',
  broadcastTooLong: 'Broadcast message must be at most 1000 characters long',
} as const;

/** 409 when another live course of the organization already uses the external id. */
export function duplicateExternalCourseIdMessage(externalCourseId: string): string {
  return `A course with external ID "${externalCourseId}" already exists`;
}

/**
 * What the web shows when a deletion fails (spec section 8): the server's
 * text, else 'Failed to delete course'; a database complaint about a missing
 * deleted column becomes the schema-update message.
 */
export function courseDeletionErrorMessage(serverMessage: string | null | undefined): string {
  const message = serverMessage?.trim();
  if (!message) return COURSE_MESSAGES.deleteFailed;
  if (/column\s+"?[\w.]*(is_deleted|deleted_at|deleted)"?\s+.*does not exist/i.test(message)) {
    return COURSE_MESSAGES.schemaNeedsUpdate;
  }
  return message;
}

export const courseParams = z.object({ courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound) });

const courseTitleField = z
  .string({ error: COURSE_MESSAGES.titleRequired })
  .trim()
  .min(1, COURSE_MESSAGES.titleRequired)
  .max(200, COURSE_MESSAGES.titleTooLong);

/** Empty or blank means "no external id" (null). */
const externalCourseIdField = z
  .string()
  .trim()
  .max(128, COURSE_MESSAGES.externalIdTooLong)
  .nullish()
  .transform((value) => (value ? value : null));

const descriptionField = z
  .string()
  .trim()
  .max(2000, COURSE_MESSAGES.descriptionTooLong)
  .nullish()
  .transform((value) => (value ? value : null));

/** POST /api/courses */
export const createCourseInput = z.object({
  courseTitle: courseTitleField,
  externalCourseId: externalCourseIdField,
  description: descriptionField,
});
export type CreateCourseInput = z.input<typeof createCourseInput>;

/** PATCH /api/courses/:courseId: any of the fields; null or '' clears the optional ones. */
export const updateCourseInput = z
  .object({
    courseTitle: courseTitleField.optional(),
    externalCourseId: z
      .string()
      .trim()
      .max(128, COURSE_MESSAGES.externalIdTooLong)
      .nullable()
      .optional()
      .transform((value) => (value === undefined ? undefined : value || null)),
    description: z
      .string()
      .trim()
      .max(2000, COURSE_MESSAGES.descriptionTooLong)
      .nullable()
      .optional()
      .transform((value) => (value === undefined ? undefined : value || null)),
  })
  .refine(
    (input) =>
      input.courseTitle !== undefined ||
      input.externalCourseId !== undefined ||
      input.description !== undefined,
    { message: COURSE_MESSAGES.nothingToUpdate },
  );
export type UpdateCourseInput = z.input<typeof updateCourseInput>;

/** A course with its derived counts (views = number of course runs). */
export const courseSchema = z.object({
  id: z.string(),
  courseTitle: z.string(),
  externalCourseId: z.string().nullable(),
  description: z.string().nullable(),
  broadcastMessage: z.string().nullable(),
  /** Distinct learners with at least one run. */
  learners: z.number().int().nonnegative(),
  /** Number of course runs (spec: view count). */
  views: z.number().int().nonnegative(),
  /** Latest run start, value or answer; null before any. */
  lastActivityAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CourseBody = z.infer<typeof courseSchema>;

export const COURSE_SORT_KEYS = [
  'title',
  'externalCourseId',
  'learners',
  'views',
  'lastActivity',
  'createdAt',
] as const;
export type CourseSortKey = (typeof COURSE_SORT_KEYS)[number];
export const COURSE_LIST_DEFAULTS = { sort: 'title', order: 'asc' } as const;

/** GET /api/courses and /api/courses/export: search on title and external id. */
export const courseListQuery = listQuerySchema(COURSE_SORT_KEYS, COURSE_LIST_DEFAULTS);
export type CourseListQuery = z.input<typeof courseListQuery>;

export const courseListResponse = paginatedSchema(courseSchema);
export type CourseListResponse = z.infer<typeof courseListResponse>;

/**
 * DELETE /api/courses/:courseId flags (spec section 7), in the query string
 * (as the spec sends them) or the JSON body; every one defaults to false.
 */
export const deleteCourseQuery = z.object({
  keepLearnerData: queryBoolean.optional(),
  deleteRelatedReports: queryBoolean.optional(),
  removePipelineReferences: queryBoolean.optional(),
});
export const deleteCourseBody = z
  .object({
    keepLearnerData: z.boolean({ error: 'keepLearnerData must be true or false' }).optional(),
    deleteRelatedReports: z.boolean({ error: 'deleteRelatedReports must be true or false' }).optional(),
    removePipelineReferences: z
      .boolean({ error: 'removePipelineReferences must be true or false' })
      .optional(),
  })
  .nullish();
export type DeleteCourseOptions = {
  keepLearnerData: boolean;
  deleteRelatedReports: boolean;
  removePipelineReferences: boolean;
};

export const deleteCourseResponse = z.object({
  id: z.string(),
  deleted: z.literal(true),
  keepLearnerData: z.boolean(),
  deleteRelatedReports: z.boolean(),
  removePipelineReferences: z.boolean(),
  /** What the deletion removed besides marking the course deleted. */
  removed: z.object({
    courseRuns: z.number().int().nonnegative(),
    variableValues: z.number().int().nonnegative(),
    responses: z.number().int().nonnegative(),
    reportEntries: z.number().int().nonnegative(),
    pipelineNodes: z.number().int().nonnegative(),
  }),
  /**
   * The pipelines whose course nodes go (with removePipelineReferences), each
   * saved as a new version once the deletion is processed; empty otherwise.
   */
  pipelines: z.array(
    z.object({ id: z.string(), name: z.string(), removedNodes: z.number().int().nonnegative() }),
  ),
});
export type DeleteCourseResponse = z.infer<typeof deleteCourseResponse>;

/** The choices of the delete dialog, in the spec's words. */
export const COURSE_DELETION_CHOICES = [
  {
    key: 'keepLearnerData',
    label: 'Keep learner data',
    description:
      'Keep the learners’ course runs, variable values and question responses. Otherwise they are deleted with the course.',
  },
  {
    key: 'deleteRelatedReports',
    label: 'Delete related reports',
    description: 'Remove the custom-report entries (variables and questions) that point at this course.',
  },
  {
    key: 'removePipelineReferences',
    label: 'Remove pipeline references',
    description: 'Remove the course nodes of pipelines that point at this course, with their connections.',
  },
] as const satisfies readonly { key: keyof DeleteCourseOptions; label: string; description: string }[];

/** One learner of a course, derived from the course runs (spec section 3). */
export const courseLearnerSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  first_access: z.string(),
  last_access: z.string(),
  access_count: z.number().int().positive(),
});
export type CourseLearnerBody = z.infer<typeof courseLearnerSchema>;

export const COURSE_LEARNER_SORT_KEYS = [
  'name',
  'email',
  'firstAccess',
  'lastAccess',
  'accessCount',
] as const;
export type CourseLearnerSortKey = (typeof COURSE_LEARNER_SORT_KEYS)[number];
export const COURSE_LEARNER_LIST_DEFAULTS = { sort: 'lastAccess', order: 'desc' } as const;

/** GET /api/courses/:courseId/learners (and /export): search on name and e-mail. */
export const courseLearnerListQuery = listQuerySchema(COURSE_LEARNER_SORT_KEYS, COURSE_LEARNER_LIST_DEFAULTS);
export type CourseLearnerListQuery = z.input<typeof courseLearnerListQuery>;

export const courseLearnerListResponse = paginatedSchema(courseLearnerSchema);
export type CourseLearnerListResponse = z.infer<typeof courseLearnerListResponse>;

/** PUT /api/courses/:courseId/broadcast: a message to show in the course, or null to clear it. */
export const setBroadcastInput = z.object({
  message: z
    .string({ error: 'message must be a text or null' })
    .trim()
    .min(1, COURSE_MESSAGES.broadcastEmpty)
    .max(1000, COURSE_MESSAGES.broadcastTooLong)
    .nullable(),
});
export type SetBroadcastInput = z.input<typeof setBroadcastInput>;

/** One past broadcast (message null = the broadcast was cleared). */
export const broadcastSchema = z.object({
  id: z.string(),
  message: z.string().nullable(),
  authorName: z.string().nullable(),
  createdAt: z.string(),
});
export type BroadcastBody = z.infer<typeof broadcastSchema>;

export const broadcastListQuery = z.object({
  page: listQuerySchema(['createdAt'], { sort: 'createdAt', order: 'desc' }).shape.page,
  pageSize: listQuerySchema(['createdAt'], { sort: 'createdAt', order: 'desc' }).shape.pageSize,
});
export type BroadcastListQuery = z.input<typeof broadcastListQuery>;

/** GET /api/courses/:courseId/broadcasts: the current message and the history, newest first. */
export const broadcastListResponse = paginatedSchema(broadcastSchema).extend({
  currentMessage: z.string().nullable(),
});
export type BroadcastListResponse = z.infer<typeof broadcastListResponse>;

/** 200 of PUT /api/courses/:courseId/broadcast. */
export const setBroadcastResponse = z.object({
  currentMessage: z.string().nullable(),
  broadcast: broadcastSchema,
});
export type SetBroadcastResponse = z.infer<typeof setBroadcastResponse>;
