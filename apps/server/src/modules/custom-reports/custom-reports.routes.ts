import {
  CUSTOM_REPORT_MESSAGES,
  customReportDataQuery,
  customReportDataResponse,
  customReportInput,
  customReportParams,
  customReportSchema,
  generateReportInput,
  reportPreviewInput,
  generateReportResponse,
  listCustomReportsQuery,
  listCustomReportsResponse,
  publicReportParams,
  publicReportQuery,
  publicReportResponse,
  reportCatalogSchema,
  reportSharingSchema,
  setReportPublicInput,
} from '@courselens/contracts';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { sendCsv } from '../../lib/csv';
import type { LlmEngine } from '../../lib/llm';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  createReport,
  deleteReport,
  duplicateReport,
  getCatalog,
  getPublicReport,
  getReport,
  getReportData,
  previewReport,
  listReports,
  reportCsvColumns,
  reportCsvRows,
  rotateReportToken,
  setReportPublic,
  updateReport,
} from './custom-reports.service';
import { generateReport } from './report-generator';

/** Spec section 8: report creation without a user answers 'User not authenticated'. */
function reportCreationError(error: FastifyError): never {
  if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
    throw new AppError('UNAUTHENTICATED', CUSTOM_REPORT_MESSAGES.notAuthenticated);
  }
  throw error;
}

const reportConfig = { resource: 'customReport' } as const;
/** Public links expose data outside the organization: owners decide (decision 008). */
const sharingConfig = { access: 'owner:sharing', resource: 'customReport' } as const;
const tags = ['custom reports'];

/**
 * Custom reports of the request's organization: the
 * list, the builder's reads and writes, the assembled data and its CSV,
 * public sharing, the generator, and the public page's endpoint.
 */
export const customReportRoutes: FastifyPluginAsyncZod<{ db: Database; llm: LlmEngine | null }> = async (
  app,
  { db, llm },
) => {
  app.get(
    '/api/custom-reports',
    {
      schema: {
        tags,
        summary: 'List reports, newest first; ?q= searches the name',
        querystring: listCustomReportsQuery,
        response: { 200: listCustomReportsResponse },
      },
    },
    async (request) =>
      listReports(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.get(
    '/api/custom-reports/catalog',
    {
      schema: {
        tags,
        summary: 'Courses, variables and questions a report can use (names and ids)',
        response: { 200: reportCatalogSchema },
      },
    },
    async (request) => getCatalog(db, requireTenant(request).organizationId),
  );

  app.post(
    '/api/custom-reports',
    {
      errorHandler: reportCreationError,
      schema: {
        tags,
        summary: 'Create a report (organization and creator come from the session)',
        body: customReportInput,
        response: { 201: customReportSchema },
      },
    },
    async (request, reply) => {
      const report = await createReport(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        draft: request.body,
      });
      return reply.status(201).send(report);
    },
  );

  app.post(
    '/api/custom-reports/preview',
    {
      schema: {
        tags,
        summary: 'The data of a report being built, without saving it (the live preview)',
        body: reportPreviewInput,
        response: { 200: customReportDataResponse },
      },
    },
    async (request) => {
      const data = await previewReport(db, requireTenant(request).organizationId, request.body);
      return { data };
    },
  );

  app.post(
    '/api/custom-reports/generate',
    {
      schema: {
        tags,
        summary: 'Draft a report from a sentence (built-in engine, or the LLM when configured)',
        body: generateReportInput,
        response: { 200: generateReportResponse },
      },
    },
    async (request) => {
      const catalog = await getCatalog(db, requireTenant(request).organizationId);
      return generateReport(request.body.prompt, catalog, llm, request.body.choices);
    },
  );

  app.get(
    '/api/custom-reports/:reportId',
    {
      config: reportConfig,
      schema: {
        tags,
        summary: 'A report with its items in display order',
        params: customReportParams,
        response: { 200: customReportSchema },
      },
    },
    async (request) => getReport(db, requireTenant(request).organizationId, request.params.reportId),
  );

  app.put(
    '/api/custom-reports/:reportId',
    {
      config: reportConfig,
      schema: {
        tags,
        summary: 'Replace a report and its whole item list (one transaction)',
        params: customReportParams,
        body: customReportInput,
        response: { 200: customReportSchema },
      },
    },
    async (request) =>
      updateReport(db, {
        organizationId: requireTenant(request).organizationId,
        reportId: request.params.reportId,
        draft: request.body,
      }),
  );

  app.delete(
    '/api/custom-reports/:reportId',
    {
      config: reportConfig,
      schema: { tags, summary: 'Delete a report', params: customReportParams },
    },
    async (request, reply) => {
      await deleteReport(db, requireTenant(request).organizationId, request.params.reportId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/custom-reports/:reportId/duplicate',
    {
      config: reportConfig,
      schema: {
        tags,
        summary: 'Copy a report and its items (the copy is private)',
        params: customReportParams,
        response: { 201: customReportSchema },
      },
    },
    async (request, reply) => {
      const report = await duplicateReport(db, {
        organizationId: requireTenant(request).organizationId,
        reportId: request.params.reportId,
        userId: requireSessionCaller(request).userId,
      });
      return reply.status(201).send(report);
    },
  );

  app.get(
    '/api/custom-reports/:reportId/data',
    {
      config: reportConfig,
      schema: {
        tags,
        summary: "The report's data, aggregated in the database",
        params: customReportParams,
        querystring: customReportDataQuery,
        response: { 200: customReportDataResponse },
      },
    },
    async (request) => {
      const { data } = await getReportData(
        db,
        requireTenant(request).organizationId,
        request.params.reportId,
        {
          fresh: request.query.fresh ?? false,
        },
      );
      return { data };
    },
  );

  app.get(
    '/api/custom-reports/:reportId/export',
    {
      config: reportConfig,
      schema: {
        tags,
        summary: "The report's data as CSV",
        params: customReportParams,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      // A download is the figures of the moment it is asked for.
      const { report, data } = await getReportData(
        db,
        requireTenant(request).organizationId,
        request.params.reportId,
        { fresh: true },
      );
      return sendCsv(reply, report.name, reportCsvColumns, reportCsvRows(data));
    },
  );

  app.put(
    '/api/custom-reports/:reportId/public',
    {
      config: sharingConfig,
      schema: {
        tags,
        summary: 'Switch the public link on (new unguessable token) or off (revoked at once)',
        params: customReportParams,
        body: setReportPublicInput,
        response: { 200: reportSharingSchema },
      },
    },
    async (request) =>
      setReportPublic(db, {
        organizationId: requireTenant(request).organizationId,
        reportId: request.params.reportId,
        userId: requireSessionCaller(request).userId,
        isPublic: request.body.isPublic,
      }),
  );

  app.post(
    '/api/custom-reports/:reportId/public/rotate',
    {
      config: sharingConfig,
      schema: {
        tags,
        summary: 'Replace the public link; the old one stops working',
        params: customReportParams,
        response: { 200: reportSharingSchema },
      },
    },
    async (request) =>
      rotateReportToken(db, {
        organizationId: requireTenant(request).organizationId,
        reportId: request.params.reportId,
        userId: requireSessionCaller(request).userId,
      }),
  );

  app.get(
    '/api/public-reports/:token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A shared report and its data, without sign-in, while its link is on (counts the visit)',
        params: publicReportParams,
        querystring: publicReportQuery,
        response: { 200: publicReportResponse },
      },
    },
    async (request, reply) => {
      // A link can be switched off at any moment: no cache may keep serving it.
      void reply.header('cache-control', 'no-store');
      void reply.header('referrer-policy', 'no-referrer');
      return getPublicReport(db, request.params.token, { followUp: request.query.followUp ?? false });
    },
  );
};
