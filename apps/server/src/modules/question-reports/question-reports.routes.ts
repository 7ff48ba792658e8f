import {
  questionChartQuery,
  questionChartResponse,
  questionExportQuery,
  questionLeadersQuery,
  questionLeadersResponse,
  questionReportParams,
  questionReportQuery,
  questionReportResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { MAX_EXPORT_ROWS, sendCsv } from '../../lib/csv';
import { requireTenant } from '../../plugins/tenant';
import {
  exportQuestionReport,
  getQuestionChart,
  getQuestionLeaders,
  getQuestionReport,
  questionReportCsvColumns,
  resolveQuestion,
} from './question-reports.service';

const tags = ['question reports'];

/** Question reports: answers, their spread and correct rate, and leaders by points. */
export const questionReportRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/questions/:questionId/report',
    {
      config: { resource: 'question' },
      schema: {
        tags,
        summary: 'The answers to a question with the totals of the date range',
        params: questionReportParams,
        querystring: questionReportQuery,
        response: { 200: questionReportResponse },
      },
    },
    async (request) => {
      const scope = await resolveQuestion(
        db,
        requireTenant(request).organizationId,
        request.params.questionId,
      );
      const { sort, order, page, pageSize, ...filters } = request.query;
      return getQuestionReport(db, scope, { filters, sort, order, page, pageSize }, { includeEmail: true });
    },
  );

  app.get(
    '/api/questions/:questionId/report/export',
    {
      config: { resource: 'question' },
      schema: {
        tags,
        summary: 'Export the answers to a question as CSV',
        params: questionReportParams,
        querystring: questionExportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const scope = await resolveQuestion(
        db,
        requireTenant(request).organizationId,
        request.params.questionId,
      );
      const { sort, order, ...filters } = request.query;
      const rows = await exportQuestionReport(db, scope, { filters, sort, order }, MAX_EXPORT_ROWS);
      return sendCsv(
        reply,
        `question-${scope.question.interactionId}-answers`,
        questionReportCsvColumns,
        rows,
      );
    },
  );

  app.get(
    '/api/questions/:questionId/chart',
    {
      config: { resource: 'question' },
      schema: {
        tags,
        summary: 'How the answers spread across the choices, and the correct rate over time',
        params: questionReportParams,
        querystring: questionChartQuery,
        response: { 200: questionChartResponse },
      },
    },
    async (request) => {
      const scope = await resolveQuestion(
        db,
        requireTenant(request).organizationId,
        request.params.questionId,
      );
      const { interval, ...range } = request.query;
      return getQuestionChart(db, scope, { range, interval });
    },
  );

  app.get(
    '/api/questions/:questionId/leaders',
    {
      config: { resource: 'question' },
      schema: {
        tags,
        summary: 'Learners by their points on the question (names only)',
        params: questionReportParams,
        querystring: questionLeadersQuery,
        response: { 200: questionLeadersResponse },
      },
    },
    async (request) => {
      const scope = await resolveQuestion(
        db,
        requireTenant(request).organizationId,
        request.params.questionId,
      );
      const { limit, ...range } = request.query;
      return getQuestionLeaders(db, scope, { range, limit });
    },
  );
};
