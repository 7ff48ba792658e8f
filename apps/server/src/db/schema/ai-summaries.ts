import { check, jsonb, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/** Which engine produced an AI answer: the offline built-in one or an LLM. */
export const AI_ENGINES = ['builtin', 'llm'] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

export const AI_SUMMARY_SOURCE_KINDS = [
  'variable',
  'course_variable',
  'chatbot_variable',
  'question',
] as const;
export type AiSummarySourceKind = (typeof AI_SUMMARY_SOURCE_KINDS)[number];

/**
 * Cache of AI summaries: one current summary per source (e.g. kind
 * `course_variable`, key `<courseId>:<variableName>`); regenerating replaces it.
 */
export const aiSummaries = pgTable(
  'ai_summaries',
  {
    id: tenantId(),
    organizationId: organizationId(),
    sourceKind: text('source_kind').$type<AiSummarySourceKind>().notNull(),
    sourceKey: text('source_key').notNull(),
    engine: text('engine').$type<AiEngine>().notNull(),
    model: text('model'),
    content: text('content').notNull(),
    /** The computed statistics the summary was written from. */
    statistics: jsonb('statistics').$type<Record<string, unknown>>(),
    generatedAt: timestamptz('generated_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'ai_summaries_pk', columns: [table.organizationId, table.id] }),
    check('ai_summaries_source_kind_check', isOneOf(table.sourceKind, AI_SUMMARY_SOURCE_KINDS)),
    check('ai_summaries_engine_check', isOneOf(table.engine, AI_ENGINES)),
    unique('ai_summaries_source_unique').on(table.organizationId, table.sourceKind, table.sourceKey),
  ],
);

export type AiSummary = typeof aiSummaries.$inferSelect;
export type NewAiSummary = typeof aiSummaries.$inferInsert;
