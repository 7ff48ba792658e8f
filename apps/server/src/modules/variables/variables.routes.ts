import {
  exportCourseVariablesQuery,
  exportVariablesQuery,
  listCourseVariablesQuery,
  listCourseVariablesResponse,
  listVariableCoursesResponse,
  listVariablesQuery,
  listVariablesResponse,
  updateVariableInput,
  variableCourseParams,
  variableParams,
  variableSchema,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { MAX_EXPORT_ROWS, sendCsv } from '../../lib/csv';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  exportVariables,
  getCourseHeading,
  listVariableCourses,
  listVariables,
  updateVariable,
  variableCsvColumns,
} from './variables.service';

/**
 * Variables of the request's organization: the
 * list with usage counts, one course's list, CSV exports of both, and the
 * active flag and description update.
 */
export const variableRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/variables',
    {
      schema: {
        tags: ['variables'],
        summary: 'List variables with their course, data type and usage count',
        querystring: listVariablesQuery,
        response: { 200: listVariablesResponse },
      },
    },
    async (request) =>
      listVariables(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.get(
    '/api/variables/export',
    {
      schema: {
        tags: ['variables'],
        summary: 'Export the variables list as CSV (same filters and sort, every page)',
        querystring: exportVariablesQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const rows = await exportVariables(
        db,
        { organizationId: requireTenant(request).organizationId, ...request.query },
        MAX_EXPORT_ROWS,
      );
      return sendCsv(reply, 'variables', variableCsvColumns, rows);
    },
  );

  app.get(
    '/api/variables/courses',
    {
      schema: {
        tags: ['variables'],
        summary: 'Courses that have variables (the course filter of the list)',
        response: { 200: listVariableCoursesResponse },
      },
    },
    async (request) => ({ courses: await listVariableCourses(db, requireTenant(request).organizationId) }),
  );

  app.get(
    '/api/courses/:courseId/variables',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['variables'],
        summary: "List one course's variables with their usage count, and the course",
        params: variableCourseParams,
        querystring: listCourseVariablesQuery,
        response: { 200: listCourseVariablesResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      const { courseId } = request.params;
      const [course, list] = await Promise.all([
        getCourseHeading(db, organizationId, courseId),
        listVariables(db, { organizationId, courseId, ...request.query }),
      ]);
      return { ...list, course };
    },
  );

  app.get(
    '/api/courses/:courseId/variables/export',
    {
      config: { resource: 'course' },
      schema: {
        tags: ['variables'],
        summary: "Export one course's variables as CSV",
        params: variableCourseParams,
        querystring: exportCourseVariablesQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { organizationId } = requireTenant(request);
      const { courseId } = request.params;
      const course = await getCourseHeading(db, organizationId, courseId);
      const rows = await exportVariables(db, { organizationId, courseId, ...request.query }, MAX_EXPORT_ROWS);
      return sendCsv(reply, `${course.courseTitle}-variables`, variableCsvColumns, rows);
    },
  );

  app.patch(
    '/api/variables/:variableId',
    {
      config: { resource: 'variable' },
      schema: {
        tags: ['variables'],
        summary: 'Turn a variable on or off, or change its description (by id and name)',
        description:
          'The description is updated by id and name (send `name` as you last saw it): a variable renamed since answers 409.',
        params: variableParams,
        body: updateVariableInput,
        response: { 200: variableSchema },
      },
    },
    async (request) =>
      updateVariable(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        variableId: request.params.variableId,
        ...request.body,
      }),
  );
};
