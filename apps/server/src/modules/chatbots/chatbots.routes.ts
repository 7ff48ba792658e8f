import {
  CHATBOT_MESSAGES,
  chatbotInput,
  chatbotInsightsSchema,
  chatbotParams,
  chatbotSchema,
  chatSessionDetailSchema,
  chatSessionParams,
  chatTranscriptQuery,
  chatTranscriptResponse,
  learnerChatbotVariablesResponse,
  learnerParams,
  listChatbotsQuery,
  listChatbotsResponse,
  listChatSessionsQuery,
  listChatSessionsResponse,
  MAX_KNOWLEDGE_FILE_BYTES,
  publicChatbotSchema,
  sendChatMessageInput,
  sendChatMessageResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { Publish } from '../../jobs/job-runner';
import { sendCsv } from '../../lib/csv';
import type { LlmEngine } from '../../lib/llm';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import { getChatTranscript, getPublicChatbot, sendChatMessage, type ChatRuntime } from './chat.service';
import {
  chatbotResultsExport,
  createChatbot,
  deleteChatbot,
  extractKnowledgeText,
  getChatbot,
  getChatbotInsights,
  getChatSessionDetail,
  listChatbots,
  listChatSessions,
  listLearnerChatbotVariables,
  updateChatbot,
} from './chatbots.service';

const csvResponse = { 200: z.string().describe('CSV (UTF-8 with BOM, CRLF line ends)') };
const KNOWLEDGE_FILE_TYPES = ['text/markdown', 'text/plain', 'application/pdf', 'application/octet-stream'];

/** Custom AI agents: the team's screens (members) and the learners' public chat. */
export const chatbotRoutes: FastifyPluginAsyncZod<{
  db: Database;
  publish?: Publish | undefined;
  llm?: LlmEngine | null;
  chat?: Omit<ChatRuntime, 'publish' | 'llm'>;
}> = async (app, { db, publish, llm, chat }) => {
  const runtime: ChatRuntime = { ...chat, publish, llm };

  app.get(
    '/api/chatbots',
    {
      schema: {
        tags: ['chatbots'],
        summary: "One page of the organization's agents with conversations and capture rates",
        querystring: listChatbotsQuery,
        response: { 200: listChatbotsResponse },
      },
    },
    async (request) =>
      listChatbots(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.post(
    '/api/chatbots',
    {
      schema: {
        tags: ['chatbots'],
        summary: 'Create an agent (instructions, knowledge, variables to capture, appearance)',
        body: chatbotInput,
        response: { 201: chatbotSchema },
      },
    },
    async (request, reply) => {
      const created = await createChatbot(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        spec: request.body,
      });
      return reply.status(201).send(created);
    },
  );

  // Uploaded knowledge: the file's bytes as the body, its name in a header.
  // The editor adds the text it answers to the agent's documents.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      KNOWLEDGE_FILE_TYPES,
      { parseAs: 'buffer', bodyLimit: MAX_KNOWLEDGE_FILE_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/chatbots/knowledge/extract',
      {
        bodyLimit: MAX_KNOWLEDGE_FILE_BYTES,
        schema: {
          tags: ['chatbots'],
          summary: 'The text of an uploaded .md, .txt or .pdf file, to add to an agent as knowledge',
          response: {
            200: z.object({ title: z.string(), format: z.enum(['markdown', 'text']), text: z.string() }),
          },
        },
      },
      async (request) => {
        const header = request.headers['x-file-name'];
        let fileName = 'document';
        if (typeof header === 'string' && header) {
          try {
            fileName = decodeURIComponent(header).slice(0, 255);
          } catch {
            fileName = header.slice(0, 255);
          }
        }
        const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (!Buffer.isBuffer(request.body)) {
          throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.unsupportedFile(fileName));
        }
        return extractKnowledgeText({ fileName, contentType, body: request.body });
      },
    );
  });

  app.get(
    '/api/chatbots/:chatbotId',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: 'One agent with its variables and documents',
        params: chatbotParams,
        response: { 200: chatbotSchema },
      },
    },
    async (request) => getChatbot(db, requireTenant(request).organizationId, request.params.chatbotId),
  );

  app.put(
    '/api/chatbots/:chatbotId',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: "Replace an agent's settings (variables keep their captured values by name)",
        params: chatbotParams,
        body: chatbotInput,
        response: { 200: chatbotSchema },
      },
    },
    async (request) =>
      updateChatbot(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        chatbotId: request.params.chatbotId,
        spec: request.body,
      }),
  );

  app.delete(
    '/api/chatbots/:chatbotId',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: 'Delete an agent with its conversations and captured values',
        params: chatbotParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteChatbot(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        chatbotId: request.params.chatbotId,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/chatbots/:chatbotId/sessions',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: "One page of an agent's conversations (search by learner, filter by captured or not)",
        params: chatbotParams,
        querystring: listChatSessionsQuery,
        response: { 200: listChatSessionsResponse },
      },
    },
    async (request) =>
      listChatSessions(db, {
        organizationId: requireTenant(request).organizationId,
        chatbotId: request.params.chatbotId,
        ...request.query,
      }),
  );

  app.get(
    '/api/chatbots/:chatbotId/sessions/:sessionId',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: 'One conversation with its transcript',
        params: chatSessionParams,
        response: { 200: chatSessionDetailSchema },
      },
    },
    async (request) =>
      getChatSessionDetail(db, {
        organizationId: requireTenant(request).organizationId,
        chatbotId: request.params.chatbotId,
        sessionId: request.params.sessionId,
      }),
  );

  app.get(
    '/api/chatbots/:chatbotId/insights',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: 'Capture rate per variable and the questions the knowledge could not answer',
        params: chatbotParams,
        response: { 200: chatbotInsightsSchema },
      },
    },
    async (request) =>
      getChatbotInsights(db, requireTenant(request).organizationId, request.params.chatbotId),
  );

  app.get(
    '/api/chatbots/:chatbotId/results/export',
    {
      config: { resource: 'chatbot' },
      schema: {
        tags: ['chatbots'],
        summary: 'Every conversation with its captured values as CSV',
        params: chatbotParams,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const { name, columns, rows } = await chatbotResultsExport(
        db,
        requireTenant(request).organizationId,
        request.params.chatbotId,
      );
      return sendCsv(reply, name, columns, rows);
    },
  );

  app.get(
    '/api/learners/:learnerId/chatbot-variables',
    {
      config: { resource: 'learner' },
      schema: {
        tags: ['learners'],
        summary: "The learner's latest value of each chatbot variable",
        params: learnerParams,
        response: { 200: learnerChatbotVariablesResponse },
      },
    },
    async (request) => ({
      items: await listLearnerChatbotVariables(
        db,
        requireTenant(request).organizationId,
        request.params.learnerId,
      ),
    }),
  );

  // The learners' side: public, the agent's id is the address.

  app.get(
    '/api/chat/:chatbotId',
    {
      config: { access: 'public' },
      schema: {
        tags: ['chat'],
        summary: 'What the chat page shows of an agent (never its instructions or knowledge)',
        params: chatbotParams,
        response: { 200: publicChatbotSchema },
      },
    },
    async (request) => getPublicChatbot(db, request.params.chatbotId),
  );

  app.post(
    '/api/chat/:chatbotId/messages',
    {
      config: { access: 'public' },
      schema: {
        tags: ['chat'],
        summary:
          'Send a learner message and get the reply (JSON, or Server-Sent Events with Accept: text/event-stream)',
        params: chatbotParams,
        body: sendChatMessageInput,
        response: { 200: sendChatMessageResponse },
      },
    },
    async (request, reply) => {
      const streamed = (request.headers.accept ?? '').includes('text/event-stream');
      const input = {
        chatbotId: request.params.chatbotId,
        ip: request.ip,
        message: request.body.message,
        learner: request.body.learner,
        sessionId: request.body.sessionId,
      };
      if (!streamed) return sendChatMessage(db, runtime, input);
      // The stream opens with the first piece of text: until then an error
      // (a bad session, a switched-off agent, the rate limit) keeps its
      // status and JSON body. After it, an error is the stream's last event.
      const raw = reply.raw;
      let opened = false;
      const send = (event: 'delta' | 'done' | 'error', data: unknown) => {
        if (!opened) {
          opened = true;
          reply.hijack();
          raw.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-store',
            connection: 'keep-alive',
            'x-accel-buffering': 'no',
          });
        }
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      let streamedPieces = 0;
      try {
        const result = await sendChatMessage(db, runtime, {
          ...input,
          onDelta: (text) => {
            streamedPieces += 1;
            send('delta', { text });
          },
        });
        // The built-in engine answers at once: its reply goes out in pieces of a few words.
        if (streamedPieces === 0) {
          for (const piece of streamPieces(result.reply.content)) send('delta', { text: piece });
        }
        send('done', sendChatMessageResponse.parse(result));
      } catch (error) {
        if (!opened) throw error;
        request.log.error({ err: error }, 'chat reply failed after its stream opened');
        send('error', {
          error:
            error instanceof AppError
              ? error.message
              : 'The reply could not be stored. Please send your message again.',
          code: error instanceof AppError ? error.code : 'INTERNAL_ERROR',
        });
      }
      raw.end();
      return reply;
    },
  );

  app.get(
    '/api/chat/:chatbotId/sessions/:sessionId',
    {
      config: { access: 'public' },
      schema: {
        tags: ['chat'],
        summary: "A learner's own conversation, to resume it (the e-mail must be the conversation's)",
        params: chatSessionParams,
        querystring: chatTranscriptQuery,
        response: { 200: chatTranscriptResponse },
      },
    },
    async (request) =>
      getChatTranscript(db, {
        chatbotId: request.params.chatbotId,
        sessionId: request.params.sessionId,
        email: request.query.email,
      }),
  );
};

/** A reply in pieces of a few words, so the page can show it as it arrives. */
export function streamPieces(text: string, wordsPerPiece = 4): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  for (let i = 0; i < words.length; i += wordsPerPiece) {
    pieces.push(words.slice(i, i + wordsPerPiece).join(''));
  }
  if (pieces.length > 0 && leading) pieces[0] = leading + pieces[0];
  return pieces;
}
