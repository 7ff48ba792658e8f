import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import type { LearningEventSource, LearningEventType, VariableDataType } from '../../db/schema';

// Set-based SQL for one ingestion batch. Every statement takes whole columns
// as array parameters (`unnest($n::type[])`), so a batch of 1000 events costs
// about a dozen statements whatever its size. Inputs are sorted by their
// unique key so concurrent batches take row and index locks in the same
// order (fewer deadlocks; the service retries the rest).

type Rows<T> = { rows: T[] };

const iso = (date: Date) => date.toISOString();

export type IngestionSettings = { autoRegister: boolean; apiKeyName: string | null };

export type ClaimedBatch = {
  /** The ids new to the organization (the others are duplicates). */
  fresh: Set<string>;
  settings: IngestionSettings;
  /** Live courses by external id. */
  courses: Map<string, string>;
  /** The variables the batch's values go to, among those courses (see `resolveVariables`). */
  variables: ResolvedVariable[];
};

/**
 * The batch's first round trip: claims the events' ids (the idempotency
 * keys: an id already stored, by an earlier request or a concurrent one that
 * committed first, is skipped and counts as a duplicate), and reads the
 * organization's settings, the live courses the batch names and the
 * variables its values go to.
 */
export async function claimBatch(
  db: Database,
  organizationId: string,
  apiKeyId: string | null,
  events: readonly { eventId: string; occurredAt: Date }[],
  externalCourseIds: readonly string[],
  variablePairs: readonly { externalCourseId: string; name: string }[],
): Promise<ClaimedBatch> {
  const sorted = [...events].sort((a, b) => compare(a.eventId, b.eventId));
  const result: Rows<{
    claimed: string[] | string | null;
    auto_register: boolean | null;
    api_key_name: string | null;
    courses: [string, string][] | string | null;
    variables: VariableRow[] | string | null;
  }> = await db.execute(sql`
    with claimed as (
      insert into learning_event_keys (organization_id, event_id, occurred_at)
      select ${organizationId}, e.event_id, e.occurred_at
      from unnest(
        ${sql.param(sorted.map((e) => e.eventId))}::text[],
        ${sql.param(sorted.map((e) => iso(e.occurredAt)))}::timestamptz[]
      ) as e(event_id, occurred_at)
      order by e.event_id
      on conflict do nothing
      returning event_id
    ),
    live as (${liveCourses(organizationId, externalCourseIds)}),
    resolved as (${variableResolution(
      organizationId,
      sql`select c.id as course_id, p.name
        from unnest(${sql.param(variablePairs.map((p) => p.externalCourseId))}::text[],
          ${sql.param(variablePairs.map((p) => p.name))}::text[]) as p(external_course_id, name)
        join live c on c.external_course_id = p.external_course_id`,
    )})
    select
      (select json_agg(event_id) from claimed) as claimed,
      o.auto_register,
      (select k.name from api_keys k where k.organization_id = o.id and k.id = ${apiKeyId}::uuid) as api_key_name,
      (select json_agg(json_build_array(external_course_id, id)) from live) as courses,
      (select json_agg(resolved) from resolved) as variables
    from organizations o
    where o.id = ${organizationId}`);
  const row = result.rows[0];
  return {
    fresh: new Set(jsonColumn<string[]>(row?.claimed, [])),
    settings: { autoRegister: row?.auto_register ?? true, apiKeyName: row?.api_key_name ?? null },
    courses: new Map(jsonColumn<[string, string][]>(row?.courses, [])),
    variables: jsonColumn<VariableRow[]>(row?.variables, []).map(toResolvedVariable),
  };
}

/** Gives back the idempotency keys of events rejected after claiming them (in the same transaction). */
export async function deleteEventKeys(
  db: Database,
  organizationId: string,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length === 0) return;
  await db.execute(sql`
    delete from learning_event_keys
    where organization_id = ${organizationId} and event_id = any(${sql.param(eventIds)}::text[])`);
}

const liveCourses = (organizationId: string, externalIds: readonly string[]) => sql`
  select id, external_course_id from courses
  where organization_id = ${organizationId} and not is_deleted
    and external_course_id = any(${sql.param(externalIds)}::text[])`;

/** Live (not deleted) courses by external id. */
export async function findLiveCourses(
  db: Database,
  organizationId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const result: Rows<{ id: string; external_course_id: string }> = await db.execute(
    liveCourses(organizationId, externalIds),
  );
  return new Map(result.rows.map((row) => [row.external_course_id, row.id]));
}

/** Registers courses seen for the first time; one already registered (even concurrently) is left alone. */
export async function insertCourses(
  db: Database,
  organizationId: string,
  courses: readonly { externalId: string; title: string }[],
): Promise<void> {
  if (courses.length === 0) return;
  const sorted = [...courses].sort((a, b) => compare(a.externalId, b.externalId));
  await db.execute(sql`
    insert into courses (organization_id, course_title, external_course_id)
    select ${organizationId}, c.title, c.external_id
    from unnest(${sql.param(sorted.map((c) => c.externalId))}::text[], ${sql.param(sorted.map((c) => c.title))}::text[])
      as c(external_id, title)
    order by c.external_id
    on conflict do nothing`);
}

/**
 * Creates learners seen for the first time (e-mail lower-cased by the
 * database, so the unique index and the check agree) and moves every
 * learner's `last_activity_at` forward to its latest event; in the same
 * round trip, finds the questions the batch answers that exist. Returns the
 * learner id for each e-mail as sent, and question ids by `questionKey`.
 */
export async function upsertLearnersFindQuestions(
  db: Database,
  organizationId: string,
  learners: readonly { email: string; name: string | null; lastActivityAt: Date }[],
  questionKeys: readonly QuestionKey[],
): Promise<{ learners: Map<string, string>; questions: Map<string, string> }> {
  const result: Rows<{
    learners: [string, string][] | string | null;
    questions: [string, string, string][] | string | null;
  }> = await db.execute(sql`
    with raw as (
      select * from unnest(
        ${sql.param(learners.map((l) => l.email))}::text[],
        ${sql.param(learners.map((l) => l.name))}::text[],
        ${sql.param(learners.map((l) => iso(l.lastActivityAt)))}::timestamptz[]
      ) as r(email, name, at)
    ),
    input as (
      select lower(email) as email, min(name) as name, max(at) as at from raw group by 1
    ),
    upserted as (
      insert into learners (organization_id, email, name, last_activity_at)
      select ${organizationId}, email, name, at from input order by email
      on conflict (organization_id, email) do update set
        last_activity_at = greatest(learners.last_activity_at, excluded.last_activity_at),
        name = coalesce(learners.name, excluded.name)
      returning id, email
    ),
    found as (${existingQuestions(organizationId, questionKeys)})
    select
      (select json_agg(json_build_array(raw.email, upserted.id))
       from raw join upserted on upserted.email = lower(raw.email)) as learners,
      (select json_agg(json_build_array(course_id, interaction_id, id)) from found) as questions`);
  const row = result.rows[0];
  return {
    learners: new Map(jsonColumn<[string, string][]>(row?.learners, [])),
    questions: new Map(
      jsonColumn<[string, string, string][]>(row?.questions, []).map(([courseId, interactionId, id]) => [
        questionKey(courseId, interactionId),
        id,
      ]),
    ),
  };
}

export type ResolvedVariable = {
  courseId: string;
  name: string;
  variableId: string;
  /** The course the value belongs to: the destination variable's course when a mapping applies. */
  variableCourseId: string;
  dataType: VariableDataType;
};

/**
 * The variable each (course, name) writes to: the destination of the
 * course's mapping for that source name when there is one, otherwise the
 * course's own variable of that name. Pairs with neither are left out.
 */
export async function resolveVariables(
  db: Database,
  organizationId: string,
  pairs: readonly { courseId: string; name: string }[],
): Promise<ResolvedVariable[]> {
  if (pairs.length === 0) return [];
  const result: Rows<VariableRow> = await db.execute(
    variableResolution(
      organizationId,
      sql`select * from unnest(${sql.param(pairs.map((p) => p.courseId))}::uuid[],
        ${sql.param(pairs.map((p) => p.name))}::text[]) as i(course_id, name)`,
    ),
  );
  return result.rows.map(toResolvedVariable);
}

type VariableRow = {
  course_id: string;
  name: string;
  variable_id: string;
  variable_course_id: string;
  data_type: VariableDataType;
};

const toResolvedVariable = (row: VariableRow): ResolvedVariable => ({
  courseId: row.course_id,
  name: row.name,
  variableId: row.variable_id,
  variableCourseId: row.variable_course_id,
  dataType: row.data_type,
});

/** The variables of `input`'s (course_id, name) rows that resolve (see `resolveVariables`). */
const variableResolution = (organizationId: string, input: SQL) => sql`
  select i.course_id, i.name,
    coalesce(mv.id, v.id) as variable_id,
    coalesce(mv.course_id, v.course_id) as variable_course_id,
    coalesce(mv.data_type, v.data_type) as data_type
  from (${input}) as i
  left join course_variable_mappings m
    on m.organization_id = ${organizationId} and m.course_id = i.course_id
    and m.source_variable_name = i.name
  left join variables mv on mv.organization_id = ${organizationId} and mv.id = m.destination_variable_id
  left join variables v
    on v.organization_id = ${organizationId} and v.course_id = i.course_id and v.name = i.name
  where coalesce(mv.id, v.id) is not null`;

/** Registers variables seen for the first time (the first value decides the data type). */
export async function insertVariables(
  db: Database,
  organizationId: string,
  variables: readonly { courseId: string; name: string; dataType: VariableDataType }[],
): Promise<void> {
  if (variables.length === 0) return;
  const sorted = [...variables].sort((a, b) => compare(a.courseId, b.courseId) || compare(a.name, b.name));
  await db.execute(sql`
    insert into variables (organization_id, course_id, name, data_type)
    select ${organizationId}, v.course_id, v.name, v.data_type
    from unnest(
      ${sql.param(sorted.map((v) => v.courseId))}::uuid[],
      ${sql.param(sorted.map((v) => v.name))}::text[],
      ${sql.param(sorted.map((v) => v.dataType))}::text[]
    ) as v(course_id, name, data_type)
    order by v.course_id, v.name
    on conflict do nothing`);
}

export type QuestionKey = { courseId: string; interactionId: string };

const existingQuestions = (organizationId: string, keys: readonly QuestionKey[]) => sql`
  select q.id, q.course_id, q.interaction_id
  from unnest(${sql.param(keys.map((k) => k.courseId))}::uuid[], ${sql.param(keys.map((k) => k.interactionId))}::text[])
    as i(course_id, interaction_id)
  join questions q on q.organization_id = ${organizationId} and q.course_id = i.course_id
    and q.interaction_id = i.interaction_id`;

/** Question ids by `${courseId} ${interactionId}`. */
export async function findQuestions(
  db: Database,
  organizationId: string,
  keys: readonly QuestionKey[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const result: Rows<{ id: string; course_id: string; interaction_id: string }> = await db.execute(
    existingQuestions(organizationId, keys),
  );
  return new Map(result.rows.map((row) => [questionKey(row.course_id, row.interaction_id), row.id]));
}

export const questionKey = (courseId: string, interactionId: string) => `${courseId} ${interactionId}`;

/** Registers questions seen for the first time with their numbers, text and correct answer. */
export async function insertQuestions(
  db: Database,
  organizationId: string,
  rows: readonly (QuestionKey & {
    slideNumber: number | null;
    questionNumber: number | null;
    text: string | null;
    correctAnswer: string | null;
  })[],
): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort(
    (a, b) => compare(a.courseId, b.courseId) || compare(a.interactionId, b.interactionId),
  );
  await db.execute(sql`
    insert into questions
      (organization_id, course_id, interaction_id, slide_number, question_number, question_text, correct_answer)
    select ${organizationId}, q.course_id, q.interaction_id, q.slide_number, q.question_number, q.question_text,
      q.correct_answer
    from unnest(
      ${sql.param(sorted.map((q) => q.courseId))}::uuid[],
      ${sql.param(sorted.map((q) => q.interactionId))}::text[],
      ${sql.param(sorted.map((q) => q.slideNumber))}::int[],
      ${sql.param(sorted.map((q) => q.questionNumber))}::int[],
      ${sql.param(sorted.map((q) => q.text))}::text[],
      ${sql.param(sorted.map((q) => q.correctAnswer))}::text[]
    ) as q(course_id, interaction_id, slide_number, question_number, question_text, correct_answer)
    order by q.course_id, q.interaction_id
    on conflict do nothing`);
}

export type LogRow = {
  eventId: string;
  type: LearningEventType;
  occurredAt: Date;
  /** Null for chatbot events. */
  courseId: string | null;
  learnerId: string;
  runId: string | null;
  slideNumber: number | null;
  slideTitle: string | null;
  scene: string | null;
  questionId: string | null;
  variableId: string | null;
  chatbotVariableId: string | null;
  /** JSON text of the value or answer, or null. */
  value: string | null;
  correct: boolean | null;
  points: number | null;
  score: number | null;
  passMark: number | null;
  percent: number | null;
  seconds: number | null;
  /** JSON text of what else the sender put in the event, or null. */
  extras: string | null;
};

/** Appends events to the log (its month partitions must exist: `ensureEventPartitions`). */
function logInsert(
  organizationId: string,
  source: { source: LearningEventSource; apiKeyId: string | null },
  rows: readonly LogRow[],
): SQL {
  const column = <T>(pick: (row: LogRow) => T) => sql.param(rows.map(pick));
  return sql`
    insert into learning_events (organization_id, occurred_at, event_id, type, source, api_key_id, course_id,
      learner_id, run_id, slide_number, slide_title, scene, question_id, variable_id, chatbot_variable_id, value,
      correct, points, score, pass_mark, percent, seconds, extras)
    select ${organizationId}, e.occurred_at, e.event_id, e.type, ${source.source}, ${source.apiKeyId}::uuid,
      e.course_id, e.learner_id, e.run_id, e.slide_number, e.slide_title, e.scene, e.question_id, e.variable_id,
      e.chatbot_variable_id, e.value::jsonb, e.correct, e.points, e.score, e.pass_mark, e.percent, e.seconds,
      e.extras::jsonb
    from unnest(
      ${column((r) => iso(r.occurredAt))}::timestamptz[],
      ${column((r) => r.eventId)}::text[],
      ${column((r) => r.type)}::text[],
      ${column((r) => r.courseId)}::uuid[],
      ${column((r) => r.learnerId)}::uuid[],
      ${column((r) => r.runId)}::uuid[],
      ${column((r) => r.slideNumber)}::int[],
      ${column((r) => r.slideTitle)}::text[],
      ${column((r) => r.scene)}::text[],
      ${column((r) => r.questionId)}::uuid[],
      ${column((r) => r.variableId)}::uuid[],
      ${column((r) => r.chatbotVariableId)}::uuid[],
      ${column((r) => r.value)}::text[],
      ${column((r) => r.correct)}::boolean[],
      ${column((r) => r.points)}::float8[],
      ${column((r) => r.score)}::float8[],
      ${column((r) => r.passMark)}::float8[],
      ${column((r) => r.percent)}::float8[],
      ${column((r) => r.seconds)}::float8[],
      ${column((r) => r.extras)}::text[]
    ) as e(occurred_at, event_id, type, course_id, learner_id, run_id, slide_number, slide_title, scene, question_id,
      variable_id, chatbot_variable_id, value, correct, points, score, pass_mark, percent, seconds, extras)`;
}

const knownPartitions = new WeakMap<Database, Set<string>>();
/** Serializes partition creation across processes (CREATE ... PARTITION OF is not race-free). */
const PARTITION_LOCK_KEY = 727_002;

/**
 * Makes sure the log has a partition for each month of `dates` (UTC), in
 * its own short transaction before the batch's: new months are rare, and a
 * DDL lock inside the batch would hold up every other writer.
 */
export async function ensureEventPartitions(db: Database, dates: readonly Date[]): Promise<void> {
  let known = knownPartitions.get(db);
  if (!known) knownPartitions.set(db, (known = new Set()));
  const months = [...new Set(dates.map((date) => date.toISOString().slice(0, 7)))].filter(
    (m) => !known.has(m),
  );
  if (months.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`);
    await tx.execute(sql`
      select learning_events_partition(m) from unnest(${sql.param(months.map((m) => `${m}-01`))}::date[]) as m`);
  });
  for (const month of months) known.add(month);
}

/** Forgets the months known to exist (retention may have dropped one since). */
export function forgetEventPartitions(db: Database): void {
  knownPartitions.delete(db);
}

/** The error of an insert into a month of the log that has no partition (any more). */
export function isMissingPartition(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === '23514' && typeof message === 'string' && message.includes('no partition')) return true;
  }
  return false;
}

/**
 * Each organization's retention: its events (and their idempotency keys)
 * older than `event_retention_months` are deleted, in slices so no
 * statement holds locks for long; then months no event is left in are
 * dropped whole. Organizations without a retention keep everything.
 */
export async function applyEventRetention(db: Database, sliceSize = 10_000): Promise<{ deleted: number }> {
  let deleted = 0;
  for (;;) {
    const result: Rows<{ n: number }> = await db.execute(sql`
      with doomed as (
        select e.organization_id, e.occurred_at, e.id
        from organizations o
        join learning_events e on e.organization_id = o.id
          and e.occurred_at < now() - make_interval(months => o.event_retention_months)
        where o.event_retention_months is not null
        limit ${sliceSize}
      ),
      gone as (
        delete from learning_events e using doomed d
        where e.organization_id = d.organization_id and e.occurred_at = d.occurred_at and e.id = d.id
        returning 1
      )
      select count(*)::int as n from gone`);
    const n = Number(result.rows[0]?.n ?? 0);
    deleted += n;
    if (n < sliceSize) break;
  }
  await db.execute(sql`
    delete from learning_event_keys k using organizations o
    where k.organization_id = o.id and o.event_retention_months is not null
      and k.occurred_at < now() - make_interval(months => o.event_retention_months)`);
  await db.execute(sql`select drop_empty_learning_event_partitions()`);
  return { deleted };
}

export type RunKey = { courseId: string; learnerId: string; clientRunId: string };
export const runKey = (courseId: string, learnerId: string, clientRunId: string) =>
  `${courseId} ${learnerId} ${clientRunId}`;

/**
 * Makes sure each named run (the tracker's `run` id) exists, starting at its
 * earliest event seen so far, and returns the run ids by `runKey`.
 */
export async function ensureNamedRuns(
  db: Database,
  organizationId: string,
  runs: readonly (RunKey & { startedAt: Date })[],
): Promise<Map<string, string>> {
  if (runs.length === 0) return new Map();
  const sorted = [...runs].sort(
    (a, b) =>
      compare(a.courseId, b.courseId) ||
      compare(a.learnerId, b.learnerId) ||
      compare(a.clientRunId, b.clientRunId),
  );
  const columns = sql`
      ${sql.param(sorted.map((r) => r.courseId))}::uuid[],
      ${sql.param(sorted.map((r) => r.learnerId))}::uuid[],
      ${sql.param(sorted.map((r) => r.clientRunId))}::text[],
      ${sql.param(sorted.map((r) => iso(r.startedAt)))}::timestamptz[]`;
  // One statement inserts the new runs, moves back the start of those an
  // event older than their start (sent late, out of order) belongs to, and
  // reads the ids. Its snapshot cannot see a run a concurrent batch
  // committed while this insert waited on it, so any key still missing is
  // read again by a second statement.
  type RunRow = { id: string; course_id: string; learner_id: string; client_run_id: string };
  const result: Rows<RunRow> = await db.execute(sql`
    with input as (
      select * from unnest(${columns}) as r(course_id, learner_id, client_run_id, started_at)
    ),
    inserted as (
      insert into course_runs (organization_id, course_id, learner_id, client_run_id, started_at, created_at)
      select ${organizationId}, course_id, learner_id, client_run_id, started_at, started_at
      from input
      order by course_id, learner_id, client_run_id
      on conflict do nothing
      returning id, course_id, learner_id, client_run_id
    ),
    moved as (
      update course_runs cr set started_at = input.started_at, created_at = input.started_at
      from input
      where cr.organization_id = ${organizationId} and cr.course_id = input.course_id
        and cr.learner_id = input.learner_id and cr.client_run_id = input.client_run_id
        and cr.started_at > input.started_at
      returning cr.id
    )
    select id, course_id, learner_id, client_run_id from inserted
    union all
    select cr.id, cr.course_id, cr.learner_id, cr.client_run_id
    from input join course_runs cr
      on cr.organization_id = ${organizationId} and cr.course_id = input.course_id
      and cr.learner_id = input.learner_id and cr.client_run_id = input.client_run_id`);
  const ids = new Map(
    result.rows.map((row) => [runKey(row.course_id, row.learner_id, row.client_run_id), row.id]),
  );
  const late = sorted.filter((r) => !ids.has(runKey(r.courseId, r.learnerId, r.clientRunId)));
  if (late.length > 0) {
    // Committed by a concurrent batch after this statement began: its start
    // is moved back too, if this batch's event is older.
    const again: Rows<RunRow> = await db.execute(sql`
      with input as (
        select * from unnest(
          ${sql.param(late.map((r) => r.courseId))}::uuid[],
          ${sql.param(late.map((r) => r.learnerId))}::uuid[],
          ${sql.param(late.map((r) => r.clientRunId))}::text[],
          ${sql.param(late.map((r) => iso(r.startedAt)))}::timestamptz[]
        ) as r(course_id, learner_id, client_run_id, started_at)
      )
      update course_runs cr set started_at = least(cr.started_at, input.started_at),
        created_at = least(cr.created_at, input.started_at)
      from input
      where cr.organization_id = ${organizationId} and cr.course_id = input.course_id
        and cr.learner_id = input.learner_id and cr.client_run_id = input.client_run_id
      returning cr.id, cr.course_id, cr.learner_id, cr.client_run_id`);
    for (const row of again.rows) ids.set(runKey(row.course_id, row.learner_id, row.client_run_id), row.id);
  }
  return ids;
}

/** Runs without a client id (one per `course.started` event that names none). */
export async function insertAnonymousRuns(
  db: Database,
  organizationId: string,
  runs: readonly { courseId: string; learnerId: string; startedAt: Date }[],
): Promise<void> {
  if (runs.length === 0) return;
  await db.execute(sql`
    insert into course_runs (organization_id, course_id, learner_id, started_at, created_at)
    select ${organizationId}, r.course_id, r.learner_id, r.started_at, r.started_at
    from unnest(
      ${sql.param(runs.map((r) => r.courseId))}::uuid[],
      ${sql.param(runs.map((r) => r.learnerId))}::uuid[],
      ${sql.param(runs.map((r) => iso(r.startedAt)))}::timestamptz[]
    ) as r(course_id, learner_id, started_at)`);
}

/**
 * For events that name no run: the learner's run of the course current at
 * the event's time (the latest started before it, else the latest), or null
 * when the learner has none. Returned in the order of `events`.
 */
export async function findCurrentRuns(
  db: Database,
  organizationId: string,
  events: readonly { courseId: string; learnerId: string; at: Date }[],
): Promise<(string | null)[]> {
  if (events.length === 0) return [];
  const result: Rows<{ ord: number; run_id: string | null }> = await db.execute(sql`
    select e.ord::int as ord, run.id as run_id
    from unnest(
      ${sql.param(events.map((e) => e.courseId))}::uuid[],
      ${sql.param(events.map((e) => e.learnerId))}::uuid[],
      ${sql.param(events.map((e) => iso(e.at)))}::timestamptz[]
    ) with ordinality as e(course_id, learner_id, at, ord)
    left join lateral (
      select cr.id from course_runs cr
      where cr.organization_id = ${organizationId} and cr.course_id = e.course_id
        and cr.learner_id = e.learner_id
      order by (cr.started_at <= e.at) desc, cr.started_at desc
      limit 1
    ) run on true`);
  const runs = new Array<string | null>(events.length).fill(null);
  for (const row of result.rows) runs[Number(row.ord) - 1] = row.run_id;
  return runs;
}

export type ValueRow = {
  variableId: string;
  learnerId: string;
  courseId: string;
  courseRunId: string | null;
  value: string | null;
  valueNumber: number | null;
  valueBoolean: boolean | null;
  valueDate: Date | null;
  recordedAt: Date;
};

function valuesInsert(organizationId: string, rows: readonly ValueRow[]): SQL {
  return sql`
    insert into learner_variable_values (organization_id, variable_id, learner_id, course_id, course_run_id,
      value, value_number, value_boolean, value_date, recorded_at, created_at)
    select ${organizationId}, v.variable_id, v.learner_id, v.course_id, v.course_run_id, v.value, v.value_number,
      v.value_boolean, v.value_date, v.recorded_at, v.recorded_at
    from unnest(
      ${sql.param(rows.map((r) => r.variableId))}::uuid[],
      ${sql.param(rows.map((r) => r.learnerId))}::uuid[],
      ${sql.param(rows.map((r) => r.courseId))}::uuid[],
      ${sql.param(rows.map((r) => r.courseRunId))}::uuid[],
      ${sql.param(rows.map((r) => r.value))}::text[],
      ${sql.param(rows.map((r) => r.valueNumber))}::float8[],
      ${sql.param(rows.map((r) => r.valueBoolean))}::boolean[],
      ${sql.param(rows.map((r) => (r.valueDate ? iso(r.valueDate) : null)))}::timestamptz[],
      ${sql.param(rows.map((r) => iso(r.recordedAt)))}::timestamptz[]
    ) as v(variable_id, learner_id, course_id, course_run_id, value, value_number, value_boolean, value_date,
      recorded_at)`;
}

/** A value a chatbot captured (`learner_chatbot_variable_values`). */
export type ChatbotValueRow = {
  chatbotVariableId: string;
  learnerId: string;
  chatSessionId: string | null;
  value: string | null;
  valueNumber: number | null;
  valueBoolean: boolean | null;
  valueDate: Date | null;
  recordedAt: Date;
};

function chatbotValuesInsert(organizationId: string, rows: readonly ChatbotValueRow[]): SQL {
  return sql`
    insert into learner_chatbot_variable_values (organization_id, chatbot_variable_id, learner_id, chat_session_id,
      value, value_number, value_boolean, value_date, recorded_at, created_at)
    select ${organizationId}, v.chatbot_variable_id, v.learner_id, v.chat_session_id, v.value, v.value_number,
      v.value_boolean, v.value_date, v.recorded_at, v.recorded_at
    from unnest(
      ${sql.param(rows.map((r) => r.chatbotVariableId))}::uuid[],
      ${sql.param(rows.map((r) => r.learnerId))}::uuid[],
      ${sql.param(rows.map((r) => r.chatSessionId))}::uuid[],
      ${sql.param(rows.map((r) => r.value))}::text[],
      ${sql.param(rows.map((r) => r.valueNumber))}::float8[],
      ${sql.param(rows.map((r) => r.valueBoolean))}::boolean[],
      ${sql.param(rows.map((r) => (r.valueDate ? iso(r.valueDate) : null)))}::timestamptz[],
      ${sql.param(rows.map((r) => iso(r.recordedAt)))}::timestamptz[]
    ) as v(chatbot_variable_id, learner_id, chat_session_id, value, value_number, value_boolean, value_date,
      recorded_at)`;
}

/** The live chatbot variables among `ids`, with the course variables they feed (their mappings). */
export async function findChatbotVariableTargets(
  db: Database,
  organizationId: string,
  ids: readonly string[],
): Promise<
  {
    id: string;
    dataType: string;
    destinations: { variableId: string; courseId: string; dataType: VariableDataType }[];
  }[]
> {
  if (ids.length === 0) return [];
  const result: Rows<{
    id: string;
    data_type: string;
    destinations: { variableId: string; courseId: string; dataType: VariableDataType }[] | string | null;
  }> = await db.execute(sql`
    select cv.id, cv.data_type,
      (select json_agg(json_build_object('variableId', v.id, 'courseId', v.course_id, 'dataType', v.data_type))
       from chatbot_variable_mappings m
       join variables v on v.organization_id = m.organization_id and v.id = m.destination_variable_id
       join courses c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
       where m.organization_id = cv.organization_id and m.chatbot_variable_id = cv.id) as destinations
    from chatbot_variables cv
    where cv.organization_id = ${organizationId} and cv.id = any(${sql.param(ids)}::uuid[])`);
  return result.rows.map((row) => ({
    id: row.id,
    dataType: row.data_type,
    destinations: jsonColumn<{ variableId: string; courseId: string; dataType: VariableDataType }[]>(
      row.destinations,
      [],
    ),
  }));
}

export type AnswerRow = {
  questionId: string;
  learnerId: string;
  courseId: string;
  courseRunId: string | null;
  slideNumber: number | null;
  questionNumber: number | null;
  questionText: string | null;
  answerChoice: string | null;
  correct: boolean | null;
  correctAnswer: string | null;
  pointsAssigned: number | null;
  answeredAt: Date;
};

function answersInsert(organizationId: string, rows: readonly AnswerRow[]): SQL {
  return sql`
    insert into course_run_questions (organization_id, question_id, learner_id, course_id, course_run_id,
      slide_number, question_number, question_text, answer_choice, correct, correct_answer, points_assigned,
      created_at)
    select ${organizationId}, a.question_id, a.learner_id, a.course_id, a.course_run_id, a.slide_number,
      a.question_number, a.question_text, a.answer_choice, a.correct, a.correct_answer, a.points_assigned,
      a.created_at
    from unnest(
      ${sql.param(rows.map((r) => r.questionId))}::uuid[],
      ${sql.param(rows.map((r) => r.learnerId))}::uuid[],
      ${sql.param(rows.map((r) => r.courseId))}::uuid[],
      ${sql.param(rows.map((r) => r.courseRunId))}::uuid[],
      ${sql.param(rows.map((r) => r.slideNumber))}::int[],
      ${sql.param(rows.map((r) => r.questionNumber))}::int[],
      ${sql.param(rows.map((r) => r.questionText))}::text[],
      ${sql.param(rows.map((r) => r.answerChoice))}::text[],
      ${sql.param(rows.map((r) => r.correct))}::boolean[],
      ${sql.param(rows.map((r) => r.correctAnswer))}::text[],
      ${sql.param(rows.map((r) => r.pointsAssigned))}::float8[],
      ${sql.param(rows.map((r) => iso(r.answeredAt)))}::timestamptz[]
    ) as a(question_id, learner_id, course_id, course_run_id, slide_number, question_number, question_text,
      answer_choice, correct, correct_answer, points_assigned, created_at)`;
}

export type RunOutcomeRow = {
  runId: string;
  completedAt: Date | null;
  passed: boolean | null;
  score: number | null;
  passMark: number | null;
  progressPercent: number | null;
  exitedAt: Date | null;
};

/**
 * Applies what a batch's events say about runs: completed at the earliest
 * completion, the furthest progress, the latest exit, and the outcome
 * (passed or failed, score, pass mark) of the latest result event.
 */
function runOutcomesUpdate(organizationId: string, runs: readonly RunOutcomeRow[]): SQL {
  const sorted = [...runs].sort((a, b) => compare(a.runId, b.runId));
  const column = <T>(pick: (row: RunOutcomeRow) => T) => sql.param(sorted.map(pick));
  const date = (value: Date | null) => (value ? iso(value) : null);
  return sql`
    update course_runs cr set
      completed_at = case when r.completed_at is null then cr.completed_at
                          else least(cr.completed_at, r.completed_at) end,
      progress_percent = greatest(cr.progress_percent, r.progress_percent),
      exited_at = greatest(cr.exited_at, r.exited_at),
      passed = coalesce(r.passed, cr.passed),
      score = case when r.passed is null then cr.score else r.score end,
      pass_mark = case when r.passed is null then cr.pass_mark else r.pass_mark end,
      updated_at = now()
    from unnest(
      ${column((r) => r.runId)}::uuid[],
      ${column((r) => date(r.completedAt))}::timestamptz[],
      ${column((r) => r.passed)}::boolean[],
      ${column((r) => r.score)}::float8[],
      ${column((r) => r.passMark)}::float8[],
      ${column((r) => r.progressPercent)}::float8[],
      ${column((r) => date(r.exitedAt))}::timestamptz[]
    ) as r(run_id, completed_at, passed, score, pass_mark, progress_percent, exited_at)
    where cr.organization_id = ${organizationId} and cr.id = r.run_id`;
}

export type StoredFacts = {
  values: readonly ValueRow[];
  chatbotValues?: readonly ChatbotValueRow[];
  answers: readonly AnswerRow[];
  runOutcomes: readonly RunOutcomeRow[];
  log: readonly LogRow[];
};

/**
 * Writes a batch's facts and appends its events to the log in one round
 * trip: each part is a data-modifying CTE of one statement, which PostgreSQL
 * runs once and to completion whether or not the statement reads it; the
 * parts write different tables and none reads another's rows, and the
 * tables' statement triggers still fire once each, at the statement's end.
 */
export async function storeFacts(
  db: Database,
  organizationId: string,
  source: { source: LearningEventSource; apiKeyId: string | null },
  facts: StoredFacts,
  /** Other writes of the batch sent in the same round trip (the activity feed's row). */
  also: readonly SQL[] = [],
): Promise<void> {
  const parts = [
    facts.values.length > 0 ? valuesInsert(organizationId, facts.values) : null,
    facts.chatbotValues && facts.chatbotValues.length > 0
      ? chatbotValuesInsert(organizationId, facts.chatbotValues)
      : null,
    facts.answers.length > 0 ? answersInsert(organizationId, facts.answers) : null,
    facts.runOutcomes.length > 0 ? runOutcomesUpdate(organizationId, facts.runOutcomes) : null,
    facts.log.length > 0 ? logInsert(organizationId, source, facts.log) : null,
    ...also,
  ].filter((part): part is SQL => part !== null);
  if (parts.length === 0) return;
  const ctes = sql.join(
    parts.map((part, i) => sql`${sql.raw(`part${i}`)} as (${part})`),
    sql`, `,
  );
  await db.execute(sql`with ${ctes} select 1`);
}

/** The live course's broadcast message, or null when there is no such course. */
export async function findCourseBroadcast(
  db: Database,
  organizationId: string,
  externalCourseId: string,
): Promise<{ message: string | null; updatedAt: Date } | null> {
  const result: Rows<{ message: string | null; updated_at: Date | string }> = await db.execute(sql`
    select c.broadcast_message as message,
      greatest(c.updated_at, (select max(b.created_at) from broadcasts b
        where b.organization_id = c.organization_id and b.course_id = c.id)) as updated_at
    from courses c
    where c.organization_id = ${organizationId} and c.external_course_id = ${externalCourseId}
      and not c.is_deleted
    limit 1`);
  const row = result.rows[0];
  return row ? { message: row.message, updatedAt: new Date(row.updated_at) } : null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
