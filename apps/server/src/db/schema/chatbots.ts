import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { AI_ENGINES, type AiEngine } from './ai-summaries';
import { authUsers } from './auth';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { learners } from './learners';
import { organizationId } from './organizations';
import { VARIABLE_DATA_TYPES, typedValueColumns, variables } from './variables';

export const CHAT_MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;
export type ChatMessageRole = (typeof CHAT_MESSAGE_ROLES)[number];

/** A chatbot variable's type: a course variable's types, and a choice among options (stored as text). */
export const CHATBOT_VARIABLE_DATA_TYPES = [...VARIABLE_DATA_TYPES, 'choice'] as const;
export type ChatbotVariableDataType = (typeof CHATBOT_VARIABLE_DATA_TYPES)[number];

export const KNOWLEDGE_DOCUMENT_FORMATS = ['markdown', 'text'] as const;
export type KnowledgeDocumentFormat = (typeof KNOWLEDGE_DOCUMENT_FORMATS)[number];

/** What a variable's answer must satisfy (the contracts' `chatbotVariableValidationSchema`). */
export type StoredVariableValidation = {
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  minDate?: string;
  maxDate?: string;
};

/** A turn's citation: the passage a reply quotes. */
export type StoredCitation = { document: string; title: string; quote: string };

/** A custom AI agent: instructions, knowledge to retrieve from, variables to fill. */
export const chatbots = pgTable(
  'chatbots',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    instructions: text('instructions').notNull().default(''),
    knowledge: text('knowledge').notNull().default(''),
    welcomeMessage: text('welcome_message'),
    /** The chat's accent colour (#rrggbb) and avatar (an emoji or initials). */
    color: text('color').notNull().default('#4f46e5'),
    avatar: text('avatar'),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chatbots_pk', columns: [table.organizationId, table.id] }),
    index('chatbots_org_created_idx').on(table.organizationId, table.createdAt),
    // The public chat finds an agent by its id alone (the address a course embeds).
    index('chatbots_id_idx').on(table.id),
  ],
);

/** A variable a chatbot collects from the learner during a chat. */
export const chatbotVariables = pgTable(
  'chatbot_variables',
  {
    id: tenantId(),
    organizationId: organizationId(),
    chatbotId: uuid('chatbot_id').notNull(),
    name: text('name').notNull(),
    title: text('title'),
    description: text('description'),
    dataType: text('data_type').$type<ChatbotVariableDataType>().notNull().default('text'),
    /** What the agent asks to get it. */
    question: text('question').notNull().default(''),
    required: boolean('required').notNull().default(true),
    /** Choice variables: the options, spelled as they are stored. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    validation: jsonb('validation').$type<StoredVariableValidation>(),
    /** The order the agent asks in. */
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chatbot_variables_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'chatbot_variables_chatbot_fk',
      columns: [table.organizationId, table.chatbotId],
      foreignColumns: [chatbots.organizationId, chatbots.id],
    }).onDelete('cascade'),
    check('chatbot_variables_data_type_check', isOneOf(table.dataType, CHATBOT_VARIABLE_DATA_TYPES)),
    unique('chatbot_variables_org_chatbot_name_unique').on(table.organizationId, table.chatbotId, table.name),
    index('chatbot_variables_org_name_idx').on(table.organizationId, table.name),
  ],
);

/** A conversation with a chatbot, by a learner (or a signed-in user trying it). */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: tenantId(),
    organizationId: organizationId(),
    chatbotId: uuid('chatbot_id').notNull(),
    learnerId: uuid('learner_id'),
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    title: text('title'),
    /**
     * Who the learner said they are, kept from the first message: the
     * learner row (`learner_id`) exists once something was captured, or
     * already did from their course data.
     */
    learnerEmail: text('learner_email'),
    learnerName: text('learner_name'),
    /** The engine's memory between turns (`ChatState`): captured values, what was asked last. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    /** Variables the agent asked for at least once (capture rate per question). */
    asked: jsonb('asked').$type<string[]>().notNull().default([]),
    messageCount: integer('message_count').notNull().default(0),
    /** Every required variable is captured. */
    done: boolean('done').notNull().default(false),
    lastMessageAt: timestamptz('last_message_at'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chat_sessions_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'chat_sessions_chatbot_fk',
      columns: [table.organizationId, table.chatbotId],
      foreignColumns: [chatbots.organizationId, chatbots.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'chat_sessions_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    index('chat_sessions_org_chatbot_created_idx').on(
      table.organizationId,
      table.chatbotId,
      table.createdAt.desc().nullsFirst(),
    ),
    index('chat_sessions_org_learner_idx').on(table.organizationId, table.learnerId),
  ],
);

/** Knowledge an agent answers from, beyond its typed knowledge text: uploaded files' text. */
export const chatbotKnowledgeDocuments = pgTable(
  'chatbot_knowledge_documents',
  {
    id: tenantId(),
    organizationId: organizationId(),
    chatbotId: uuid('chatbot_id').notNull(),
    title: text('title').notNull(),
    format: text('format').$type<KnowledgeDocumentFormat>().notNull().default('markdown'),
    text: text('text').notNull(),
    position: integer('position').notNull().default(0),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chatbot_knowledge_documents_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'chatbot_knowledge_documents_chatbot_fk',
      columns: [table.organizationId, table.chatbotId],
      foreignColumns: [chatbots.organizationId, chatbots.id],
    }).onDelete('cascade'),
    check('chatbot_knowledge_documents_format_check', isOneOf(table.format, KNOWLEDGE_DOCUMENT_FORMATS)),
    index('chatbot_knowledge_documents_chatbot_idx').on(table.organizationId, table.chatbotId),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: tenantId(),
    organizationId: organizationId(),
    sessionId: uuid('session_id').notNull(),
    role: text('role').$type<ChatMessageRole>().notNull(),
    content: text('content').notNull(),
    /** For assistant messages: which engine answered. */
    engine: text('engine').$type<AiEngine>(),
    /** Assistant messages: the passage quoted. */
    citation: jsonb('citation').$type<StoredCitation>(),
    /** Assistant messages: the learner asked something the knowledge does not cover. */
    noAnswer: boolean('no_answer').notNull().default(false),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chat_messages_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'chat_messages_session_fk',
      columns: [table.organizationId, table.sessionId],
      foreignColumns: [chatSessions.organizationId, chatSessions.id],
    }).onDelete('cascade'),
    check('chat_messages_role_check', isOneOf(table.role, CHAT_MESSAGE_ROLES)),
    check('chat_messages_engine_check', isOneOf(table.engine, AI_ENGINES)),
    index('chat_messages_org_session_created_idx').on(table.organizationId, table.sessionId, table.createdAt),
  ],
);

/** Values a chatbot collected for a learner (same typed columns as course values). */
export const learnerChatbotVariableValues = pgTable(
  'learner_chatbot_variable_values',
  {
    id: tenantId(),
    organizationId: organizationId(),
    chatbotVariableId: uuid('chatbot_variable_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    chatSessionId: uuid('chat_session_id'),
    ...typedValueColumns(),
    recordedAt: timestamptz('recorded_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'learner_chatbot_variable_values_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'learner_chatbot_variable_values_chatbot_variable_fk',
      columns: [table.organizationId, table.chatbotVariableId],
      foreignColumns: [chatbotVariables.organizationId, chatbotVariables.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learner_chatbot_variable_values_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    // The migration declares it `ON DELETE SET NULL (chat_session_id)`
    // (PostgreSQL 15+; drizzle-kit cannot say it): a plain SET NULL would
    // null organization_id too. Regenerating this key must keep the column
    // list; src/db/distribution.test.ts fails otherwise.
    foreignKey({
      name: 'learner_chatbot_variable_values_chat_session_fk',
      columns: [table.organizationId, table.chatSessionId],
      foreignColumns: [chatSessions.organizationId, chatSessions.id],
    }).onDelete('set null'),
    index('learner_chatbot_variable_values_latest_idx').on(
      table.organizationId,
      table.chatbotVariableId,
      table.learnerId,
      table.recordedAt.desc().nullsFirst(),
    ),
    index('learner_chatbot_variable_values_variable_time_idx').on(
      table.organizationId,
      table.chatbotVariableId,
      table.recordedAt,
    ),
    index('learner_chatbot_variable_values_learner_idx').on(table.organizationId, table.learnerId),
  ],
);

/** Feeds a chatbot variable into a course variable (destination) of the organization. */
export const chatbotVariableMappings = pgTable(
  'chatbot_variable_mappings',
  {
    id: tenantId(),
    organizationId: organizationId(),
    chatbotVariableId: uuid('chatbot_variable_id').notNull(),
    destinationVariableId: uuid('destination_variable_id').notNull(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'chatbot_variable_mappings_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'chatbot_variable_mappings_chatbot_variable_fk',
      columns: [table.organizationId, table.chatbotVariableId],
      foreignColumns: [chatbotVariables.organizationId, chatbotVariables.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'chatbot_variable_mappings_destination_fk',
      columns: [table.organizationId, table.destinationVariableId],
      foreignColumns: [variables.organizationId, variables.id],
    }).onDelete('cascade'),
    unique('chatbot_variable_mappings_unique').on(
      table.organizationId,
      table.chatbotVariableId,
      table.destinationVariableId,
    ),
    index('chatbot_variable_mappings_destination_idx').on(table.organizationId, table.destinationVariableId),
  ],
);

export type Chatbot = typeof chatbots.$inferSelect;
export type NewChatbot = typeof chatbots.$inferInsert;
export type ChatbotVariable = typeof chatbotVariables.$inferSelect;
export type NewChatbotVariable = typeof chatbotVariables.$inferInsert;
export type ChatSession = typeof chatSessions.$inferSelect;
export type NewChatSession = typeof chatSessions.$inferInsert;
export type ChatMessage = typeof chatMessages.$inferSelect;
export type NewChatMessage = typeof chatMessages.$inferInsert;
export type LearnerChatbotVariableValue = typeof learnerChatbotVariableValues.$inferSelect;
export type NewLearnerChatbotVariableValue = typeof learnerChatbotVariableValues.$inferInsert;
export type ChatbotKnowledgeDocument = typeof chatbotKnowledgeDocuments.$inferSelect;
export type ChatbotVariableMapping = typeof chatbotVariableMappings.$inferSelect;
export type NewChatbotVariableMapping = typeof chatbotVariableMappings.$inferInsert;
