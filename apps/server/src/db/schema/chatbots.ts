import { boolean, check, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { AI_ENGINES, type AiEngine } from './ai-summaries';
import { authUsers } from './auth';
import { isOneOf, primaryId, timestamps, timestamptz } from './columns';
import { learners } from './learners';
import { organizationId } from './organizations';
import { VARIABLE_DATA_TYPES, typedValueColumns, variables, type VariableDataType } from './variables';

export const CHAT_MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;
export type ChatMessageRole = (typeof CHAT_MESSAGE_ROLES)[number];

/** A custom AI agent: instructions, knowledge to retrieve from, variables to fill. */
export const chatbots = pgTable(
  'chatbots',
  {
    id: primaryId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    instructions: text('instructions').notNull().default(''),
    knowledge: text('knowledge').notNull().default(''),
    welcomeMessage: text('welcome_message'),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [index('chatbots_org_created_idx').on(table.organizationId, table.createdAt)],
);

/** A variable a chatbot collects from the learner during a chat. */
export const chatbotVariables = pgTable(
  'chatbot_variables',
  {
    id: primaryId(),
    organizationId: organizationId(),
    chatbotId: uuid('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    title: text('title'),
    description: text('description'),
    dataType: text('data_type').$type<VariableDataType>().notNull().default('text'),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (table) => [
    check('chatbot_variables_data_type_check', isOneOf(table.dataType, VARIABLE_DATA_TYPES)),
    unique('chatbot_variables_org_chatbot_name_unique').on(table.organizationId, table.chatbotId, table.name),
    index('chatbot_variables_org_name_idx').on(table.organizationId, table.name),
  ],
);

/** A conversation with a chatbot, by a learner (or a signed-in user trying it). */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: primaryId(),
    organizationId: organizationId(),
    chatbotId: uuid('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id').references(() => learners.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    title: text('title'),
    ...timestamps(),
  },
  (table) => [
    index('chat_sessions_org_chatbot_created_idx').on(
      table.organizationId,
      table.chatbotId,
      table.createdAt.desc().nullsFirst(),
    ),
    index('chat_sessions_org_learner_idx').on(table.organizationId, table.learnerId),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: primaryId(),
    organizationId: organizationId(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    role: text('role').$type<ChatMessageRole>().notNull(),
    content: text('content').notNull(),
    /** For assistant messages: which engine answered. */
    engine: text('engine').$type<AiEngine>(),
    ...timestamps(),
  },
  (table) => [
    check('chat_messages_role_check', isOneOf(table.role, CHAT_MESSAGE_ROLES)),
    check('chat_messages_engine_check', isOneOf(table.engine, AI_ENGINES)),
    index('chat_messages_org_session_created_idx').on(table.organizationId, table.sessionId, table.createdAt),
  ],
);

/** Values a chatbot collected for a learner (same typed columns as course values). */
export const learnerChatbotVariableValues = pgTable(
  'learner_chatbot_variable_values',
  {
    id: primaryId(),
    organizationId: organizationId(),
    chatbotVariableId: uuid('chatbot_variable_id')
      .notNull()
      .references(() => chatbotVariables.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    chatSessionId: uuid('chat_session_id').references(() => chatSessions.id, {
      onDelete: 'set null',
    }),
    ...typedValueColumns(),
    recordedAt: timestamptz('recorded_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (table) => [
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
    id: primaryId(),
    organizationId: organizationId(),
    chatbotVariableId: uuid('chatbot_variable_id')
      .notNull()
      .references(() => chatbotVariables.id, { onDelete: 'cascade' }),
    destinationVariableId: uuid('destination_variable_id')
      .notNull()
      .references(() => variables.id, { onDelete: 'cascade' }),
    ...timestamps(),
  },
  (table) => [
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
export type ChatbotVariableMapping = typeof chatbotVariableMappings.$inferSelect;
export type NewChatbotVariableMapping = typeof chatbotVariableMappings.$inferInsert;
