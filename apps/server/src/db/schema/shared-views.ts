import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { chatbotVariables } from './chatbots';
import { isOneOf, tenantId, timestamps } from './columns';
import { organizationId } from './organizations';
import { questions } from './questions';
import { variables } from './variables';

export const SHARED_VIEW_KINDS = ['variable', 'question', 'chatbot_variable'] as const;
export type SharedViewKind = (typeof SHARED_VIEW_KINDS)[number];

/**
 * Sharing switched on for one variable, question or chatbot variable: its
 * report, chart and leaders pages are readable without sign-in through
 * `token` while `enabled`. Exactly the target column matching `kind` is set;
 * one row per target.
 */
export const sharedViews = pgTable(
  'shared_views',
  {
    id: tenantId(),
    organizationId: organizationId(),
    kind: text('kind').$type<SharedViewKind>().notNull(),
    variableId: uuid('variable_id'),
    questionId: uuid('question_id'),
    chatbotVariableId: uuid('chatbot_variable_id'),
    token: text('token').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    viewCount: integer('view_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'shared_views_pk', columns: [table.organizationId, table.id] }),
    // The target columns are null except the one matching `kind`; a null
    // target is not checked (MATCH SIMPLE).
    foreignKey({
      name: 'shared_views_variable_fk',
      columns: [table.organizationId, table.variableId],
      foreignColumns: [variables.organizationId, variables.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'shared_views_question_fk',
      columns: [table.organizationId, table.questionId],
      foreignColumns: [questions.organizationId, questions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'shared_views_chatbot_variable_fk',
      columns: [table.organizationId, table.chatbotVariableId],
      foreignColumns: [chatbotVariables.organizationId, chatbotVariables.id],
    }).onDelete('cascade'),
    // Unique within the organization (a distributed table's keys must hold
    // it); the token leads so that the public page, opened without an
    // organization, is found by this index.
    unique('shared_views_token_unique').on(table.token, table.organizationId),
    check('shared_views_kind_check', isOneOf(table.kind, SHARED_VIEW_KINDS)),
    check(
      'shared_views_target_matches_kind',
      sql`(${table.kind} = 'variable') = (${table.variableId} is not null)
        and (${table.kind} = 'question') = (${table.questionId} is not null)
        and (${table.kind} = 'chatbot_variable') = (${table.chatbotVariableId} is not null)`,
    ),
    unique('shared_views_target_unique')
      .on(table.organizationId, table.kind, table.variableId, table.questionId, table.chatbotVariableId)
      .nullsNotDistinct(),
  ],
);

export type SharedView = typeof sharedViews.$inferSelect;
export type NewSharedView = typeof sharedViews.$inferInsert;
