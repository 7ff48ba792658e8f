import {
  exportLearnerCoursesQuery,
  exportLearnerResponsesQuery,
  exportLearnersQuery,
  exportLearnerVariablesQuery,
  learnerCourseParams,
  learnerParams,
  learnerProfileSchema,
  listLearnerCoursesQuery,
  listLearnerCoursesResponse,
  listLearnerCourseVariablesResponse,
  listLearnerResponsesQuery,
  listLearnerResponsesResponse,
  listLearnersQuery,
  listLearnersResponse,
  listLearnerVariablesQuery,
  listLearnerVariablesResponse,
  type LearnerCourse,
  type LearnerListItem,
  type LearnerResponse,
  type LearnerVariable,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { sendCsv, type CsvColumn } from '../../lib/csv';
import { requireTenant } from '../../plugins/tenant';
import {
  getLearner,
  listLearnerCourses,
  listLearnerCourseVariables,
  listLearnerResponses,
  listLearners,
  listLearnerVariables,
} from './learners.service';

const csvResponse = { 200: z.string().describe('CSV (UTF-8 with BOM, CRLF line ends)') };

const learnerCsvColumns: CsvColumn<LearnerListItem>[] = [
  { header: 'Name', value: (row) => row.name },
  { header: 'Email', value: (row) => row.email },
  { header: 'Courses', value: (row) => row.courses },
  { header: 'Last activity', value: (row) => row.lastActivityAt },
  { header: 'Created at', value: (row) => row.createdAt },
  { header: 'Learner ID', value: (row) => row.id },
];

const learnerCourseCsvColumns: CsvColumn<LearnerCourse>[] = [
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'External course ID', value: (row) => row.externalCourseId },
  { header: 'Runs', value: (row) => row.runs },
  { header: 'First access', value: (row) => row.firstAccessAt },
  { header: 'Last access', value: (row) => row.lastAccessAt },
  { header: 'Completed', value: (row) => (row.completed ? 'yes' : 'no') },
  { header: 'Completed at', value: (row) => row.completedAt },
  { header: 'Course ID', value: (row) => row.courseId },
];

const learnerVariableCsvColumns: CsvColumn<LearnerVariable>[] = [
  { header: 'Variable', value: (row) => row.name },
  { header: 'Title', value: (row) => row.title },
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Data type', value: (row) => row.dataType },
  { header: 'Value', value: (row) => row.value },
  { header: 'Recorded at', value: (row) => row.recordedAt },
  { header: 'Variable ID', value: (row) => row.variableId },
];

const learnerResponseCsvColumns: CsvColumn<LearnerResponse>[] = [
  { header: 'Question', value: (row) => row.questionText },
  { header: 'Slide', value: (row) => row.slideNumber },
  { header: 'Question number', value: (row) => row.questionNumber },
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Answer', value: (row) => row.answer },
  { header: 'Correct', value: (row) => (row.correct === null ? null : row.correct ? 'yes' : 'no') },
  { header: 'Correct answer', value: (row) => row.correctAnswer },
  { header: 'Points', value: (row) => row.points },
  { header: 'Answered at', value: (row) => row.answeredAt },
];

/**
 * The learner screens: the organization's learners and
 * one learner's courses, variables and answers, each with a CSV export of
 * the same filters. `learnerId` (and `courseId`) are scoped by the tenant
 * plugin: another organization's learner is a 404 'Learner not found'.
 */
export const learnerRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/learners',
    {
      schema: {
        tags: ['learners'],
        summary: 'List learners: prefix search by name or e-mail, sort, pagination with an exact total',
        querystring: listLearnersQuery,
        response: { 200: listLearnersResponse },
      },
    },
    async (request) => {
      const { page, pageSize, ...filters } = request.query;
      return listLearners(
        db,
        { organizationId: requireTenant(request).organizationId, ...filters },
        { page, pageSize },
      );
    },
  );

  app.get(
    '/api/learners/export',
    {
      schema: {
        tags: ['learners'],
        summary: 'Export the learner list (same search and sort) as CSV',
        querystring: exportLearnersQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const list = await listLearners(
        db,
        { organizationId: requireTenant(request).organizationId, ...request.query },
        'export',
      );
      return sendCsv(reply, 'learners', learnerCsvColumns, list.items);
    },
  );

  app.get(
    '/api/learners/:learnerId',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: 'One learner with totals (courses, runs, variables, answers, points)',
        params: learnerParams,
        response: { 200: learnerProfileSchema },
      },
    },
    async (request) =>
      getLearner(db, {
        organizationId: requireTenant(request).organizationId,
        learnerId: request.params.learnerId,
      }),
  );

  app.get(
    '/api/learners/:learnerId/courses',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "A learner's courses: runs, first and last access, completion",
        params: learnerParams,
        querystring: listLearnerCoursesQuery,
        response: { 200: listLearnerCoursesResponse },
      },
    },
    async (request) => {
      const { page, pageSize, ...filters } = request.query;
      return listLearnerCourses(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...filters,
        },
        { page, pageSize },
      );
    },
  );

  app.get(
    '/api/learners/:learnerId/courses/export',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "Export a learner's courses as CSV",
        params: learnerParams,
        querystring: exportLearnerCoursesQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const list = await listLearnerCourses(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...request.query,
        },
        'export',
      );
      return sendCsv(reply, 'learner-courses', learnerCourseCsvColumns, list.items);
    },
  );

  app.get(
    '/api/learners/:learnerId/variables',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "A learner's latest value of each variable, with course, data type and time",
        params: learnerParams,
        querystring: listLearnerVariablesQuery,
        response: { 200: listLearnerVariablesResponse },
      },
    },
    async (request) => {
      const { page, pageSize, ...filters } = request.query;
      return listLearnerVariables(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...filters,
        },
        { page, pageSize },
      );
    },
  );

  app.get(
    '/api/learners/:learnerId/variables/export',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "Export a learner's latest variable values as CSV",
        params: learnerParams,
        querystring: exportLearnerVariablesQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const list = await listLearnerVariables(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...request.query,
        },
        'export',
      );
      return sendCsv(reply, 'learner-variables', learnerVariableCsvColumns, list.items);
    },
  );

  app.get(
    '/api/learners/:learnerId/courses/:courseId/variables',
    {
      config: { resource: ['learner', 'course'] },
      schema: {
        tags: ['learners'],
        summary: "A learner's latest values of one course's variables",
        params: learnerCourseParams,
        querystring: listLearnerVariablesQuery,
        response: { 200: listLearnerCourseVariablesResponse },
      },
    },
    async (request) => {
      const { page, pageSize, ...filters } = request.query;
      return listLearnerCourseVariables(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          courseId: request.params.courseId,
          ...filters,
        },
        { page, pageSize },
      );
    },
  );

  app.get(
    '/api/learners/:learnerId/courses/:courseId/variables/export',
    {
      config: { resource: ['learner', 'course'] },
      schema: {
        tags: ['learners'],
        summary: "Export a learner's latest values of one course's variables as CSV",
        params: learnerCourseParams,
        querystring: exportLearnerVariablesQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const list = await listLearnerCourseVariables(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          courseId: request.params.courseId,
          ...request.query,
        },
        'export',
      );
      return sendCsv(reply, 'learner-course-variables', learnerVariableCsvColumns, list.items);
    },
  );

  app.get(
    '/api/learners/:learnerId/responses',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "A page of a learner's answers: question, course, answer, correct, points, when",
        params: learnerParams,
        querystring: listLearnerResponsesQuery,
        response: { 200: listLearnerResponsesResponse },
      },
    },
    async (request) => {
      const { page, pageSize, ...filters } = request.query;
      return listLearnerResponses(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...filters,
        },
        { page, pageSize },
      );
    },
  );

  app.get(
    '/api/learners/:learnerId/responses/export',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "Export a learner's answers as CSV",
        params: learnerParams,
        querystring: exportLearnerResponsesQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const list = await listLearnerResponses(
        db,
        {
          organizationId: requireTenant(request).organizationId,
          learnerId: request.params.learnerId,
          ...request.query,
        },
        'export',
      );
      return sendCsv(reply, 'learner-responses', learnerResponseCsvColumns, list.items);
    },
  );
};
