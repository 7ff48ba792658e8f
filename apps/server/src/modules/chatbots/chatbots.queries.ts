import type { ChatbotSortKey, ChatbotSpec } from '@courselens/contracts';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import {
  chatbotKnowledgeDocuments,
  chatbotVariableMappings,
  chatbots,
  chatbotVariables,
  chatMessages,
  chatSessions,
  organizations,
  type Chatbot as ChatbotRow,
  type ChatbotKnowledgeDocument,
  type ChatbotVariable as ChatbotVariableRow,
  type ChatSession as ChatSessionRow,
  type NewChatMessage,
  type StoredCitation,
} from '../../db/schema';
import { escapeLike } from '../variables/variables.queries';

export type { ChatbotRow, ChatbotVariableRow, ChatbotKnowledgeDocument, ChatSessionRow };

type Rows<T> = { rows: T[] };

/** An agent with its live variables (in asking order), the course variables each feeds, and its documents. */
export type ChatbotWithParts = {
  chatbot: ChatbotRow;
  variables: ChatbotVariableRow[];
  documents: ChatbotKnowledgeDocument[];
  destinations: Map<string, string[]>;
};

export async function insertChatbotRow(
  db: Database,
  row: { id: string; organizationId: string; createdBy: string | null; spec: ChatbotSpec },
): Promise<void> {
  await db.insert(chatbots).values({
    id: row.id,
    organizationId: row.organizationId,
    createdBy: row.createdBy,
    ...chatbotColumns(row.spec),
  });
}

export async function updateChatbotRow(
  db: Database,
  organizationId: string,
  chatbotId: string,
  spec: ChatbotSpec,
): Promise<void> {
  await db
    .update(chatbots)
    .set({ ...chatbotColumns(spec), updatedAt: new Date() })
    .where(and(eq(chatbots.organizationId, organizationId), eq(chatbots.id, chatbotId)));
}

function chatbotColumns(spec: ChatbotSpec) {
  return {
    name: spec.name,
    description: spec.description ?? null,
    instructions: spec.instructions,
    knowledge: spec.knowledge,
    welcomeMessage: spec.welcomeMessage ?? null,
    color: spec.color,
    avatar: spec.avatar ?? null,
    active: spec.active,
  };
}

/**
 * Makes the agent's variables the given ones, matched by name (without
 * case): a variable kept keeps its id and so its captured values; one left
 * out is switched off rather than deleted, so its values stay in reports;
 * a name seen before is switched on again.
 */
export async function syncChatbotVariables(
  db: Database,
  organizationId: string,
  chatbotId: string,
  variables: ChatbotSpec['variables'],
): Promise<void> {
  const existing = await db
    .select({ id: chatbotVariables.id, name: chatbotVariables.name })
    .from(chatbotVariables)
    .where(
      and(eq(chatbotVariables.organizationId, organizationId), eq(chatbotVariables.chatbotId, chatbotId)),
    );
  const byName = new Map(existing.map((row) => [row.name.toLowerCase(), row.id]));
  const kept = new Set<string>();
  for (const [position, variable] of variables.entries()) {
    const columns = {
      name: variable.name,
      title: variable.title,
      description: variable.description,
      dataType: variable.type,
      question: variable.question,
      required: variable.required,
      options: variable.options,
      validation: variable.validation,
      position,
      active: true,
    };
    let id = byName.get(variable.name.toLowerCase());
    if (id) {
      kept.add(id);
      await db
        .update(chatbotVariables)
        .set({ ...columns, updatedAt: new Date() })
        .where(and(eq(chatbotVariables.organizationId, organizationId), eq(chatbotVariables.id, id)));
    } else {
      const [inserted] = await db
        .insert(chatbotVariables)
        .values({ organizationId, chatbotId, ...columns })
        .returning({ id: chatbotVariables.id });
      id = inserted?.id;
    }
    if (id) await replaceMappings(db, organizationId, id, variable.destinationVariableIds);
  }
  const dropped = existing.filter((row) => !kept.has(row.id)).map((row) => row.id);
  if (dropped.length > 0) {
    await db.execute(sql`
      update chatbot_variables set active = false, updated_at = now()
      where organization_id = ${organizationId} and id = any(${sql.param(dropped)}::uuid[])`);
  }
}

/** The course variables a chatbot variable feeds, replaced whole. */
async function replaceMappings(
  db: Database,
  organizationId: string,
  chatbotVariableId: string,
  destinationVariableIds: readonly string[],
): Promise<void> {
  await db
    .delete(chatbotVariableMappings)
    .where(
      and(
        eq(chatbotVariableMappings.organizationId, organizationId),
        eq(chatbotVariableMappings.chatbotVariableId, chatbotVariableId),
      ),
    );
  if (destinationVariableIds.length === 0) return;
  await db.insert(chatbotVariableMappings).values(
    destinationVariableIds.map((destinationVariableId) => ({
      organizationId,
      chatbotVariableId,
      destinationVariableId,
    })),
  );
}

/** Which of `ids` are variables of the organization's live courses. */
export async function selectLiveCourseVariableIds(
  db: Database,
  organizationId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result: Rows<{ id: string }> = await db.execute(sql`
    select v.id from variables v
    join courses c on c.organization_id = v.organization_id and c.id = v.course_id
    where v.organization_id = ${organizationId} and v.id = any(${sql.param([...ids])}::uuid[])
      and not c.is_deleted`);
  return new Set(result.rows.map((row) => row.id));
}

export async function replaceKnowledgeDocuments(
  db: Database,
  organizationId: string,
  chatbotId: string,
  documents: ChatbotSpec['documents'],
): Promise<void> {
  await db
    .delete(chatbotKnowledgeDocuments)
    .where(
      and(
        eq(chatbotKnowledgeDocuments.organizationId, organizationId),
        eq(chatbotKnowledgeDocuments.chatbotId, chatbotId),
      ),
    );
  if (documents.length === 0) return;
  await db.insert(chatbotKnowledgeDocuments).values(
    documents.map((document, position) => ({
      organizationId,
      chatbotId,
      title: document.title,
      format: document.format,
      text: document.text,
      position,
    })),
  );
}

export async function deleteChatbotRow(
  db: Database,
  organizationId: string,
  chatbotId: string,
): Promise<void> {
  await db
    .delete(chatbots)
    .where(and(eq(chatbots.organizationId, organizationId), eq(chatbots.id, chatbotId)));
}

/** The agent with its live variables and documents, or null. Organization-scoped: no other tenant's agent. */
export async function findChatbot(
  db: Database,
  organizationId: string | null,
  chatbotId: string,
): Promise<ChatbotWithParts | null> {
  const [chatbot] = await db
    .select()
    .from(chatbots)
    .where(
      organizationId === null
        ? eq(chatbots.id, chatbotId)
        : and(eq(chatbots.organizationId, organizationId), eq(chatbots.id, chatbotId)),
    )
    .limit(1);
  if (!chatbot) return null;
  const [variables, documents] = await Promise.all([
    db
      .select()
      .from(chatbotVariables)
      .where(
        and(
          eq(chatbotVariables.organizationId, chatbot.organizationId),
          eq(chatbotVariables.chatbotId, chatbot.id),
          eq(chatbotVariables.active, true),
        ),
      )
      .orderBy(asc(chatbotVariables.position), asc(chatbotVariables.createdAt)),
    db
      .select()
      .from(chatbotKnowledgeDocuments)
      .where(
        and(
          eq(chatbotKnowledgeDocuments.organizationId, chatbot.organizationId),
          eq(chatbotKnowledgeDocuments.chatbotId, chatbot.id),
        ),
      )
      .orderBy(asc(chatbotKnowledgeDocuments.position)),
  ]);
  const mappings =
    variables.length === 0
      ? []
      : await db
          .select({
            chatbotVariableId: chatbotVariableMappings.chatbotVariableId,
            destinationVariableId: chatbotVariableMappings.destinationVariableId,
          })
          .from(chatbotVariableMappings)
          .where(
            and(
              eq(chatbotVariableMappings.organizationId, chatbot.organizationId),
              inArray(
                chatbotVariableMappings.chatbotVariableId,
                variables.map((v) => v.id),
              ),
            ),
          )
          .orderBy(asc(chatbotVariableMappings.createdAt));
  const destinations = new Map<string, string[]>();
  for (const mapping of mappings) {
    destinations.set(mapping.chatbotVariableId, [
      ...(destinations.get(mapping.chatbotVariableId) ?? []),
      mapping.destinationVariableId,
    ]);
  }
  return { chatbot, variables, documents, destinations };
}

export type ChatbotListRow = {
  id: string;
  name: string;
  description: string | null;
  color: string;
  avatar: string | null;
  active: boolean;
  variables: number;
  conversations: number;
  learners: number;
  completed: number;
  last_message_at: Date | string | null;
  created_at: Date | string;
};

const CHATBOT_SORT: Record<ChatbotSortKey, string> = {
  name: 'lower(name)',
  createdAt: 'created_at',
  conversations: 'conversations',
  lastMessageAt: 'last_message_at',
};

/** One page of the organization's agents with their conversation counts, in one statement. */
export async function selectChatbotPage(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: ChatbotSortKey;
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
): Promise<{ rows: ChatbotListRow[]; total: number }> {
  const where = input.q
    ? sql`b.organization_id = ${input.organizationId} and b.name ilike ${`%${escapeLike(input.q)}%`}`
    : sql`b.organization_id = ${input.organizationId}`;
  const direction = sql.raw(input.order === 'asc' ? 'asc nulls first' : 'desc nulls last');
  const result: Rows<ChatbotListRow & { total: number }> = await db.execute(sql`
    with listed as (
      select b.id, b.name, b.description, b.color, b.avatar, b.active, b.created_at,
        (select count(*)::int from chatbot_variables v
          where v.organization_id = b.organization_id and v.chatbot_id = b.id and v.active) as variables,
        s.conversations, s.learners, s.completed, s.last_message_at
      from chatbots b
      cross join lateral (
        select count(*)::int as conversations,
          count(distinct coalesce(cs.learner_id::text, cs.learner_email))::int as learners,
          count(*) filter (where cs.done)::int as completed,
          max(cs.last_message_at) as last_message_at
        from chat_sessions cs
        where cs.organization_id = b.organization_id and cs.chatbot_id = b.id and cs.message_count > 0
      ) s
      where ${where}
    )
    select *, count(*) over ()::int as total from listed
    order by ${sql.raw(CHATBOT_SORT[input.sort])} ${direction}, created_at desc, id
    limit ${input.limit} offset ${input.offset}`);
  const total = result.rows[0]?.total ?? (input.offset > 0 ? await countChatbots(db, where) : 0);
  return { rows: result.rows, total };
}

async function countChatbots(db: Database, where: SQL): Promise<number> {
  const result: Rows<{ total: number }> = await db.execute(
    sql`select count(*)::int as total from chatbots b where ${where}`,
  );
  return result.rows[0]?.total ?? 0;
}

/** What the public chat page shows: the agent and its organization's name, found by id alone. */
export async function findPublicChatbot(
  db: Database,
  chatbotId: string,
): Promise<(ChatbotRow & { organizationName: string | null }) | null> {
  const [row] = await db
    .select({ chatbot: chatbots, organizationName: organizations.name })
    .from(chatbots)
    .innerJoin(organizations, eq(organizations.id, chatbots.organizationId))
    .where(eq(chatbots.id, chatbotId))
    .limit(1);
  return row ? { ...row.chatbot, organizationName: row.organizationName } : null;
}

export async function insertChatSession(
  db: Database,
  row: {
    id: string;
    organizationId: string;
    chatbotId: string;
    learnerId: string | null;
    learnerEmail: string;
    learnerName: string | null;
    state: Record<string, unknown>;
  },
): Promise<ChatSessionRow> {
  const [session] = await db.insert(chatSessions).values(row).returning();
  if (!session) throw new Error('The conversation was not stored');
  return session;
}

export async function findChatSession(
  db: Database,
  organizationId: string,
  chatbotId: string,
  sessionId: string,
): Promise<ChatSessionRow | null> {
  const [session] = await db
    .select()
    .from(chatSessions)
    .where(
      and(
        eq(chatSessions.organizationId, organizationId),
        eq(chatSessions.chatbotId, chatbotId),
        eq(chatSessions.id, sessionId),
      ),
    )
    .limit(1);
  return session ?? null;
}

/** The learner of that e-mail in the organization, if they exist already (course data, an earlier chat). */
export async function findLearnerIdByEmail(
  db: Database,
  organizationId: string,
  email: string,
): Promise<string | null> {
  const result: Rows<{ id: string }> = await db.execute(sql`
    select id from learners where organization_id = ${organizationId} and email = lower(${email}) limit 1`);
  return result.rows[0]?.id ?? null;
}

/** A turn's two messages and the conversation's new state, written together. */
export async function storeTurn(
  db: Database,
  input: {
    organizationId: string;
    sessionId: string;
    messages: readonly NewChatMessage[];
    state: Record<string, unknown>;
    /** Variables the turn asked for. */
    asked: readonly string[];
    done: boolean;
    learnerId: string | null;
    at: Date;
  },
): Promise<void> {
  await db.insert(chatMessages).values([...input.messages]);
  await db.execute(sql`
    update chat_sessions set
      state = ${JSON.stringify(input.state)}::jsonb,
      asked = (select coalesce(jsonb_agg(distinct name), '[]'::jsonb)
        from jsonb_array_elements_text(asked || ${JSON.stringify(input.asked)}::jsonb) as name),
      message_count = message_count + ${input.messages.length},
      done = ${input.done},
      learner_id = coalesce(learner_id, ${input.learnerId}::uuid),
      last_message_at = ${input.at.toISOString()}::timestamptz,
      updated_at = now()
    where organization_id = ${input.organizationId} and id = ${input.sessionId}`);
}

export type ChatMessageRow = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  engine: 'builtin' | 'llm' | null;
  citation: StoredCitation | null;
  created_at: Date | string;
};

/** A conversation's messages in order (system messages are never shown). */
export async function selectTranscript(
  db: Database,
  organizationId: string,
  sessionId: string,
): Promise<ChatMessageRow[]> {
  const result: Rows<ChatMessageRow & { citation: StoredCitation | string | null }> = await db.execute(sql`
    select id, role, content, engine, citation, created_at from chat_messages
    where organization_id = ${organizationId} and session_id = ${sessionId} and role <> 'system'
    order by created_at, case role when 'user' then 0 else 1 end, id`);
  return result.rows.map((row) => ({
    ...row,
    citation: jsonColumn<StoredCitation | null>(row.citation, null),
  }));
}

export type ChatSessionListRow = {
  id: string;
  learner_id: string | null;
  learner_email: string | null;
  learner_name: string | null;
  message_count: number;
  state: Record<string, unknown> | string;
  done: boolean;
  last_message: string | null;
  last_message_at: Date | string | null;
  created_at: Date | string;
  total: number;
};

const SESSION_SORT: Record<'lastMessageAt' | 'createdAt' | 'messages', string> = {
  lastMessageAt: 'cs.last_message_at',
  createdAt: 'cs.created_at',
  messages: 'cs.message_count',
};

/** One page of an agent's conversations (those with at least one message). */
export async function selectChatSessionPage(
  db: Database,
  input: {
    organizationId: string;
    chatbotId: string;
    sessionId?: string;
    q?: string | undefined;
    captured?: boolean | undefined;
    sort: 'lastMessageAt' | 'createdAt' | 'messages';
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
): Promise<ChatSessionListRow[]> {
  const conditions: SQL[] = [
    sql`cs.organization_id = ${input.organizationId}`,
    sql`cs.chatbot_id = ${input.chatbotId}`,
    sql`cs.message_count > 0`,
  ];
  if (input.sessionId) conditions.push(sql`cs.id = ${input.sessionId}`);
  if (input.q) {
    const like = `%${escapeLike(input.q)}%`;
    conditions.push(
      sql`(coalesce(l.email, cs.learner_email) ilike ${like} or coalesce(l.name, cs.learner_name) ilike ${like})`,
    );
  }
  if (input.captured !== undefined) conditions.push(sql`cs.done = ${input.captured}`);
  const direction = sql.raw(input.order === 'asc' ? 'asc nulls first' : 'desc nulls last');
  const result: Rows<ChatSessionListRow> = await db.execute(sql`
    select cs.id, cs.learner_id, coalesce(l.email, cs.learner_email) as learner_email,
      coalesce(l.name, cs.learner_name) as learner_name, cs.message_count, cs.state, cs.done,
      (select m.content from chat_messages m
        where m.organization_id = cs.organization_id and m.session_id = cs.id and m.role = 'user'
        order by m.created_at desc limit 1) as last_message,
      cs.last_message_at, cs.created_at, count(*) over ()::int as total
    from chat_sessions cs
    left join learners l on l.organization_id = cs.organization_id and l.id = cs.learner_id
    where ${sql.join(conditions, sql` and `)}
    order by ${sql.raw(SESSION_SORT[input.sort])} ${direction}, cs.id
    limit ${input.limit} offset ${input.offset}`);
  return result.rows;
}

export type VariableCaptureRow = {
  name: string;
  title: string | null;
  required: boolean;
  asked: number;
  captured: number;
};

/** Per live variable: in how many conversations it was asked for, and captured. */
export async function selectVariableCapture(
  db: Database,
  organizationId: string,
  chatbotId: string,
): Promise<VariableCaptureRow[]> {
  const result: Rows<VariableCaptureRow> = await db.execute(sql`
    select v.name, v.title, v.required,
      (select count(*)::int from chat_sessions cs
        where cs.organization_id = v.organization_id and cs.chatbot_id = v.chatbot_id
          and cs.asked ? v.name) as asked,
      (select count(distinct cs.id)::int from chat_sessions cs
        where cs.organization_id = v.organization_id and cs.chatbot_id = v.chatbot_id
          and cs.state -> 'captured' ? v.name) as captured
    from chatbot_variables v
    where v.organization_id = ${organizationId} and v.chatbot_id = ${chatbotId} and v.active
    order by v.position, v.created_at`);
  return result.rows;
}

export async function selectConversationTotals(
  db: Database,
  organizationId: string,
  chatbotId: string,
): Promise<{ conversations: number; learners: number; completed: number }> {
  const result: Rows<{ conversations: number; learners: number; completed: number }> = await db.execute(sql`
    select count(*)::int as conversations,
      count(distinct coalesce(learner_id::text, learner_email))::int as learners,
      count(*) filter (where done)::int as completed
    from chat_sessions
    where organization_id = ${organizationId} and chatbot_id = ${chatbotId} and message_count > 0`);
  return result.rows[0] ?? { conversations: 0, learners: 0, completed: 0 };
}

/**
 * Questions the knowledge had no answer for: each unanswered reply's
 * question (the learner message just before it), grouped by its wording
 * (case and spacing aside), most asked first.
 */
export async function selectKnowledgeGaps(
  db: Database,
  organizationId: string,
  chatbotId: string,
  limit: number,
): Promise<{ question: string; count: number; last_asked_at: Date | string }[]> {
  const result: Rows<{ question: string; count: number; last_asked_at: Date | string }> =
    await db.execute(sql`
    with gaps as (
      select q.content, q.created_at
      from chat_messages a
      join chat_sessions cs on cs.organization_id = a.organization_id and cs.id = a.session_id
      cross join lateral (
        select m.content, m.created_at from chat_messages m
        where m.organization_id = a.organization_id and m.session_id = a.session_id and m.role = 'user'
          and m.created_at <= a.created_at
        order by m.created_at desc limit 1
      ) q
      where a.organization_id = ${organizationId} and cs.chatbot_id = ${chatbotId}
        and a.role = 'assistant' and a.no_answer
    )
    select min(content) as question, count(*)::int as count, max(created_at) as last_asked_at
    from gaps
    group by lower(regexp_replace(trim(content), '\\s+', ' ', 'g'))
    order by count desc, max(created_at) desc
    limit ${limit}`);
  return result.rows;
}

export type LearnerChatbotValueRow = {
  chatbot_variable_id: string;
  chatbot_id: string;
  chatbot_name: string;
  name: string;
  title: string | null;
  data_type: string;
  value: string | null;
  value_number: number | null;
  value_boolean: boolean | null;
  recorded_at: Date | string;
  chat_session_id: string | null;
};

/** The learner's latest value of each chatbot variable, newest first. */
export async function selectLearnerChatbotValues(
  db: Database,
  organizationId: string,
  learnerId: string,
): Promise<LearnerChatbotValueRow[]> {
  const result: Rows<LearnerChatbotValueRow> = await db.execute(sql`
    select * from (
      select distinct on (x.chatbot_variable_id) x.chatbot_variable_id, v.chatbot_id, b.name as chatbot_name,
        v.name, v.title, v.data_type, x.value, x.value_number, x.value_boolean, x.recorded_at, x.chat_session_id
      from learner_chatbot_variable_values x
      join chatbot_variables v on v.organization_id = x.organization_id and v.id = x.chatbot_variable_id
      join chatbots b on b.organization_id = v.organization_id and b.id = v.chatbot_id
      where x.organization_id = ${organizationId} and x.learner_id = ${learnerId}
      order by x.chatbot_variable_id, x.recorded_at desc, x.created_at desc
    ) latest
    order by recorded_at desc, name`);
  return result.rows;
}
