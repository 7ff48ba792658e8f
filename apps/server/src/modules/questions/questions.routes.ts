import {
  exportCourseQuestionsQuery,
  exportQuestionsQuery,
  listCourseQuestionsQuery,
  listCourseQuestionsResponse,
  listQuestionCoursesResponse,
  listQuestionsQuery,
  listQuestionsResponse,
  questionCourseParams,
  questionParams,
  questionSchema,
  queryBoolean,
  updateQuestionInput,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { MAX_EXPORT_ROWS, sendCsv } from '../../lib/csv';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import { getCourseHeading } from '../variables/variables.service';
import {
  exportQuestions,
  listQuestionCourses,
  listQuestions,
  questionCsvColumns,
  updateQuestion,
} from './questions.service';

/**
 * Questions of the request's organization: active
 * ones by default, with answer totals aggregated in SQL; one course's list;
 * CSV exports of both; the active flag.
 */
export const questionRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/questions',
    {
      schema: {
        tags: ['questions'],
        summary: 'List active questions with total and correct responses, unique learners and correct rate',
        querystring: listQuestionsQuery,
        response: { 200: listQuestionsResponse },
      },
    },
    async (request) =>
      listQuestions(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.get(
    '/api/questions/export',
    {
      schema: {
        tags: ['questions'],
        summary: 'Export the questions list as CSV (same filters and sort, every page)',
        querystring: exportQuestionsQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const rows = await exportQuestions(
        db,
        { organizationId: requireTenant(request).organizationId, ...request.query },
        MAX_EXPORT_ROWS,
      );
      return sendCsv(reply, 'questions', questionCsvColumns, rows);
    },
  );

  app.get(
    '/api/questions/courses',
    {
      schema: {
        tags: ['questions'],
        summary: 'Courses that have (active, or with active=false hidden) questions: the course filter',
        querystring: z.object({ active: queryBoolean.default(true) }),
        response: { 200: listQuestionCoursesResponse },
      },
    },
    async (request) => ({
      courses: await listQuestionCourses(db, requireTenant(request).organizationId, request.query.active),
    }),
  );

  app.get(
    '/api/courses/:courseId/questions',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['questions'],
        summary: "List one course's active questions with their totals, and the course",
        params: questionCourseParams,
        querystring: listCourseQuestionsQuery,
        response: { 200: listCourseQuestionsResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      const { courseId } = request.params;
      const [course, list] = await Promise.all([
        getCourseHeading(db, organizationId, courseId),
        listQuestions(db, { organizationId, courseId, ...request.query }),
      ]);
      return { ...list, course };
    },
  );

  app.get(
    '/api/courses/:courseId/questions/export',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['questions'],
        summary: "Export one course's questions as CSV",
        params: questionCourseParams,
        querystring: exportCourseQuestionsQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { organizationId } = requireTenant(request);
      const { courseId } = request.params;
      const course = await getCourseHeading(db, organizationId, courseId);
      const rows = await exportQuestions(db, { organizationId, courseId, ...request.query }, MAX_EXPORT_ROWS);
      return sendCsv(reply, `${course.courseTitle}-questions`, questionCsvColumns, rows);
    },
  );

  app.patch(
    '/api/questions/:questionId',
    {
      config: { resource: 'question' },
      schema: {
        tags: ['questions'],
        summary: 'Turn a question on (listed) or off (hidden)',
        params: questionParams,
        body: updateQuestionInput,
        response: { 200: questionSchema },
      },
    },
    async (request) =>
      updateQuestion(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        questionId: request.params.questionId,
        active: request.body.active ?? true,
      }),
  );
};
