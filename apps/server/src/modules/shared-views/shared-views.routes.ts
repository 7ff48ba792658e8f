import {
  shareChatbotVariableParams,
  shareQuestionParams,
  shareSettingsSchema,
  shareVariableParams,
  sharedQuestionChartQuery,
  sharedQuestionChartResponse,
  sharedQuestionLeadersQuery,
  sharedQuestionLeadersResponse,
  sharedQuestionParams,
  sharedQuestionReportQuery,
  sharedQuestionReportResponse,
  sharedVariableChartQuery,
  sharedVariableChartResponse,
  sharedVariableLeadersQuery,
  sharedVariableLeadersResponse,
  sharedVariableReportQuery,
  sharedVariableReportResponse,
  updateShareInput,
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
  openSharedChatbotVariable,
  openSharedQuestion,
  openSharedVariable,
} from './shared-views.service';
import type { ShareTarget } from './shared-views.queries';

const tags = ['shared views'];
const publicTags = ['shared views (public)'];

/**
 * Shared views: members switch sharing of a course variable, an agent's variable or a question
 * and rotate its link; anyone with the link reads the report, chart and
 * leaders (learner names only, never e-mails, no learner search) with the
 * name of the organization sharing it, while sharing is on.
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
    {
      kind: 'chatbot_variable',
      prefix: '/api/chatbot-variables/:chatbotVariableId/share',
      params: shareChatbotVariableParams,
      resource: 'chatbotVariable',
    },
  ] as const;

  for (const { kind, prefix, params, resource } of targets) {
    const targetOf = (request: { params: unknown }): ShareTarget => {
      const values = request.params as {
        variableId?: string;
        questionId?: string;
        chatbotVariableId?: string;
      };
      const id =
        kind === 'variable'
          ? values.variableId
          : kind === 'question'
            ? values.questionId
            : values.chatbotVariableId;
      return { kind, id: id ?? '' };
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

  // A course variable's shared views, and an agent's (`courseId` names the agent there).
  for (const { path, label, open } of [
    { path: '/api/shared/course-variables', label: 'course variable', open: openSharedVariable },
    { path: '/api/shared/chatbot-variables', label: 'agent variable', open: openSharedChatbotVariable },
  ]) {
    app.get(
      `${path}/report`,
      {
        config: { access: 'public' },
        schema: {
          tags: publicTags,
          summary: `A shared ${label}'s report (names only, no search)`,
          querystring: sharedVariableReportQuery,
          response: { 200: sharedVariableReportResponse },
        },
      },
      async (request) => {
        const { source, context } = await open(db, request.query);
        const report = await getVariableReport(
          db,
          source,
          { ...request.query, q: undefined, filters: pickFilters(request.query) },
          { includeEmail: false },
        );
        return { ...report, ...context };
      },
    );

    app.get(
      `${path}/chart`,
      {
        config: { access: 'public' },
        schema: {
          tags: publicTags,
          summary: `A shared ${label}'s chart`,
          querystring: sharedVariableChartQuery,
          response: { 200: sharedVariableChartResponse },
        },
      },
      async (request) => {
        const { source, context } = await open(db, request.query);
        const chart = await getVariableChart(db, source, {
          filters: pickFilters(request.query),
          interval: request.query.interval,
        });
        return { ...chart, ...context };
      },
    );

    app.get(
      `${path}/leaders`,
      {
        config: { access: 'public' },
        schema: {
          tags: publicTags,
          summary: `A shared ${label}'s leaders (names only)`,
          querystring: sharedVariableLeadersQuery,
          response: { 200: sharedVariableLeadersResponse },
        },
      },
      async (request) => {
        const { source, context } = await open(db, request.query);
        const leaders = await getVariableLeaders(db, source, {
          ...request.query,
          filters: pickFilters(request.query),
        });
        return { ...leaders, ...context };
      },
    );
  }

  app.get(
    '/api/shared/questions/:questionId/report',
    {
      config: { access: 'public' },
      schema: {
        tags: publicTags,
        summary: "A shared question's answers (names only, no search)",
        params: sharedQuestionParams,
        querystring: sharedQuestionReportQuery,
        response: { 200: sharedQuestionReportResponse },
      },
    },
    async (request) => {
      const { token, sort, order, page, pageSize, ...filters } = request.query;
      const { scope, context } = await openSharedQuestion(db, {
        token,
        questionId: request.params.questionId,
      });
      const report = await getQuestionReport(
        db,
        scope,
        { filters, sort, order, page, pageSize },
        { includeEmail: false },
      );
      return { ...report, ...context };
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
        response: { 200: sharedQuestionChartResponse },
      },
    },
    async (request) => {
      const { token, interval, ...range } = request.query;
      const { scope, context } = await openSharedQuestion(db, {
        token,
        questionId: request.params.questionId,
      });
      return { ...(await getQuestionChart(db, scope, { range, interval })), ...context };
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
        response: { 200: sharedQuestionLeadersResponse },
      },
    },
    async (request) => {
      const { token, limit, ...range } = request.query;
      const { scope, context } = await openSharedQuestion(db, {
        token,
        questionId: request.params.questionId,
      });
      return { ...(await getQuestionLeaders(db, scope, { range, limit })), ...context };
    },
  );
};
