import {
  questionChartResponse,
  questionLeadersResponse,
  questionReportResponse,
  shareQuestionParams,
  shareSettingsSchema,
  shareVariableParams,
  sharedQuestionChartQuery,
  sharedQuestionLeadersQuery,
  sharedQuestionParams,
  sharedQuestionReportQuery,
  sharedVariableChartQuery,
  sharedVariableLeadersQuery,
  sharedVariableReportQuery,
  updateShareInput,
  variableChartResponse,
  variableLeadersResponse,
  variableReportResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  getQuestionChart,
  getQuestionLeaders,
  getQuestionReport,
} from '../question-reports/question-reports.service';
import {
  getVariableChart,
  getVariableLeaders,
  getVariableReport,
  pickFilters,
} from '../variable-reports/variable-reports.service';
import {
  changeShare,
  getShareSettings,
  openSharedQuestion,
  openSharedVariable,
} from './shared-views.service';
import type { ShareTarget } from './shared-views.queries';

const tags = ['shared views'];
const publicTags = ['shared views (public)'];

/**
 * Shared views (issue 6, item 4): members switch sharing of a course
 * variable or a question and rotate its link; anyone with the link reads the
 * report, chart and leaders (names only, never e-mails) while it is on.
 */
export const sharedViewRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const targets = [
    {
      kind: 'variable',
      prefix: '/api/variables/:variableId/share',
      params: shareVariableParams,
      resource: 'variable',
    },
    {
      kind: 'question',
      prefix: '/api/questions/:questionId/share',
      params: shareQuestionParams,
      resource: 'question',
    },
  ] as const;

  for (const { kind, prefix, params, resource } of targets) {
    const targetOf = (request: { params: unknown }): ShareTarget => {
      const values = request.params as { variableId?: string; questionId?: string };
      return { kind, id: (kind === 'variable' ? values.variableId : values.questionId) ?? '' };
    };

    app.get(
      prefix,
      {
        config: { resource },
        schema: {
          tags,
          summary: `Sharing of a ${kind}: on or off, its token and views`,
          params,
          response: { 200: shareSettingsSchema },
        },
      },
      async (request) => getShareSettings(db, requireTenant(request).organizationId, targetOf(request)),
    );

    app.put(
      prefix,
      {
        config: { access: 'owner:sharing', resource },
        schema: {
          tags,
          summary: `Switch sharing of a ${kind} on or off`,
          description:
            'The token is created the first time sharing is switched on and kept when it is switched off.',
          params,
          body: updateShareInput,
          response: { 200: shareSettingsSchema },
        },
      },
      async (request) =>
        changeShare(db, {
          organizationId: requireTenant(request).organizationId,
          userId: requireSessionCaller(request).userId,
          target: targetOf(request),
          enabled: request.body.enabled,
        }),
    );

    app.post(
      `${prefix}/rotate`,
      {
        config: { access: 'owner:sharing', resource },
        schema: {
          tags,
          summary: `Replace the share link of a ${kind}; the old link stops working at once`,
          params,
          response: { 200: shareSettingsSchema },
        },
      },
      async (request) =>
        changeShare(db, {
          organizationId: requireTenant(request).organizationId,
          userId: requireSessionCaller(request).userId,
          target: targetOf(request),
          rotate: true,
        }),
    );
  }

  app.get(
    '/api/shared/course-variables/report',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared course variable's report (names only)",
        querystring: sharedVariableReportQuery,
        response: { 200: variableReportResponse },
      },
    },
    async (request) => {
      const source = await openSharedVariable(db, request.query);
      return getVariableReport(
        db,
        source,
        { ...request.query, filters: pickFilters(request.query) },
        { includeEmail: false },
      );
    },
  );

  app.get(
    '/api/shared/course-variables/chart',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared course variable's chart",
        querystring: sharedVariableChartQuery,
        response: { 200: variableChartResponse },
      },
    },
    async (request) => {
      const source = await openSharedVariable(db, request.query);
      return getVariableChart(db, source, {
        filters: pickFilters(request.query),
        interval: request.query.interval,
      });
    },
  );

  app.get(
    '/api/shared/course-variables/leaders',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared course variable's leaders (names only)",
        querystring: sharedVariableLeadersQuery,
        response: { 200: variableLeadersResponse },
      },
    },
    async (request) => {
      const source = await openSharedVariable(db, request.query);
      return getVariableLeaders(db, source, { ...request.query, filters: pickFilters(request.query) });
    },
  );

  app.get(
    '/api/shared/questions/:questionId/report',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared question's answers (names only)",
        params: sharedQuestionParams,
        querystring: sharedQuestionReportQuery,
        response: { 200: questionReportResponse },
      },
    },
    async (request) => {
      const { token, sort, order, page, pageSize, ...filters } = request.query;
      const scope = await openSharedQuestion(db, { token, questionId: request.params.questionId });
      return getQuestionReport(db, scope, { filters, sort, order, page, pageSize }, { includeEmail: false });
    },
  );

  app.get(
    '/api/shared/questions/:questionId/chart',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared question's chart",
        params: sharedQuestionParams,
        querystring: sharedQuestionChartQuery,
        response: { 200: questionChartResponse },
      },
    },
    async (request) => {
      const { token, interval, ...range } = request.query;
      const scope = await openSharedQuestion(db, { token, questionId: request.params.questionId });
      return getQuestionChart(db, scope, { range, interval });
    },
  );

  app.get(
    '/api/shared/questions/:questionId/leaders',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared question's leaders (names only)",
        params: sharedQuestionParams,
        querystring: sharedQuestionLeadersQuery,
        response: { 200: questionLeadersResponse },
      },
    },
    async (request) => {
      const { token, limit, ...range } = request.query;
      const scope = await openSharedQuestion(db, { token, questionId: request.params.questionId });
      return getQuestionLeaders(db, scope, { range, limit });
    },
  );
};
