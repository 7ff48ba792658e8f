import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { isOneOf, timestamptz } from './columns';
import { courses } from './courses';
import { learners } from './learners';
import { organizationId, tenantOrganizationId } from './organizations';

export const LEARNING_EVENT_TYPES = [
  'course.started',
  'slide.viewed',
  'variable.set',
  'question.answered',
  'course.progressed',
  'course.passed',
  'course.failed',
  'course.exited',
  'course.completed',
  // A chatbot conversation's events (no course): a learner started one, a
  // value was captured, every required value is in.
  'chatbot.chat.started',
  'chatbot.variable.captured',
  'chatbot.chat.ended',
] as const;
export type LearningEventType = (typeof LEARNING_EVENT_TYPES)[number];

/** Who wrote an event into the log: the ingestion API, the LRS (xAPI statements), the back-fill of older facts, a chatbot, a pipeline. */
export const LEARNING_EVENT_SOURCES = ['api', 'xapi', 'backfill', 'chatbot', 'pipeline', 'seed'] as const;
export type LearningEventSource = (typeof LEARNING_EVENT_SOURCES)[number];

/**
 * The learning-event log: every accepted event once, whole, append-only.
 * Funnels, paths and heatmaps read learners' ordered events from it.
 *
 * Partitioned by month of `occurred_at` (the migration declares
 * `PARTITION BY RANGE`; drizzle-kit cannot), so an old month is detached or
 * dropped without rewriting anything; `ensureEventPartitions` creates months
 * as events arrive. The primary key holds the partition key, as PostgreSQL
 * requires; the idempotency key lives in `learning_event_keys`.
 */
export const learningEvents = pgTable(
  'learning_events',
  {
    organizationId: tenantOrganizationId(),
    id: uuid('id').notNull().defaultRandom(),
    occurredAt: timestamptz('occurred_at').notNull(),
    /** The sender's id of the event (its idempotency key). */
    eventId: text('event_id').notNull(),
    type: text('type').$type<LearningEventType>().notNull(),
    source: text('source').$type<LearningEventSource>().notNull().default('api'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    apiKeyId: uuid('api_key_id'),
    /** Null only for chatbot events, which belong to no course. */
    courseId: uuid('course_id'),
    learnerId: uuid('learner_id').notNull(),
    runId: uuid('run_id'),
    slideNumber: integer('slide_number'),
    slideTitle: text('slide_title'),
    scene: text('scene'),
    questionId: uuid('question_id'),
    variableId: uuid('variable_id'),
    /** chatbot.variable.captured: the chatbot variable (and its chat in `extras`). */
    chatbotVariableId: uuid('chatbot_variable_id'),
    /** The variable's value or the learner's answer, as sent. */
    value: jsonb('value'),
    correct: boolean('correct'),
    points: doublePrecision('points'),
    score: doublePrecision('score'),
    passMark: doublePrecision('pass_mark'),
    percent: doublePrecision('percent'),
    /** slide.viewed: seconds on the previous slide. */
    seconds: doublePrecision('seconds'),
    /** Whatever else the sender put in the event, kept as sent. */
    extras: jsonb('extras'),
  },
  (table) => [
    primaryKey({ name: 'learning_events_pk', columns: [table.organizationId, table.occurredAt, table.id] }),
    foreignKey({
      name: 'learning_events_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learning_events_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    check('learning_events_type_check', isOneOf(table.type, LEARNING_EVENT_TYPES)),
    check('learning_events_source_check', isOneOf(table.source, LEARNING_EVENT_SOURCES)),
    check(
      'learning_events_course_check',
      sql`${table.courseId} is not null or ${table.type} like 'chatbot.%'`,
    ),
    // "One learner's events in order" (paths, a learner's timeline).
    index('learning_events_learner_idx').on(
      table.organizationId,
      table.learnerId,
      table.occurredAt,
      table.id,
    ),
    // "A course's events of some types in a period" (funnel steps): one
    // range per course and type, and index-only, with what a step matches
    // on (question) and whose event it is. Every reader of a course's events
    // names their types, one type per read where slide views are among them:
    // those are in the slide index below instead, so each event written
    // still adds one entry to one of the two.
    index('learning_events_course_idx')
      .on(
        table.organizationId,
        table.courseId,
        table.type,
        table.occurredAt,
        table.learnerId,
        table.slideNumber,
        table.questionId,
      )
      .where(sql`${table.type} <> 'slide.viewed'`),
    // A course's views of given slides in a period (a funnel's slide steps,
    // a course's last slide): one range per slide, index-only. In the course
    // index, a slide step went over every view of the course in the period
    // to keep one slide's (about 700 000 to keep 94 000 at 100 000 learners).
    index('learning_events_slide_number_idx')
      .on(table.organizationId, table.courseId, table.slideNumber, table.occurredAt, table.learnerId)
      .where(sql`${table.type} = 'slide.viewed'`),
    // A course's slide views run by run, in order (learning paths, exits),
    // without reading the course's other events.
    index('learning_events_slide_path_idx')
      .on(
        table.organizationId,
        table.courseId,
        table.runId,
        table.occurredAt,
        table.id,
        table.slideNumber,
        table.learnerId,
      )
      .where(sql`${table.type} = 'slide.viewed'`),
  ],
);

/**
 * What the log holds per learner, course (null: a chatbot's events) and UTC
 * hour: how many events in each quarter of the hour. The activity heatmap
 * counts events and distinct learners per local weekday and hour from these
 * rows (about one per 17 events) instead of the log. Quarters rather than
 * hours because some time zones are 30 or 45 minutes off UTC: an hour of
 * UTC then straddles two local hours, and its quarters say which events fall
 * in which. Kept by statement triggers on the log (migration 0020) in the
 * writing transaction, so it is never behind the log; a row is one
 * learner's, so concurrent batches of different learners never wait on each
 * other.
 */
export const learningActivityHours = pgTable(
  'learning_activity_hours',
  {
    organizationId: tenantOrganizationId(),
    hour: timestamptz('hour').notNull(),
    learnerId: uuid('learner_id').notNull(),
    courseId: uuid('course_id'),
    /** The course, or the nil UUID for a chatbot's events: a primary key column cannot be null. */
    courseKey: uuid('course_key')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(course_id, '00000000-0000-0000-0000-000000000000'::uuid)`),
    /** Events in minutes 0–14 of the hour. */
    events0: integer('events_0').notNull().default(0),
    events15: integer('events_15').notNull().default(0),
    events30: integer('events_30').notNull().default(0),
    events45: integer('events_45').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'learning_activity_hours_pk',
      columns: [table.organizationId, table.hour, table.learnerId, table.courseKey],
    }),
    foreignKey({
      name: 'learning_activity_hours_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learning_activity_hours_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The highest slide number a run of each course has viewed: the "last
 * slide" of the completion rule that reads slides, looked up per run
 * instead of read from every slide view of the course. Kept by a statement
 * trigger on the log (migration 0022) that writes only when a batch goes
 * past the number stored, so writers of one course do not queue on its row;
 * deleting old views (retention) leaves it, as the course still has that
 * slide.
 */
export const courseLastSlides = pgTable(
  'course_last_slides',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    lastSlide: integer('last_slide').notNull(),
  },
  (table) => [
    primaryKey({ name: 'course_last_slides_pk', columns: [table.organizationId, table.courseId] }),
    foreignKey({
      name: 'course_last_slides_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The idempotency keys of the log: an event id is accepted once per
 * organization, whatever month it falls in (a unique index on the
 * partitioned log would have to include the month). Narrow on purpose.
 */
export const learningEventKeys = pgTable(
  'learning_event_keys',
  {
    organizationId: organizationId(),
    eventId: text('event_id').notNull(),
    /** Where the event sits in the log. */
    occurredAt: timestamptz('occurred_at').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'learning_event_keys_pk', columns: [table.organizationId, table.eventId] }),
    check('learning_event_keys_event_id_length', sql`char_length(${table.eventId}) between 1 and 128`),
    // Retention finds an organization's keys older than its cut-off with it.
    index('learning_event_keys_org_occurred_idx').on(table.organizationId, table.occurredAt),
  ],
);

export const ROLLUP_QUEUE_KINDS = [
  'answer',
  'value',
  'run',
  'question',
  'variable',
  'course_learner',
  'course_day',
] as const;
export type RollupQueueKind = (typeof ROLLUP_QUEUE_KINDS)[number];

/**
 * Facts written but not yet counted in the rollups (kinds answer, value,
 * run: `row_id` is the new row), and rollups to recompute after a delete or
 * an update (question, variable: `row_id`; course_learner: course and
 * learner; course_day: course and day). Writers only append here, so no
 * request waits on another's counter row; the folder deletes what it counts
 * in the same transaction, so a crash never counts a row twice.
 */
export const rollupQueue = pgTable(
  'rollup_queue',
  {
    organizationId: organizationId(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    kind: text('kind').$type<RollupQueueKind>().notNull(),
    rowId: uuid('row_id').notNull(),
    otherId: uuid('other_id'),
    day: date('day', { mode: 'string' }),
    queuedAt: timestamptz('queued_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'rollup_queue_pk', columns: [table.organizationId, table.seq] }),
    check('rollup_queue_kind_check', isOneOf(table.kind, ROLLUP_QUEUE_KINDS)),
    // Recompute requests are rare and change how a fold proceeds: found at once.
    index('rollup_queue_recompute_idx')
      .on(table.kind)
      .where(sql`${table.kind} not in ('answer', 'value', 'run')`),
  ],
);

export type LearningEvent = typeof learningEvents.$inferSelect;
export type NewLearningEvent = typeof learningEvents.$inferInsert;
