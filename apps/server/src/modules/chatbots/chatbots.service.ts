import { randomUUID } from 'node:crypto';
import {
  CHATBOT_MESSAGES,
  MAX_KNOWLEDGE_CHARS,
  storableText,
  type Chatbot,
  type ChatbotInsights,
  type ChatbotSpec,
  type ChatbotVariableType,
  type ChatSessionDetail,
  type ChatSessionListItem,
  type LearnerChatbotVariable,
  type ListChatbotsResponse,
  type ListChatSessionsResponse,
  type SendChatMessageResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import { AppError } from '../../errors';
import { MAX_EXPORT_ROWS, type CsvColumn } from '../../lib/csv';
import { assertCanAdd } from '../billing/entitlements';
import { insertActivity } from '../organizations/organizations.queries';
import {
  deleteChatbotRow,
  findChatbot,
  insertChatbotRow,
  replaceKnowledgeDocuments,
  selectChatbotPage,
  selectChatSessionPage,
  selectConversationTotals,
  selectKnowledgeGaps,
  selectLearnerChatbotValues,
  selectLiveCourseVariableIds,
  selectTranscript,
  selectVariableCapture,
  syncChatbotVariables,
  updateChatbotRow,
  type ChatbotWithParts,
  type ChatMessageRow,
  type ChatSessionListRow,
} from './chatbots.queries';
import type { CapturedValue } from './engine/types';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

/** The agent as the editor shows it. */
export function toChatbot({ chatbot, variables, documents, destinations }: ChatbotWithParts): Chatbot {
  return {
    id: chatbot.id,
    name: chatbot.name,
    description: chatbot.description,
    instructions: chatbot.instructions,
    welcomeMessage: chatbot.welcomeMessage,
    knowledge: chatbot.knowledge,
    documents: documents.map((document) => ({
      id: document.id,
      title: document.title,
      format: document.format,
      text: document.text,
      characters: document.text.length,
    })),
    variables: variables.map((variable) => ({
      id: variable.id,
      name: variable.name,
      title: variable.title ?? variable.name,
      type: variable.dataType,
      question: variable.question,
      description: variable.description,
      required: variable.required,
      options: variable.options,
      validation: variable.validation ?? null,
      destinationVariableIds: destinations.get(variable.id) ?? [],
    })),
    color: chatbot.color,
    avatar: chatbot.avatar,
    active: chatbot.active,
    createdAt: chatbot.createdAt.toISOString(),
    updatedAt: chatbot.updatedAt.toISOString(),
  };
}

export async function getChatbot(db: Database, organizationId: string, chatbotId: string): Promise<Chatbot> {
  const found = await findChatbot(db, organizationId, chatbotId);
  if (!found) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
  return toChatbot(found);
}

export async function listChatbots(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: ListChatbotsQueryOut['sort'];
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<ListChatbotsResponse> {
  const { rows, total } = await selectChatbotPage(db, {
    organizationId: input.organizationId,
    q: input.q,
    sort: input.sort,
    order: input.order,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      color: row.color,
      avatar: row.avatar,
      active: row.active,
      variables: row.variables,
      conversations: row.conversations,
      learners: row.learners,
      captureRate: row.conversations > 0 ? row.completed / row.conversations : null,
      lastMessageAt: isoOrNull(row.last_message_at),
      createdAt: iso(row.created_at),
    })),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}
type ListChatbotsQueryOut = { sort: 'name' | 'createdAt' | 'conversations' | 'lastMessageAt' };

/** Refuses destinations that are not variables of the organization's live courses, naming the variable. */
async function checkDestinations(db: Database, organizationId: string, spec: ChatbotSpec): Promise<void> {
  const wanted = spec.variables.flatMap((variable) => variable.destinationVariableIds);
  const live = await selectLiveCourseVariableIds(db, organizationId, wanted);
  const issues = spec.variables.flatMap((variable, index) =>
    variable.destinationVariableIds.some((id) => !live.has(id))
      ? [
          {
            path: `body.variables.${index}.destinationVariableIds`,
            message: CHATBOT_MESSAGES.destinationNotFound,
          },
        ]
      : [],
  );
  if (issues.length > 0) throw new AppError('VALIDATION_ERROR', CHATBOT_MESSAGES.destinationNotFound, issues);
}

/** Creates an agent with its variables and documents in one transaction, if the plan allows one more (402). */
export async function createChatbot(
  db: Database,
  input: { organizationId: string; userId: string | null; spec: ChatbotSpec },
): Promise<Chatbot> {
  const chatbotId = randomUUID();
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await assertCanAdd(t, input.organizationId, 'chatbots');
    await checkDestinations(t, input.organizationId, input.spec);
    await insertChatbotRow(t, {
      id: chatbotId,
      organizationId: input.organizationId,
      createdBy: input.userId,
      spec: input.spec,
    });
    await syncChatbotVariables(t, input.organizationId, chatbotId, input.spec.variables);
    await replaceKnowledgeDocuments(t, input.organizationId, chatbotId, input.spec.documents);
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'chatbot.created',
      subjectType: 'chatbot',
      subjectId: chatbotId,
      summary: `Chatbot “${input.spec.name}” created`,
      details: { variables: input.spec.variables.length },
    });
  });
  return getChatbot(db, input.organizationId, chatbotId);
}

/** Replaces an agent's settings; variables keep their ids (and values) by name. */
export async function updateChatbot(
  db: Database,
  input: { organizationId: string; userId: string | null; chatbotId: string; spec: ChatbotSpec },
): Promise<Chatbot> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if (!(await findChatbot(t, input.organizationId, input.chatbotId))) {
      throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
    }
    await checkDestinations(t, input.organizationId, input.spec);
    await updateChatbotRow(t, input.organizationId, input.chatbotId, input.spec);
    await syncChatbotVariables(t, input.organizationId, input.chatbotId, input.spec.variables);
    await replaceKnowledgeDocuments(t, input.organizationId, input.chatbotId, input.spec.documents);
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'chatbot.updated',
      subjectType: 'chatbot',
      subjectId: input.chatbotId,
      summary: `Chatbot “${input.spec.name}” updated`,
      details: { variables: input.spec.variables.length, active: input.spec.active },
    });
  });
  return getChatbot(db, input.organizationId, input.chatbotId);
}

/** Deletes an agent with its conversations and captured values. */
export async function deleteChatbot(
  db: Database,
  input: { organizationId: string; userId: string | null; chatbotId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const found = await findChatbot(t, input.organizationId, input.chatbotId);
    if (!found) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
    await deleteChatbotRow(t, input.organizationId, input.chatbotId);
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'chatbot.deleted',
      subjectType: 'chatbot',
      subjectId: input.chatbotId,
      summary: `Chatbot “${found.chatbot.name}” deleted`,
      details: {},
    });
  });
}

function capturedOf(state: Record<string, unknown> | string): Record<string, CapturedValue> {
  const parsed = jsonColumn<{ captured?: Record<string, CapturedValue> }>(state, {});
  return parsed.captured ?? {};
}

function toSessionItem(row: ChatSessionListRow): ChatSessionListItem {
  return {
    id: row.id,
    learnerId: row.learner_id,
    learnerEmail: row.learner_email,
    learnerName: row.learner_name,
    messages: row.message_count,
    captured: capturedOf(row.state),
    done: row.done,
    lastMessage: row.last_message,
    lastMessageAt: isoOrNull(row.last_message_at),
    createdAt: iso(row.created_at),
  };
}

export function toChatMessage(row: ChatMessageRow): SendChatMessageResponse['reply'] {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    engine: row.role === 'assistant' ? row.engine : null,
    citation: row.citation,
    createdAt: iso(row.created_at),
  };
}

export async function listChatSessions(
  db: Database,
  input: {
    organizationId: string;
    chatbotId: string;
    q?: string | undefined;
    captured?: boolean | undefined;
    sort: 'lastMessageAt' | 'createdAt' | 'messages';
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<ListChatSessionsResponse> {
  const rows = await selectChatSessionPage(db, {
    ...input,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return {
    items: rows.map(toSessionItem),
    total: rows[0]?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export async function getChatSessionDetail(
  db: Database,
  input: { organizationId: string; chatbotId: string; sessionId: string },
): Promise<ChatSessionDetail> {
  const [row] = await selectChatSessionPage(db, {
    ...input,
    sort: 'createdAt',
    order: 'desc',
    limit: 1,
    offset: 0,
  });
  if (!row) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.sessionNotFound);
  const transcript = await selectTranscript(db, input.organizationId, input.sessionId);
  return { ...toSessionItem(row), transcript: transcript.map(toChatMessage) };
}

export async function getChatbotInsights(
  db: Database,
  organizationId: string,
  chatbotId: string,
): Promise<ChatbotInsights> {
  const [totals, variables, gaps] = await Promise.all([
    selectConversationTotals(db, organizationId, chatbotId),
    selectVariableCapture(db, organizationId, chatbotId),
    selectKnowledgeGaps(db, organizationId, chatbotId, 20),
  ]);
  return {
    ...totals,
    variables: variables.map((v) => ({
      name: v.name,
      title: v.title ?? v.name,
      required: v.required,
      asked: v.asked,
      captured: v.captured,
      rate: v.asked > 0 ? Math.min(1, v.captured / v.asked) : null,
    })),
    knowledgeGaps: gaps.map((gap) => ({
      question: gap.question,
      count: gap.count,
      lastAskedAt: iso(gap.last_asked_at),
    })),
  };
}

/** Every conversation of an agent with its captured values, one column per variable, for a spreadsheet. */
export async function chatbotResultsExport(
  db: Database,
  organizationId: string,
  chatbotId: string,
): Promise<{ name: string; columns: CsvColumn<ChatSessionListRow>[]; rows: ChatSessionListRow[] }> {
  const found = await findChatbot(db, organizationId, chatbotId);
  if (!found) throw new AppError('NOT_FOUND', CHATBOT_MESSAGES.notFound);
  const rows = await selectChatSessionPage(db, {
    organizationId,
    chatbotId,
    sort: 'createdAt',
    order: 'asc',
    limit: MAX_EXPORT_ROWS,
    offset: 0,
  });
  const columns: CsvColumn<ChatSessionListRow>[] = [
    { header: 'Email', value: (row) => row.learner_email },
    { header: 'Name', value: (row) => row.learner_name },
    { header: 'Started', value: (row) => iso(row.created_at) },
    { header: 'Last message', value: (row) => isoOrNull(row.last_message_at) },
    { header: 'Messages', value: (row) => row.message_count },
    { header: 'Complete', value: (row) => (row.done ? 'yes' : 'no') },
    ...found.variables.map((variable): CsvColumn<ChatSessionListRow> => ({
      header: variable.title ?? variable.name,
      value: (row) => {
        const value = capturedOf(row.state)[variable.name];
        return typeof value === 'boolean' ? (value ? 'yes' : 'no') : value;
      },
    })),
  ];
  return { name: `${found.chatbot.name}-results`, columns, rows };
}

/** A learner's latest value of each chatbot variable. */
export async function listLearnerChatbotVariables(
  db: Database,
  organizationId: string,
  learnerId: string,
): Promise<LearnerChatbotVariable[]> {
  const rows = await selectLearnerChatbotValues(db, organizationId, learnerId);
  return rows.map((row) => ({
    chatbotVariableId: row.chatbot_variable_id,
    chatbotId: row.chatbot_id,
    chatbotName: row.chatbot_name,
    name: row.name,
    title: row.title ?? row.name,
    type: row.data_type as ChatbotVariableType,
    value:
      row.data_type === 'number'
        ? row.value_number
        : row.data_type === 'boolean'
          ? row.value_boolean
          : row.data_type === 'date' && row.value
            ? row.value.slice(0, 10)
            : row.value,
    recordedAt: iso(row.recorded_at),
    sessionId: row.chat_session_id,
  }));
}

/** The text of an uploaded knowledge file: markdown and text as they are, PDF pages' text. */
export async function extractKnowledgeText(input: {
  fileName: string;
  contentType: string;
  body: Buffer;
}): Promise<{ title: string; format: 'markdown' | 'text'; text: string }> {
  const name = input.fileName.trim() || 'document';
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const title = name.replace(/\.[a-z0-9]+$/i, '').trim() || name;
  const kind =
    extension === 'pdf' || input.contentType === 'application/pdf'
      ? 'pdf'
      : extension === 'md' || extension === 'markdown' || input.contentType === 'text/markdown'
        ? 'markdown'
        : extension === 'txt' || input.contentType === 'text/plain'
          ? 'text'
          : null;
  if (!kind) throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.unsupportedFile(name));
  let text: string;
  if (kind === 'pdf') {
    try {
      const { extractText, getDocumentProxy } = await import('unpdf');
      const pdf = await getDocumentProxy(new Uint8Array(input.body));
      const result = await extractText(pdf, { mergePages: false });
      text = result.text.map((page) => page.trim()).join('\n\n');
    } catch {
      throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.unreadableFile(name));
    }
  } else {
    text = new TextDecoder('utf-8', { fatal: false }).decode(input.body).replace(/^\uFEFF/, '');
  }
  // NUL and lone surrogates would fail the database write; they carry no meaning in knowledge.
  text = storableText(text).replace(/\r\n?/g, '\n').trim();
  if (!text) throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.unreadableFile(name));
  if (text.length > MAX_KNOWLEDGE_CHARS) throw new AppError('BAD_REQUEST', CHATBOT_MESSAGES.knowledgeTooLong);
  return { title: title.slice(0, 200), format: kind === 'markdown' ? 'markdown' : 'text', text };
}
