import {
  broadcastListQuery,
  broadcastListResponse,
  COURSE_MESSAGES,
  courseLearnerListQuery,
  courseLearnerListResponse,
  courseListQuery,
  courseListResponse,
  courseParams,
  courseSchema,
  createCourseInput,
  deleteCourseBody,
  deleteCourseQuery,
  deleteCourseResponse,
  setBroadcastInput,
  setBroadcastResponse,
  updateCourseInput,
  type CourseBody,
  type CourseLearnerBody,
} from '@courselens/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { Publish } from '../../jobs/job-runner';
import { AppError } from '../../errors';
import { MAX_EXPORT_ROWS, sendCsv, type CsvColumn } from '../../lib/csv';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  createCourse,
  deleteCourse,
  exportCourseLearners,
  exportCourses,
  getCourse,
  listBroadcasts,
  listCourseLearners,
  listCourses,
  setBroadcast,
  updateCourse,
} from './courses.service';

const courseCsvColumns: CsvColumn<CourseBody>[] = [
  { header: 'Title', value: (row) => row.courseTitle },
  { header: 'External ID', value: (row) => row.externalCourseId },
  { header: 'Description', value: (row) => row.description },
  { header: 'Learners', value: (row) => row.learners },
  { header: 'Views', value: (row) => row.views },
  { header: 'Last activity', value: (row) => row.lastActivityAt },
  { header: 'Created', value: (row) => row.createdAt },
  { header: 'Broadcast message', value: (row) => row.broadcastMessage },
];

const courseLearnerCsvColumns: CsvColumn<CourseLearnerBody>[] = [
  { header: 'Name', value: (row) => row.name },
  { header: 'Email', value: (row) => row.email },
  { header: 'First access', value: (row) => row.first_access },
  { header: 'Last access', value: (row) => row.last_access },
  { header: 'Access count', value: (row) => row.access_count },
];

/** PostgreSQL undefined_column about the soft-delete columns, from either driver. */
function isMissingDeletedColumn(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; message?: string };
    if (candidate.code === '42703' && /deleted/i.test(candidate.message ?? '')) return true;
  }
  return false;
}

/**
 * Errors of DELETE /api/courses/:courseId in the spec's words (section 8):
 * no session → 'No active session. Please login and try again.'; a database
 * without the soft-delete columns → the schema-update message; any other
 * unexpected failure → 'Failed to delete course'. Everything else (404, 400)
 * goes on to the app's error handler unchanged.
 */
function handleDeleteCourseError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
    throw new AppError('UNAUTHENTICATED', COURSE_MESSAGES.noSession);
  }
  if (error instanceof AppError || (typeof error.statusCode === 'number' && error.statusCode < 500)) {
    throw error;
  }
  request.log.error({ err: error }, 'course deletion failed');
  const message = isMissingDeletedColumn(error)
    ? COURSE_MESSAGES.schemaNeedsUpdate
    : COURSE_MESSAGES.deleteFailed;
  void reply.status(500).send({ error: message, code: 'INTERNAL_ERROR' });
}

/** Courses of the request's organization, their learners and broadcasts (spec sections 2, 3, 8). */
export const courseRoutes: FastifyPluginAsyncZod<{ db: Database; publish: Publish }> = async (
  app,
  { db, publish },
) => {
  app.get(
    '/api/courses',
    {
      schema: {
        tags: ['courses'],
        summary: 'List courses with learners, views (course runs) and last activity',
        querystring: courseListQuery,
        response: { 200: courseListResponse },
      },
    },
    async (request) =>
      listCourses(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.get(
    '/api/courses/export',
    {
      schema: {
        tags: ['courses'],
        summary: `Courses as CSV (the list's search and sort; at most ${MAX_EXPORT_ROWS} rows)`,
        querystring: courseListQuery.omit({ page: true, pageSize: true }),
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const rows = await exportCourses(db, {
        organizationId: requireTenant(request).organizationId,
        ...request.query,
        limit: MAX_EXPORT_ROWS,
      });
      return sendCsv(reply, 'courses.csv', courseCsvColumns, rows);
    },
  );

  app.post(
    '/api/courses',
    {
      schema: {
        tags: ['courses'],
        summary: 'Create a course (its external id must be free among live courses)',
        body: createCourseInput,
        response: { 201: courseSchema },
      },
    },
    async (request, reply) => {
      const course = await createCourse(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        ...request.body,
      });
      return reply.status(201).send(course);
    },
  );

  app.get(
    '/api/courses/:courseId',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: 'One course with its counts',
        params: courseParams,
        response: { 200: courseSchema },
      },
    },
    async (request) => getCourse(db, requireTenant(request).organizationId, request.params.courseId),
  );

  app.patch(
    '/api/courses/:courseId',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: "Change a course's title, external id or description",
        params: courseParams,
        body: updateCourseInput,
        response: { 200: courseSchema },
      },
    },
    async (request) =>
      updateCourse(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        courseId: request.params.courseId,
        ...request.body,
      }),
  );

  app.delete(
    '/api/courses/:courseId',
    {
      config: { access: 'owner:course-deletion', resource: 'course' },
      errorHandler: handleDeleteCourseError,
      schema: {
        tags: ['courses'],
        summary:
          'Delete a course (spec section 8): flags keepLearnerData, deleteRelatedReports, removePipelineReferences in the query or body, default false',
        params: courseParams,
        querystring: deleteCourseQuery,
        body: deleteCourseBody,
        response: { 200: deleteCourseResponse },
      },
    },
    async (request) => {
      const { query, body } = request;
      return deleteCourse(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        courseId: request.params.courseId,
        keepLearnerData: query.keepLearnerData ?? body?.keepLearnerData ?? false,
        deleteRelatedReports: query.deleteRelatedReports ?? body?.deleteRelatedReports ?? false,
        removePipelineReferences: query.removePipelineReferences ?? body?.removePipelineReferences ?? false,
        publish,
      });
    },
  );

  app.get(
    '/api/courses/:courseId/learners',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: "A course's learners with first_access, last_access and access_count (from course runs)",
        params: courseParams,
        querystring: courseLearnerListQuery,
        response: { 200: courseLearnerListResponse },
      },
    },
    async (request) =>
      listCourseLearners(db, {
        organizationId: requireTenant(request).organizationId,
        courseId: request.params.courseId,
        ...request.query,
      }),
  );

  app.get(
    '/api/courses/:courseId/learners/export',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: "A course's learners as CSV (the list's search and sort)",
        params: courseParams,
        querystring: courseLearnerListQuery.omit({ page: true, pageSize: true }),
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const rows = await exportCourseLearners(db, {
        organizationId: requireTenant(request).organizationId,
        courseId: request.params.courseId,
        ...request.query,
        limit: MAX_EXPORT_ROWS,
      });
      return sendCsv(reply, 'course-learners.csv', courseLearnerCsvColumns, rows);
    },
  );

  app.get(
    '/api/courses/:courseId/broadcasts',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: "A course's current broadcast message and past broadcasts (author, time), newest first",
        params: courseParams,
        querystring: broadcastListQuery,
        response: { 200: broadcastListResponse },
      },
    },
    async (request) =>
      listBroadcasts(db, {
        organizationId: requireTenant(request).organizationId,
        courseId: request.params.courseId,
        ...request.query,
      }),
  );

  app.put(
    '/api/courses/:courseId/broadcast',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['courses'],
        summary: "Set the message the course shows (null clears it); kept in the course's broadcast history",
        params: courseParams,
        body: setBroadcastInput,
        response: { 200: setBroadcastResponse },
      },
    },
    async (request) =>
      setBroadcast(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        courseId: request.params.courseId,
        message: request.body.message,
      }),
  );
};
