import { randomUUID } from 'node:crypto';
import {
  CHAT_MESSAGES_PER_HOUR,
  CHAT_MESSAGES_PER_MINUTE,
  CHATBOT_MESSAGES,
  MAX_CHAT_TURNS,
  type ChatTranscriptResponse,
  type PublicChatbot,
  type SendChatMessageResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { NewChatMessage } from '../../db/schema';
import { AppError } from '../../errors';
import type { Publish } from '../../jobs/job-runner';
import {
  ensureEventPartitions,
  forgetEventPartitions,
  isMissingPartition,
} from '../ingestion/ingestion.queries';
import { writeChatbotCaptures, type ChatbotCapture, type ChatbotChatEvent } from '../ingestion/write-path';
import { clientAddressKey, takeHits } from '../../plugins/rate-limit';
import {
  findChatbot,
  findChatSession,
  findLearnerIdByEmail,
  findPublicChatbot,
  insertChatSession,
  selectTranscript,
  storeTurn,
  type ChatbotWithParts,
  type ChatSessionRow,
} from './chatbots.queries';
import { toChatMessage } from './chatbots.service';
import type { LlmEngine } from '../../lib/llm';
import { builtinReply } from './engine/builtin-engine';
import { buildKnowledgeIndex, type KnowledgeIndex } from './engine/knowledge-index';
import { createLlmChatEngine } from './engine/llm-engine';
import {
  INITIAL_CHAT_STATE,
  type AgentConfig,
  type ChatEngine,
  type ChatState,
  type EngineInput,
} from './engine/types';

/** What the engines are built from: the agent's live variables, knowledge text and documents. */
export function agentConfigOf({ chatbot, variables, documents }: ChatbotWithParts): AgentConfig {
  const knowledge = [
    ...(chatbot.knowledge.trim()
      ? [{ title: chatbot.name, text: chatbot.knowledge, format: 'markdown' as const }]
      : []),
    ...documents.map((document) => ({ title: document.title, text: document.text, format: document.format })),
  ];
  return {
    variables: variables.map((variable) => ({
      name: variable.name,
      title: variable.title ?? variable.name,
      type: variable.dataType,
      question: variable.question,
      required: variable.required,
      ...(variable.dataType === 'choice' ? { options: variable.options } : {}),
      ...(variable.validation ? { validation: variable.validation } : {}),
    })),
    knowledge,
    instructions: chatbot.instructions,
    ...(chatbot.welcomeMessage ? { greeting: chatbot.welcomeMessage } : {}),
  };
}

/**
 * Engines by agent, built once per saved version (indexing the knowledge is
 * the costly part): the key holds the agent's last update, so an edit is
 * picked up by the next message. Bounded, least recently used out first.
 */
const MAX_CACHED_ENGINES = 200;
const engines = new Map<
  string,
  { version: number; config: AgentConfig; index: KnowledgeIndex; builtin: ChatEngine }
>();

/** The engine that answers: the model when one is configured (the built-in engine behind it), else the built-in one. */
function engineFor(parts: ChatbotWithParts, llm: LlmEngine | null | undefined): ChatEngine {
  const { config, index, builtin } = builtEngine(parts);
  return llm ? createLlmChatEngine(config, index, llm, builtin) : builtin;
}

function builtEngine(parts: ChatbotWithParts) {
  const key = `${parts.chatbot.organizationId}:${parts.chatbot.id}`;
  const version = Math.max(
    parts.chatbot.updatedAt.getTime(),
    ...parts.variables.map((v) => v.updatedAt.getTime()),
    ...parts.documents.map((d) => d.updatedAt.getTime()),
  );
  const cached = engines.get(key);
  if (cached && cached.version === version) {
    engines.delete(key);
    engines.set(key, cached);
    return cached;
  }
  const config = agentConfigOf(parts);
  const index = buildKnowledgeIndex(config.knowledge);
  const built = {
    version,
    config,
    index,
    builtin: { reply: async (input: EngineInput) => builtinReply(config, index, input) },
  };
  engines.set(key, built);
  if (engines.size > MAX_CACHED_ENGINES) {
    const oldest = engines.keys().next().value;
    if (oldest !== undefined) engines.delete(oldest);
  }
  return built;
}

/** How the agent opens: its greeting and first question, and the state that leaves (what it asked). */
async function openingOf(engine: ChatEngine, now: Date): Promise<{ text: string; state: ChatState }> {
  const opened = await engine.reply({ message: '', state: { ...INITIAL_CHAT_STATE }, now });
  return { text: opened.text, state: opened.state };
}

export async function getPublicChatbot(db: Database, chatbotId: string): Promise<PublicChatbot> {
  const found = await findPublicChatbot(db, chatbotId);
  const parts = found ? await findChatbot(db, found.organizationId, chatbotId) : null;
  if (!found || !parts) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
  return {
    opening: (await openingOf(builtEngine(parts).builtin, new Date())).text,
    id: found.id,
    name: found.name,
    description: found.description,
    welcomeMessage: found.welcomeMessage,
    color: found.color,
    avatar: found.avatar,
    active: found.active,
    organization: found.organizationName,
  };
}

function stateOf(session: ChatSessionRow): ChatState {
  const stored = session.state as Partial<ChatState>;
  return {
    captured: stored.captured ?? {},
    askedVariable: stored.askedVariable ?? null,
    lastCaptured: stored.lastCaptured ?? [],
    skipped: stored.skipped ?? [],
    turns: stored.turns ?? 0,
  };
}

/** A conversation seen by the learner it belongs to: an unknown id and another learner's read the same. */
async function learnersSession(
  db: Database,
  chatbot: { organizationId: string; id: string },
  sessionId: string,
  email: string | undefined,
): Promise<ChatSessionRow> {
  const session = await findChatSession(db, chatbot.organizationId, chatbot.id, sessionId);
  if (!session || (email !== undefined && session.learnerEmail !== email)) {
    throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.sessionNotFound);
  }
  return session;
}

export async function getChatTranscript(
  db: Database,
  input: { chatbotId: string; sessionId: string; email: string },
): Promise<ChatTranscriptResponse> {
  const found = await findPublicChatbot(db, input.chatbotId);
  if (!found) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
  const session = await learnersSession(db, found, input.sessionId, input.email);
  const transcript = await selectTranscript(db, found.organizationId, session.id);
  return {
    sessionId: session.id,
    messages: transcript.map(toChatMessage),
    captured: stateOf(session).captured,
    done: session.done,
  };
}

/** Messages of the conversation a model is shown with each turn. */
const HISTORY_MESSAGES = 12;

export type ChatRuntime = {
  publish?: Publish | undefined;
  /** The model, when one is configured: it answers, the built-in engine standing in when it fails. */
  llm?: LlmEngine | null | undefined;
  /** Per-visitor and per-agent message limits (tests turn them up). */
  limits?: { perMinute: number; perHour: number };
};

/**
 * One turn of a conversation: finds or starts the learner's conversation,
 * lets the engine answer, and stores both messages, the new state and the
 * values it captured (through the write path, as `chatbot` events) in one
 * transaction. Nothing is stored when anything fails.
 */
export async function sendChatMessage(
  db: Database,
  runtime: ChatRuntime,
  input: {
    chatbotId: string;
    ip: string;
    message: string;
    learner?: { email: string; name?: string | null | undefined } | undefined;
    sessionId?: string | undefined;
    /** Gets the reply's text as the model writes it (streamed answers). */
    onDelta?: (text: string) => void;
  },
  now = new Date(),
): Promise<SendChatMessageResponse> {
  const parts = await findChatbot(db, null, input.chatbotId);
  if (!parts) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
  const { chatbot } = parts;
  if (!chatbot.active) throw new AppError('CONFLICT', CHATBOT_MESSAGES.inactive);
  const limits = runtime.limits ?? { perMinute: CHAT_MESSAGES_PER_MINUTE, perHour: CHAT_MESSAGES_PER_HOUR };
  await takeHits(
    db,
    [
      { key: `chat:ip:${clientAddressKey(input.ip)}`, limit: limits.perMinute, windowMs: 60_000 },
      { key: `chat:agent:${chatbot.id}`, limit: limits.perHour, windowMs: 3_600_000 },
    ],
    'chat messages',
    now,
  );

  // A new conversation is stored with its first turn, in the same transaction.
  let session: ChatSessionRow | null = null;
  if (input.sessionId) {
    session = await learnersSession(db, chatbot, input.sessionId, input.learner?.email);
  } else if (!input.learner) {
    throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.learnerRequired);
  }
  if (session && session.messageCount + 2 > MAX_CHAT_TURNS * 2 + 1) {
    throw new AppError('CONFLICT', CHATBOT_MESSAGES.conversationFull);
  }
  const sessionId = session?.id ?? randomUUID();
  const learnerName = session ? session.learnerName : input.learner?.name?.trim() || null;

  const engine = engineFor(parts, runtime.llm);
  // A new conversation starts with the agent's opening (greeting and first
  // question), stored as its first message: a bare "12" then answers it.
  const opening = session ? null : await openingOf(engine, now);
  const history = runtime.llm
    ? session
      ? (await selectTranscript(db, chatbot.organizationId, session.id))
          .slice(-HISTORY_MESSAGES)
          .map((m) => ({ role: m.role, content: m.content }))
      : opening
        ? [{ role: 'assistant' as const, content: opening.text }]
        : []
    : undefined;
  const reply = await engine.reply({
    message: input.message,
    state: session ? stateOf(session) : (opening as { state: ChatState }).state,
    now,
    ...(history ? { history } : {}),
    ...(input.onDelta ? { onDelta: input.onDelta } : {}),
  });
  const userMessageId = randomUUID();
  const replyId = randomUUID();
  // Each message a moment after the one before, so the transcript's order never depends on ties.
  const openedAt = new Date(now.getTime() - 1);
  const replyAt = new Date(now.getTime() + 1);
  const messages: NewChatMessage[] = [
    ...(opening
      ? [
          {
            id: randomUUID(),
            organizationId: chatbot.organizationId,
            sessionId,
            role: 'assistant' as const,
            content: opening.text,
            engine: 'builtin' as const,
            createdAt: openedAt,
            updatedAt: openedAt,
          },
        ]
      : []),
    {
      id: userMessageId,
      organizationId: chatbot.organizationId,
      sessionId,
      role: 'user',
      content: input.message,
      createdAt: now,
      updatedAt: now,
    },
    {
      id: replyId,
      organizationId: chatbot.organizationId,
      sessionId,
      role: 'assistant',
      content: reply.text,
      engine: reply.engine,
      citation: reply.citation,
      noAnswer: reply.noAnswer,
      createdAt: replyAt,
      updatedAt: replyAt,
    },
  ];
  const email = session?.learnerEmail ?? input.learner?.email;
  const variableIds = new Map(parts.variables.map((v) => [v.name, v.id]));
  const captures: ChatbotCapture[] = email
    ? reply.changed.flatMap((name) => {
        const chatbotVariableId = variableIds.get(name);
        const value = reply.state.captured[name];
        if (!chatbotVariableId || value === undefined) return [];
        return [
          {
            eventId: `chat:${replyId}:${name}`,
            chatbotId: chatbot.id,
            chatbotVariableId,
            variableName: name,
            value,
            at: now,
            learner: { email, name: learnerName },
            chatSessionId: sessionId,
          },
        ];
      })
    : [];

  // The conversation's start and end are events too (pipelines react to them); each happens once.
  const chatEvents: ChatbotChatEvent[] = [];
  const learner = email ? { email, name: learnerName } : null;
  if (learner && !session) {
    chatEvents.push({
      eventId: `chat:${sessionId}:started`,
      type: 'chatbot.chat.started',
      chatbotId: chatbot.id,
      chatSessionId: sessionId,
      at: openedAt,
      learner,
    });
  }
  if (learner && reply.done && !session?.done) {
    chatEvents.push({
      eventId: `chat:${sessionId}:ended`,
      type: 'chatbot.chat.ended',
      chatbotId: chatbot.id,
      chatSessionId: sessionId,
      at: replyAt,
      learner,
    });
  }

  const write = async () => {
    if (captures.length > 0 || chatEvents.length > 0) await ensureEventPartitions(db, [openedAt, replyAt]);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      if (!session && input.learner) {
        await insertChatSession(t, {
          id: sessionId,
          organizationId: chatbot.organizationId,
          chatbotId: chatbot.id,
          learnerId: await findLearnerIdByEmail(t, chatbot.organizationId, input.learner.email),
          learnerEmail: input.learner.email,
          learnerName,
          state: { ...INITIAL_CHAT_STATE },
        });
      }
      const written = await writeChatbotCaptures(
        t,
        {
          organizationId: chatbot.organizationId,
          source: 'chatbot',
          apiKeyId: null,
          publish: runtime.publish,
        },
        captures,
        chatEvents,
      );
      await storeTurn(t, {
        organizationId: chatbot.organizationId,
        sessionId,
        messages,
        state: reply.state,
        asked: [opening?.state.askedVariable, reply.state.askedVariable].filter(
          (name): name is string => typeof name === 'string',
        ),
        done: reply.done,
        learnerId: email ? (written.learners.get(email) ?? null) : null,
        at: replyAt,
      });
    });
  };
  try {
    await write();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    forgetEventPartitions(db);
    await write();
  }

  const toMessage = (message: NewChatMessage) =>
    toChatMessage({
      id: message.id as string,
      role: message.role as 'user' | 'assistant',
      content: message.content,
      engine: message.engine ?? null,
      citation: message.citation ?? null,
      created_at: message.createdAt as Date,
    });
  return {
    sessionId,
    message: toMessage(messages.at(-2) as NewChatMessage),
    reply: toMessage(messages.at(-1) as NewChatMessage),
    captured: reply.state.captured,
    changed: [...reply.changed],
    done: reply.done,
  };
}
