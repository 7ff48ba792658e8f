import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  xapiActivities,
  xapiAttachments,
  xapiDocuments,
  xapiStatements,
  type XapiDocumentKind,
  type XapiStatementRow,
} from '../../db/schema';

// The SQL of the Learning Record Store: its own tables, plus a read of the
// organization's live courses (which activity ids are courses already).

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export type StoredStatement = {
  id: string;
  stored: Date;
  isVoiding: boolean;
  voided: boolean;
  statement: Record<string, unknown>;
};

const storedColumns = {
  id: xapiStatements.id,
  stored: xapiStatements.stored,
  isVoiding: xapiStatements.isVoiding,
  voided: xapiStatements.voided,
  statement: xapiStatements.statement,
};

export async function findStatementsByIds(
  db: Database,
  organizationId: string,
  ids: readonly string[],
): Promise<StoredStatement[]> {
  if (ids.length === 0) return [];
  return db
    .select(storedColumns)
    .from(xapiStatements)
    .where(and(eq(xapiStatements.organizationId, organizationId), inArray(xapiStatements.id, [...ids])));
}

/** Voids the targets of voiding statements (a voiding statement itself is never voided). */
export async function voidStatements(db: Database, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db
    .update(xapiStatements)
    .set({ voided: true })
    .where(
      and(
        eq(xapiStatements.organizationId, organizationId),
        inArray(xapiStatements.id, [...ids]),
        eq(xapiStatements.isVoiding, false),
      ),
    );
}

export async function findActivityDefinition(
  db: Database,
  organizationId: string,
  activityId: string,
): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ definition: xapiActivities.definition })
    .from(xapiActivities)
    .where(and(eq(xapiActivities.organizationId, organizationId), eq(xapiActivities.activityId, activityId)));
  return row?.definition ?? null;
}

/** Whether any statement mentions the activity (an activity without a definition still exists). */
export async function isActivityKnown(db: Database, organizationId: string, activityId: string) {
  const result = await db.execute<{ known: boolean }>(sql`
    select exists (
      select 1 from xapi_statements
      where organization_id = ${organizationId}
        and search_keys @> array[${searchKey(organizationId, 'rac', activityId)}]::text[]
    ) as known`);
  return result.rows[0]?.known === true;
}

/** The names statements gave an agent (most recent first), for the Person object. */
export async function findAgentNames(db: Database, organizationId: string, agentKey: string) {
  const result = await db.execute<{ name: string }>(sql`
    select name from (
      select statement -> 'actor' ->> 'name' as name, max(stored) as last
      from xapi_statements
      where organization_id = ${organizationId}
        and search_keys @> array[${searchKey(organizationId, 'ag', agentKey)}]::text[] and actor_key = ${agentKey}
        and statement -> 'actor' ->> 'name' is not null
      group by 1
    ) names
    order by last desc
    limit 10`);
  return result.rows.map((row) => row.name);
}

export async function insertAttachments(
  db: Database,
  organizationId: string,
  attachments: ReadonlyMap<string, { contentType: string; body: Buffer }>,
): Promise<void> {
  if (attachments.size === 0) return;
  await db
    .insert(xapiAttachments)
    .values(
      [...attachments].map(([sha2, part]) => ({
        organizationId,
        sha2,
        contentType: part.contentType,
        content: part.body,
      })),
    )
    .onConflictDoNothing();
}

export async function findAttachments(db: Database, organizationId: string, sha2s: readonly string[]) {
  if (sha2s.length === 0) return [];
  return db
    .select({
      sha2: xapiAttachments.sha2,
      contentType: xapiAttachments.contentType,
      content: xapiAttachments.content,
    })
    .from(xapiAttachments)
    .where(
      and(eq(xapiAttachments.organizationId, organizationId), inArray(xapiAttachments.sha2, [...sha2s])),
    );
}

/** What a statements request needs to know first, read in one round trip. */
export type StatementContext = {
  /** The request's ids already stored. */
  existing: StoredStatement[];
  /** Which of the activity ids it mentions are live courses. */
  courses: Set<string>;
  /** The course of each of its registrations seen before. */
  registrations: Map<string, string>;
};

export async function findStatementContext(
  db: Database,
  organizationId: string,
  request: { ids: readonly string[]; activityIds: readonly string[]; registrations: readonly string[] },
): Promise<StatementContext> {
  const result = await db.execute<{
    kind: 'statement' | 'course' | 'registration';
    key: string;
    course: string | null;
    stored: string | Date | null;
    is_voiding: boolean | null;
    voided: boolean | null;
    statement: Record<string, unknown> | string | null;
  }>(sql`
    select 'statement' as kind, id::text as key, null as course, stored, is_voiding, voided, statement
    from xapi_statements
    where organization_id = ${organizationId} and id = any(${sql.param([...request.ids])}::uuid[])
    union all
    select 'course', external_course_id, null, null, null, null, null
    from courses
    where organization_id = ${organizationId} and not is_deleted
      and external_course_id = any(${sql.param([...request.activityIds])}::text[])
    union all
    select 'registration', registration::text, course_activity_id, null, null, null, null
    from xapi_registrations
    where organization_id = ${organizationId}
      and registration = any(${sql.param([...request.registrations])}::uuid[])`);
  const context: StatementContext = { existing: [], courses: new Set(), registrations: new Map() };
  for (const row of result.rows) {
    if (row.kind === 'course') context.courses.add(row.key);
    else if (row.kind === 'registration') context.registrations.set(row.key, row.course ?? '');
    else
      context.existing.push({
        id: row.key,
        stored: new Date(row.stored ?? 0),
        isVoiding: row.is_voiding === true,
        voided: row.voided === true,
        statement:
          typeof row.statement === 'string'
            ? (JSON.parse(row.statement) as Record<string, unknown>)
            : (row.statement ?? {}),
      });
  }
  return context;
}

/**
 * The number of each slide within its course, giving slides seen for the
 * first time the course's next numbers in the order given, in one round
 * trip. Keyed `<course>\n<slide>`. A slide a concurrent request numbered
 * first is missing from the answer (the caller's event says 0).
 */
export async function numberSlides(
  db: Database,
  organizationId: string,
  slides: readonly { course: string; slide: string }[],
): Promise<Map<string, number>> {
  if (slides.length === 0) return new Map();
  const result = await db.execute<{ course: string; slide: string; number: number }>(sql`
    with wanted as (
      select course, slide, min(ord) as ord
      from unnest(${sql.param(slides.map((s) => s.course))}::text[], ${sql.param(slides.map((s) => s.slide))}::text[])
        with ordinality as u(course, slide, ord)
      group by course, slide
    ),
    known as (
      select s.course_activity_id as course, s.slide_activity_id as slide, s.number
      from xapi_slides s join wanted w on s.course_activity_id = w.course and s.slide_activity_id = w.slide
      where s.organization_id = ${organizationId}
    ),
    inserted as (
      insert into xapi_slides (organization_id, course_activity_id, slide_activity_id, number)
      select ${organizationId}, w.course, w.slide,
        coalesce((select max(s.number) from xapi_slides s
                  where s.organization_id = ${organizationId} and s.course_activity_id = w.course), 0)
          + row_number() over (partition by w.course order by w.ord)
      from wanted w
      where not exists (select 1 from known k where k.course = w.course and k.slide = w.slide)
      on conflict do nothing
      returning course_activity_id as course, slide_activity_id as slide, number
    )
    select course, slide, number from known
    union all
    select course, slide, number from inserted`);
  return new Map(result.rows.map((row) => [`${row.course}\n${row.slide}`, Number(row.number)]));
}

/**
 * Stores a request's new statements with what they taught, in one round
 * trip (the rows travel as JSON documents): the statements (one whose id a
 * concurrent request stored first is skipped, and the caller compares it),
 * the course of each new registration, and the activities' definitions.
 * Only new or changed definitions are written: courses resend the same
 * definition with every statement, and an upsert would lock the popular
 * activities' rows until each request commits, queueing concurrent
 * requests behind one another. Returns the ids of the statements inserted.
 */
export async function storeStatementRecords(
  db: Database,
  organizationId: string,
  records: {
    statements: readonly XapiStatementRow[];
    registrations: ReadonlyMap<string, string>;
    definitions: ReadonlyMap<string, Record<string, unknown>>;
    now: Date;
  },
): Promise<string[]> {
  if (records.statements.length === 0) return [];
  const statements = records.statements.map((row) => ({
    id: row.id,
    stored: row.stored.toISOString(),
    timestamp: row.timestamp.toISOString(),
    verb_id: row.verbId,
    actor_key: row.actorKey ?? null,
    object_activity_id: row.objectActivityId ?? null,
    object_agent_key: row.objectAgentKey ?? null,
    object_statement_id: row.objectStatementId ?? null,
    registration: row.registration ?? null,
    search_keys: row.searchKeys,
    is_voiding: row.isVoiding ?? false,
    statement: row.statement,
    unmapped_reason: row.unmappedReason ?? null,
    api_key_id: row.apiKeyId ?? null,
  }));
  const registrations = [...records.registrations]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([registration, course]) => ({ registration, course }));
  const definitions = [...records.definitions]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([activity_id, definition]) => ({ activity_id, definition }));
  const result = await db.execute<{ id: string }>(sql`
    with inserted as (
      insert into xapi_statements (organization_id, id, stored, timestamp, verb_id, actor_key, object_activity_id,
        object_agent_key, object_statement_id, registration, search_keys, is_voiding, statement,
        unmapped_reason, api_key_id)
      select ${organizationId}, r.id, r.stored, r.timestamp, r.verb_id, r.actor_key, r.object_activity_id,
        r.object_agent_key, r.object_statement_id, r.registration,
        array(select jsonb_array_elements_text(r.search_keys)),
        r.is_voiding, r.statement, r.unmapped_reason, r.api_key_id
      from jsonb_to_recordset(${JSON.stringify(statements)}::jsonb) as r(id uuid, stored timestamptz,
        timestamp timestamptz, verb_id text, actor_key text, object_activity_id text, object_agent_key text,
        object_statement_id uuid, registration uuid, search_keys jsonb, is_voiding boolean,
        statement jsonb, unmapped_reason text, api_key_id uuid)
      order by r.id
      on conflict do nothing
      returning id
    ),
    registered as (
      insert into xapi_registrations (organization_id, registration, course_activity_id)
      select ${organizationId}, g.registration, g.course
      from jsonb_to_recordset(${JSON.stringify(registrations)}::jsonb) as g(registration uuid, course text)
      on conflict do nothing
    ),
    sent as (
      select d.activity_id, d.definition
      from jsonb_to_recordset(${JSON.stringify(definitions)}::jsonb) as d(activity_id text, definition jsonb)
    ),
    changed as (
      select sent.* from sent
      left join xapi_activities a on a.organization_id = ${organizationId} and a.activity_id = sent.activity_id
      where a.activity_id is null or a.definition is distinct from sent.definition
    ),
    updated as (
      update xapi_activities a set definition = changed.definition, updated_at = ${at(records.now)}
      from changed
      where a.organization_id = ${organizationId} and a.activity_id = changed.activity_id
      returning a.activity_id
    ),
    defined as (
      insert into xapi_activities (organization_id, activity_id, definition, updated_at)
      select ${organizationId}, changed.activity_id, changed.definition, ${at(records.now)} from changed
      where changed.activity_id not in (select activity_id from updated)
      on conflict do nothing
    )
    select id from inserted`);
  return result.rows.map((row) => row.id);
}

export type StatementFilter = {
  agentKey?: string | undefined;
  verbId?: string | undefined;
  activityId?: string | undefined;
  registration?: string | undefined;
  relatedActivities: boolean;
  relatedAgents: boolean;
  since?: Date | undefined;
  until?: Date | undefined;
  ascending: boolean;
};

export type StatementCursor = { stored: Date; id: string };

/** What a statement query can match: see `xapi_statements.search_keys`. */
export type SearchKeyKind = 'v' | 'ag' | 'rag' | 'ac' | 'rac' | 'r';

export function searchKey(organizationId: string, kind: SearchKeyKind, value: string): string {
  return `${organizationId}|${kind}|${value}`;
}

/**
 * One page of the statement query, newest stored first (or oldest with
 * `ascending`), not voided. A statement that points at a matching one
 * (StatementRef, not voiding) matches too, as xAPI asks; that closure is
 * only computed when the organization has such statements at all.
 */
export async function queryStatements(
  db: Database,
  organizationId: string,
  filter: StatementFilter,
  cursor: StatementCursor | null,
  limit: number,
): Promise<StoredStatement[]> {
  const terms: string[] = [];
  const term = (kind: SearchKeyKind, value: string) => terms.push(searchKey(organizationId, kind, value));
  if (filter.agentKey !== undefined) term(filter.relatedAgents ? 'rag' : 'ag', filter.agentKey);
  if (filter.verbId !== undefined) term('v', filter.verbId);
  if (filter.activityId !== undefined) term(filter.relatedActivities ? 'rac' : 'ac', filter.activityId);
  if (filter.registration !== undefined) term('r', filter.registration);
  const conditions: SQL[] = terms.length > 0 ? [sql`search_keys @> ${sql.param(terms)}::text[]`] : [];

  const window: SQL[] = [sql`not voided`];
  if (filter.since) window.push(sql`stored > ${at(filter.since)}`);
  if (filter.until) window.push(sql`stored <= ${at(filter.until)}`);
  if (cursor) {
    window.push(
      filter.ascending
        ? sql`(stored, id) > (${at(cursor.stored)}, ${cursor.id}::uuid)`
        : sql`(stored, id) < (${at(cursor.stored)}, ${cursor.id}::uuid)`,
    );
  }
  const order = filter.ascending ? sql`stored asc, id asc` : sql`stored desc, id desc`;
  const org = sql`organization_id = ${organizationId}`;
  const matches = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;

  const hasReferences =
    conditions.length > 0 &&
    (
      await db.execute<{ has: boolean }>(sql`
        select exists (
          select 1 from xapi_statements
          where ${org} and object_statement_id is not null and not is_voiding
        ) as has`)
    ).rows[0]?.has === true;

  const query = hasReferences
    ? sql`
      with recursive matched(id) as (
        select id from xapi_statements where ${org} and not voided and ${matches}
        union
        select s.id from xapi_statements s join matched m on s.object_statement_id = m.id
        where s.organization_id = ${organizationId} and not s.is_voiding
      )
      select id, stored, is_voiding, voided, statement from xapi_statements
      where ${org} and id in (select id from matched) and ${sql.join(window, sql` and `)}
      order by ${order}
      limit ${limit}`
    : sql`
      select id, stored, is_voiding, voided, statement from xapi_statements
      where ${org} and ${matches} and ${sql.join(window, sql` and `)}
      order by ${order}
      limit ${limit}`;
  const result = await db.execute<{
    id: string;
    stored: string | Date;
    is_voiding: boolean;
    voided: boolean;
    statement: Record<string, unknown> | string;
  }>(query);
  return result.rows.map((row) => ({
    id: row.id,
    stored: new Date(row.stored),
    isVoiding: row.is_voiding,
    voided: row.voided,
    statement:
      typeof row.statement === 'string'
        ? (JSON.parse(row.statement) as Record<string, unknown>)
        : row.statement,
  }));
}

export type DocumentKey = {
  kind: XapiDocumentKind;
  activityId: string;
  agentKey: string;
  registration: string;
};

const documentScope = (organizationId: string, key: DocumentKey) =>
  and(
    eq(xapiDocuments.organizationId, organizationId),
    eq(xapiDocuments.kind, key.kind),
    eq(xapiDocuments.activityId, key.activityId),
    eq(xapiDocuments.agentKey, key.agentKey),
    eq(xapiDocuments.registration, key.registration),
  );

export async function findDocument(
  db: Database,
  organizationId: string,
  key: DocumentKey,
  documentId: string,
  options: { forUpdate?: boolean } = {},
) {
  const query = db
    .select({
      contentType: xapiDocuments.contentType,
      content: xapiDocuments.content,
      etag: xapiDocuments.etag,
      updatedAt: xapiDocuments.updatedAt,
    })
    .from(xapiDocuments)
    .where(and(documentScope(organizationId, key), eq(xapiDocuments.documentId, documentId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** The ids of the documents under a key, optionally only those changed after `since`. */
export async function listDocumentIds(
  db: Database,
  organizationId: string,
  key: DocumentKey,
  since: Date | undefined,
): Promise<string[]> {
  const rows = await db
    .select({ documentId: xapiDocuments.documentId })
    .from(xapiDocuments)
    .where(
      and(
        documentScope(organizationId, key),
        since ? sql`${xapiDocuments.updatedAt} > ${at(since)}` : undefined,
      ),
    )
    .orderBy(xapiDocuments.documentId);
  return rows.map((row) => row.documentId);
}

export async function saveDocument(
  db: Database,
  organizationId: string,
  key: DocumentKey,
  document: { documentId: string; contentType: string; content: Buffer; etag: string; updatedAt: Date },
): Promise<void> {
  await db
    .insert(xapiDocuments)
    .values({ organizationId, ...key, ...document })
    .onConflictDoUpdate({
      target: [
        xapiDocuments.organizationId,
        xapiDocuments.kind,
        xapiDocuments.activityId,
        xapiDocuments.agentKey,
        xapiDocuments.registration,
        xapiDocuments.documentId,
      ],
      set: {
        contentType: document.contentType,
        content: document.content,
        etag: document.etag,
        updatedAt: document.updatedAt,
      },
    });
}

/** Deletes one document, or every document under the key when `documentId` is undefined. */
export async function deleteDocuments(
  db: Database,
  organizationId: string,
  key: DocumentKey,
  documentId: string | undefined,
): Promise<void> {
  await db
    .delete(xapiDocuments)
    .where(
      and(
        documentScope(organizationId, key),
        documentId === undefined ? undefined : eq(xapiDocuments.documentId, documentId),
      ),
    );
}

/** The LRS's recent traffic for the API keys tab: statements without facts (count and latest), last statement. */
export async function findLrsActivity(db: Database, organizationId: string, since: Date, limit: number) {
  const summary = await db.execute<{ unmapped: number; last: string | Date | null }>(sql`
    select
      (select count(*)::int from xapi_statements
       where organization_id = ${organizationId} and unmapped_reason is not null and stored > ${at(since)}) as unmapped,
      (select max(stored) from xapi_statements where organization_id = ${organizationId}) as last`);
  const recent = await db.execute<{
    id: string;
    stored: string | Date;
    verb_id: string;
    object_activity_id: string | null;
    object_type: string | null;
    actor_key: string | null;
    unmapped_reason: string;
  }>(sql`
    select id, stored, verb_id, object_activity_id, statement -> 'object' ->> 'objectType' as object_type,
      actor_key, unmapped_reason
    from xapi_statements
    where organization_id = ${organizationId} and unmapped_reason is not null
    order by stored desc, id desc
    limit ${limit}`);
  const row = summary.rows[0];
  return {
    unmapped: row?.unmapped ?? 0,
    lastStoredAt: row?.last ? new Date(row.last) : null,
    recent: recent.rows.map((r) => ({
      id: r.id,
      stored: new Date(r.stored),
      verb: r.verb_id,
      object: r.object_activity_id ?? r.object_type ?? 'Activity',
      actor: r.actor_key,
      reason: r.unmapped_reason,
    })),
  };
}
