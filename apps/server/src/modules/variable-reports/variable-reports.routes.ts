import {
  courseVariableChartQuery,
  courseVariableExportQuery,
  courseVariableHistoryQuery,
  courseVariableLeadersQuery,
  courseVariableParams,
  courseVariableReportQuery,
  variableChartQuery,
  variableChartResponse,
  variableExportQuery,
  variableHistoryQuery,
  variableHistoryResponse,
  variableLeadersQuery,
  variableLeadersResponse,
  variableReportQuery,
  variableReportResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { MAX_EXPORT_ROWS, sendCsv } from '../../lib/csv';
import { requireTenant } from '../../plugins/tenant';
import {
  exportVariableReport,
  getVariableChart,
  getVariableHistory,
  getVariableLeaders,
  getVariableReport,
  pickFilters,
  resolveVariableSource,
  variableReportCsvColumns,
  type VariableSource,
} from './variable-reports.service';

const tags = ['variable reports'];

/**
 * Variable reports, each view twice: the variable across the
 * organization's courses (`?name=`, optional `courseId`; with
 * `source=chatbot`, the variable across its agents), and one course's
 * variable (`/api/courses/:courseId/variables/:variableName/...`).
 */
export const variableReportRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const orgSource = (
    organizationId: string,
    query: { name: string; courseId?: string | undefined; source: 'course' | 'chatbot' },
  ) =>
    resolveVariableSource(
      db,
      query.source === 'chatbot'
        ? { kind: 'chatbot_variable', organizationId, name: query.name, chatbotId: query.courseId }
        : { kind: 'variable', organizationId, name: query.name, courseId: query.courseId },
    );
  const courseSource = (organizationId: string, params: { courseId: string; variableName: string }) => {
    const source: VariableSource = {
      kind: 'course_variable',
      organizationId,
      courseId: params.courseId,
      name: params.variableName,
    };
    return resolveVariableSource(db, source);
  };

  app.get(
    '/api/variable-reports/report',
    {
      schema: {
        tags,
        summary: "Every learner's latest value of a variable, with statistics",
        querystring: variableReportQuery,
        response: { 200: variableReportResponse },
      },
    },
    async (request) => {
      const source = await orgSource(requireTenant(request).organizationId, request.query);
      return getVariableReport(
        db,
        source,
        { ...request.query, filters: pickFilters(request.query) },
        { includeEmail: true },
      );
    },
  );

  app.get(
    '/api/variable-reports/export',
    {
      schema: {
        tags,
        summary: 'Export the variable report as CSV',
        querystring: variableExportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const source = await orgSource(requireTenant(request).organizationId, request.query);
      const rows = await exportVariableReport(
        db,
        source,
        { ...request.query, filters: pickFilters(request.query) },
        MAX_EXPORT_ROWS,
      );
      return sendCsv(reply, `${source.subject.name}-report`, variableReportCsvColumns, rows);
    },
  );

  app.get(
    '/api/variable-reports/history',
    {
      schema: {
        tags,
        summary: "One learner's values of a variable, newest first",
        querystring: variableHistoryQuery,
        response: { 200: variableHistoryResponse },
      },
    },
    async (request) => {
      const source = await orgSource(requireTenant(request).organizationId, request.query);
      return getVariableHistory(db, source, request.query.learnerId);
    },
  );

  app.get(
    '/api/variable-reports/chart',
    {
      schema: {
        tags,
        summary: 'Distribution and trend of a variable',
        querystring: variableChartQuery,
        response: { 200: variableChartResponse },
      },
    },
    async (request) => {
      const source = await orgSource(requireTenant(request).organizationId, request.query);
      return getVariableChart(db, source, {
        filters: pickFilters(request.query),
        interval: request.query.interval,
      });
    },
  );

  app.get(
    '/api/variable-reports/leaders',
    {
      schema: {
        tags,
        summary: 'Learners ranked by their latest value (names only)',
        description:
          'Numbers rank highest first, dates latest first (`order=asc` reverses); text and true/false variables answer 400.',
        querystring: variableLeadersQuery,
        response: { 200: variableLeadersResponse },
      },
    },
    async (request) => {
      const source = await orgSource(requireTenant(request).organizationId, request.query);
      return getVariableLeaders(db, source, { ...request.query, filters: pickFilters(request.query) });
    },
  );

  app.get(
    '/api/courses/:courseId/variables/:variableName/report',
    {
      config: { resource: 'course' },
      schema: {
        tags,
        summary: "Every learner's latest value of one course's variable, with statistics",
        params: courseVariableParams,
        querystring: courseVariableReportQuery,
        response: { 200: variableReportResponse },
      },
    },
    async (request) => {
      const source = await courseSource(requireTenant(request).organizationId, request.params);
      return getVariableReport(
        db,
        source,
        { ...request.query, filters: pickFilters(request.query) },
        { includeEmail: true },
      );
    },
  );

  app.get(
    '/api/courses/:courseId/variables/:variableName/export',
    {
      config: { resource: 'course' },
      schema: {
        tags,
        summary: "Export one course's variable report as CSV",
        params: courseVariableParams,
        querystring: courseVariableExportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const source = await courseSource(requireTenant(request).organizationId, request.params);
      const rows = await exportVariableReport(
        db,
        source,
        { ...request.query, filters: pickFilters(request.query) },
        MAX_EXPORT_ROWS,
      );
      const course = source.subject.courses[0]?.courseTitle ?? 'course';
      return sendCsv(reply, `${course}-${source.subject.name}-report`, variableReportCsvColumns, rows);
    },
  );

  app.get(
    '/api/courses/:courseId/variables/:variableName/history',
    {
      config: { resource: 'course' },
      schema: {
        tags,
        summary: "One learner's values of one course's variable, newest first",
        params: courseVariableParams,
        querystring: courseVariableHistoryQuery,
        response: { 200: variableHistoryResponse },
      },
    },
    async (request) => {
      const source = await courseSource(requireTenant(request).organizationId, request.params);
      return getVariableHistory(db, source, request.query.learnerId);
    },
  );

  app.get(
    '/api/courses/:courseId/variables/:variableName/chart',
    {
      config: { resource: 'course' },
      schema: {
        tags,
        summary: "Distribution and trend of one course's variable",
        params: courseVariableParams,
        querystring: courseVariableChartQuery,
        response: { 200: variableChartResponse },
      },
    },
    async (request) => {
      const source = await courseSource(requireTenant(request).organizationId, request.params);
      return getVariableChart(db, source, {
        filters: pickFilters(request.query),
        interval: request.query.interval,
      });
    },
  );

  app.get(
    '/api/courses/:courseId/variables/:variableName/leaders',
    {
      config: { resource: 'course' },
      schema: {
        tags,
        summary: "Learners ranked by their latest value of one course's variable (names only)",
        params: courseVariableParams,
        querystring: courseVariableLeadersQuery,
        response: { 200: variableLeadersResponse },
      },
    },
    async (request) => {
      const source = await courseSource(requireTenant(request).organizationId, request.params);
      return getVariableLeaders(db, source, { ...request.query, filters: pickFilters(request.query) });
    },
  );
};
