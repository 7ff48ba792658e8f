import { generatePipelineInput, generatePipelineResponse } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { LlmEngine } from '../../lib/llm';
import { requireTenant } from '../../plugins/tenant';
import { generatePipeline } from './pipeline-generator.service';

/**
 * The natural-language pipeline generator (`/pipelines/ai-generator`): a
 * sentence in, a draft graph out, for any member of the organization. It
 * saves nothing.
 */
export const pipelineGeneratorRoutes: FastifyPluginAsyncZod<{ db: Database; llm: LlmEngine | null }> = async (
  app,
  { db, llm },
) => {
  app.post(
    '/api/pipelines/generate',
    {
      schema: {
        tags: ['pipelines'],
        summary: 'Draft a pipeline from a sentence (built-in engine, or the LLM when configured)',
        body: generatePipelineInput,
        response: { 200: generatePipelineResponse },
      },
    },
    async (request) =>
      generatePipeline(db, llm, {
        organizationId: requireTenant(request).organizationId,
        prompt: request.body.prompt,
        choices: request.body.choices,
      }),
  );
};
