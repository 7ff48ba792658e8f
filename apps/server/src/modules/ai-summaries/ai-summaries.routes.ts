import {
  chatbotVariableSummaryQuery,
  courseVariableSummaryParams,
  variableAiSummarySchema,
  variableSummaryParams,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { LlmEngine } from '../../lib/llm';
import { requireTenant } from '../../plugins/tenant';
import {
  getSummary,
  resolveChatbotVariableSource,
  resolveCourseVariableSource,
  resolveVariableSource,
} from './ai-summaries.service';

const ENGINE_NOTE =
  'Written by the LLM engine when the server has LLM_BASE_URL set, else by the built-in engine. ' +
  'When the model fails, the built-in engine writes it and `notice` says so.';

/**
 * AI summaries of variables: GET answers the cached summary
 * (writing one on the first request), POST writes a new one in its place.
 * Course variables are named by course and name, or by id; agent variables
 * answer 404 until custom AI agents ship.
 */
export const aiSummaryRoutes: FastifyPluginAsyncZod<{ db: Database; llm: LlmEngine | null }> = async (
  app,
  { db, llm },
) => {
  const onLlmError = (error: unknown) => app.log.warn({ err: error }, 'AI summary: the LLM failed');

  for (const method of ['GET', 'POST'] as const) {
    const isRegenerating = method === 'POST';
    const verb = isRegenerating ? 'Regenerate' : 'Get';

    app.route({
      method,
      url: '/api/ai-summaries/courses/:courseId/variables/:variableName',
      config: { resource: 'course' },
      schema: {
        tags: ['ai-summaries'],
        summary: `${verb} the AI summary of a course variable (by course and variable name)`,
        description: ENGINE_NOTE,
        params: courseVariableSummaryParams,
        response: { 200: variableAiSummarySchema },
      },
      handler: async (request) => {
        const { organizationId } = requireTenant(request);
        const source = await resolveCourseVariableSource(db, { organizationId, ...request.params });
        return getSummary(db, llm, organizationId, source, { isRegenerating, onLlmError });
      },
    });

    app.route({
      method,
      url: '/api/ai-summaries/variables/:variableId',
      config: { resource: 'variable' },
      schema: {
        tags: ['ai-summaries'],
        summary: `${verb} the AI summary of a course variable (by id)`,
        description: ENGINE_NOTE,
        params: variableSummaryParams,
        response: { 200: variableAiSummarySchema },
      },
      handler: async (request) => {
        const { organizationId } = requireTenant(request);
        const source = await resolveVariableSource(db, {
          organizationId,
          variableId: request.params.variableId,
        });
        return getSummary(db, llm, organizationId, source, { isRegenerating, onLlmError });
      },
    });

    app.route({
      method,
      url: '/api/ai-summaries/chatbot-variable',
      schema: {
        tags: ['ai-summaries'],
        summary: `${verb} the AI summary of an agent (chatbot) variable`,
        description: ENGINE_NOTE,
        querystring: chatbotVariableSummaryQuery,
        response: { 200: variableAiSummarySchema },
      },
      handler: async (request) => {
        const { organizationId } = requireTenant(request);
        const source = await resolveChatbotVariableSource(db, {
          organizationId,
          variableId: request.query.variableId,
        });
        return getSummary(db, llm, organizationId, source, { isRegenerating, onLlmError });
      },
    });
  }
};
