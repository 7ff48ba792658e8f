import { randomUUID } from 'node:crypto';
import {
  EARLIEST_EVENT_TIME,
  findInvalidInput,
  isXapiIri,
  isXapiTimestamp,
  isXapiUuid,
  LRS_MESSAGES,
  MAX_EVENT_CLOCK_SKEW_MS,
  parseXapiAgentParam,
  parseXapiStatements,
  XAPI_MAX_PAGE,
  XAPI_VERBS,
  xapiAgentKey,
  xapiGroupMemberKeys,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { XapiStatementRow } from '../../db/schema';
import { AppError } from '../../errors';
import { writeInTransaction } from '../ingestion/ingestion.service';
import { writeLearningEvents, type Candidate, type Publish } from '../ingestion/write-path';
import { SIGNATURE_CONTENT_TYPE, SIGNATURE_USAGE_TYPE, verifyStatementSignature } from './jws';
import type { XapiAttachment } from './multipart';
import { instantMilliseconds, sameStatement, type Json, type JsonObject } from './statement-equality';
import { formatStatement, type StatementFormat } from './statement-format';
import { eventBase, toIngestionEvent, type EventBase } from './fact-events';
import { mapStatement, type MappedFact, type XapiStatementLike } from './statement-mapping';
import {
  findAttachments,
  findStatementContext,
  findStatementsByIds,
  insertAttachments,
  numberSlides,
  queryStatements,
  searchKey,
  storeStatementRecords,
  voidStatements,
  type StatementContext,
  type StatementCursor,
  type StatementFilter,
  type StoredStatement,
} from './xapi.queries';

/** Who sends statements: the API key's organization, and the authority the LRS stamps on them. */
export type LrsCaller = {
  organizationId: string;
  apiKeyId: string;
  /** The Agent the statements' `authority` names (the API key, as an account of this LRS). */
  authority: JsonObject;
};

const bad = (message: string) => new AppError('BAD_REQUEST', message);

const asObject = (value: Json | undefined): JsonObject | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
const asArray = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);
const asString = (value: Json | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Start times of the statement writes in flight in this process (for `Consistent-Through`). */
const writesInFlight = new Set<{ startedAt: Date }>();

/**
 * The instant up to which every statement stored is visible to queries:
 * now, unless a write of this process started earlier and has not committed
 * (its statements carry a `stored` before now and will appear below it).
 */
export function consistentThrough(now = new Date()): Date {
  let earliest = now;
  for (const write of writesInFlight) if (write.startedAt < earliest) earliest = write.startedAt;
  return new Date(earliest.getTime() - 1);
}

/**
 * Stores statements sent to `PUT` or `POST /xapi/statements`, all or none,
 * and returns their ids in the order sent. Each new statement is kept whole
 * (with `id`, `stored`, `authority`, `timestamp`, `version` set by the LRS)
 * and turned into CourseLens facts through the one write path of learning
 * events, in the same transaction. A statement whose id is already stored
 * changes nothing when it is the same statement, and fails the request with
 * 409 when it is not.
 */
export async function storeStatements(
  db: Database,
  caller: LrsCaller,
  input: {
    /** The parsed JSON body: one statement or a list. */
    body: unknown;
    /** Parts of a multipart/mixed request, by SHA-256. */
    attachments: ReadonlyMap<string, XapiAttachment>;
    /** PUT: the statementId parameter (the body must be one statement). */
    statementId?: string | undefined;
    publish?: Publish | undefined;
  },
  now = new Date(),
): Promise<string[]> {
  const invalid = findInvalidInput(input.body, { root: 'statement' });
  if (invalid) throw bad(invalid.message);
  if (input.statementId !== undefined && Array.isArray(input.body)) throw bad(LRS_MESSAGES.putTakesOne);
  const parsed = parseXapiStatements(input.body);
  if (!parsed.ok) throw bad(parsed.error);
  const sent = parsed.statements as unknown as JsonObject[];

  // Ids: the sender's (lower-case, one per request), or new ones.
  const seen = new Set<string>();
  const statements = sent.map((statement) => {
    let id = asString(statement.id)?.toLowerCase();
    if (input.statementId !== undefined) {
      const wanted = input.statementId.toLowerCase();
      if (id !== undefined && id !== wanted) throw bad(LRS_MESSAGES.statementIdMismatch);
      id = wanted;
    }
    id ??= randomUUID();
    if (seen.has(id)) throw bad(LRS_MESSAGES.duplicateInBatch(id));
    seen.add(id);
    const withId: JsonObject = { ...statement, id };
    return { id, sent: withId };
  });

  const usedParts = checkAttachments(statements, input.attachments);

  const storedAt = now.toISOString();
  const prepared = statements.map(({ id, sent: statement }) => {
    const stored: JsonObject = {
      ...statement,
      id,
      timestamp: asString(statement.timestamp) ?? storedAt,
      stored: storedAt,
      authority: caller.authority,
      version: asString(statement.version) ?? '1.0.0',
    };
    return { id, sent: statement, stored, eventAt: eventTime(stored, now) };
  });

  const write = { startedAt: now };
  writesInFlight.add(write);
  let learned: ReadonlyMap<string, number> = new Map();
  try {
    await writeInTransaction(
      db,
      prepared.flatMap((p) => (p.eventAt ? [p.eventAt] : [])),
      async (tx) => {
        const context = await findStatementContext(tx, caller.organizationId, {
          ids: [...seen],
          ...mappingLookups(prepared),
        });
        const existing = new Map(context.existing.map((row) => [row.id, row]));
        for (const p of prepared) {
          const old = existing.get(p.id);
          if (old && !sameStatement(old.statement as JsonObject, p.sent)) {
            throw new AppError('CONFLICT', LRS_MESSAGES.statementConflict(p.id));
          }
        }
        const fresh = prepared.filter((p) => !existing.has(p.id));
        if (fresh.length === 0) return;
        const voided = await checkVoiding(tx, caller.organizationId, fresh, existing);
        const facts = await recordFacts(tx, caller, fresh, context, input.publish);
        const inserted = await storeStatementRecords(tx, caller.organizationId, {
          statements: fresh.map((p) => toRow(caller, p.stored, facts.unmapped.get(p.id) ?? null, now)),
          registrations: facts.registrations,
          definitions: activityDefinitions(fresh),
          now,
        });
        if (inserted.length !== fresh.length) {
          // A concurrent request stored one of these ids first: compare with it as if it had been here before.
          const raced = await findStatementsByIds(
            tx,
            caller.organizationId,
            fresh.filter((p) => !inserted.includes(p.id)).map((p) => p.id),
          );
          for (const row of raced) {
            const p = fresh.find((candidate) => candidate.id === row.id);
            if (p && !sameStatement(row.statement as JsonObject, p.sent)) {
              throw new AppError('CONFLICT', LRS_MESSAGES.statementConflict(p.id));
            }
          }
        }
        await voidStatements(tx, caller.organizationId, voided);
        await insertAttachments(tx, caller.organizationId, usedParts);
        learned = facts.slides;
      },
    );
    // Only numbers that are committed are remembered: a rolled-back request's
    // new slides may be numbered differently by the next one.
    rememberSlides(caller.organizationId, learned);
  } finally {
    writesInFlight.delete(write);
  }
  return statements.map((s) => s.id);
}

/**
 * Every attachment without a `fileUrl` must come as a part of the request,
 * every part must belong to an attachment, and a signature must be a JWS of
 * the statement it signs. Returns the parts to keep.
 */
function checkAttachments(
  statements: readonly { id: string; sent: JsonObject }[],
  parts: ReadonlyMap<string, XapiAttachment>,
): Map<string, XapiAttachment> {
  const used = new Map<string, XapiAttachment>();
  for (const { sent } of statements) {
    for (const entry of asArray(sent.attachments)) {
      const attachment = asObject(entry);
      const sha2 = asString(attachment?.sha2)?.toLowerCase();
      if (!attachment || !sha2) continue;
      const part = parts.get(sha2);
      if (!part) {
        if (asString(attachment.fileUrl) === undefined) throw bad(LRS_MESSAGES.attachmentMissing(sha2));
        continue;
      }
      used.set(sha2, part);
      if (asString(attachment.usageType) === SIGNATURE_USAGE_TYPE) {
        if (asString(attachment.contentType) !== SIGNATURE_CONTENT_TYPE)
          throw bad(LRS_MESSAGES.signatureContentType);
        const verdict = verifyStatementSignature(part.body.toString('utf8'), sent);
        if (!verdict.ok) throw bad(verdict.error);
      }
    }
  }
  for (const sha2 of parts.keys()) {
    if (!used.has(sha2)) throw bad(LRS_MESSAGES.attachmentPartUnused(sha2));
  }
  return used;
}

type Prepared = { id: string; sent: JsonObject; stored: JsonObject; eventAt: Date | null };

const isVoiding = (statement: JsonObject) => asString(asObject(statement.verb)?.id) === XAPI_VERBS.voided;
const referencedId = (statement: JsonObject): string | undefined => {
  const object = asObject(statement.object);
  return object?.objectType === 'StatementRef' ? asString(object.id)?.toLowerCase() : undefined;
};

/** The statements the request voids; voiding a voiding statement is refused. */
async function checkVoiding(
  tx: Database,
  organizationId: string,
  fresh: readonly Prepared[],
  existing: ReadonlyMap<string, StoredStatement>,
): Promise<string[]> {
  const targets = fresh.filter((p) => isVoiding(p.stored)).map((p) => referencedId(p.stored) as string);
  if (targets.length === 0) return [];
  const known = new Map(existing);
  for (const row of await findStatementsByIds(tx, organizationId, targets)) known.set(row.id, row);
  for (const target of targets) {
    const inBatch = fresh.find((p) => p.id === target);
    if (known.get(target)?.isVoiding || (inBatch && isVoiding(inBatch.stored)))
      throw bad(LRS_MESSAGES.voidingVoiding(target));
  }
  return targets;
}

/** When the facts of a statement happened: its timestamp, when the event log can take it. */
function eventTime(stored: JsonObject, now: Date): Date | null {
  const time = instantOf(stored.timestamp) ?? now.getTime();
  if (time < EARLIEST_EVENT_TIME || time > now.getTime() + MAX_EVENT_CLOCK_SKEW_MS) return null;
  return new Date(time);
}

/** A timestamp as xAPI writes them (any offset form; no zone reads as UTC). */
function instantOf(value: Json | undefined): number | null {
  const text = asString(value);
  return text === undefined ? null : instantMilliseconds(text);
}

/** The activity ids and registrations the mapping asks about (courses, earlier registrations). */
function mappingLookups(prepared: readonly Prepared[]): { activityIds: string[]; registrations: string[] } {
  const activityIds = new Set<string>();
  const registrations = new Set<string>();
  for (const { stored } of prepared) {
    if (isVoiding(stored)) continue;
    for (const id of mentionedActivities(stored, false)) activityIds.add(id);
    const registration = asString(asObject(stored.context)?.registration)?.toLowerCase();
    if (registration) registrations.add(registration);
  }
  return { activityIds: [...activityIds], registrations: [...registrations] };
}

/**
 * Slide numbers (keyed `<course>\n<slide>`) of the organization's
 * courses. A slide keeps the number it was first given for good, so each
 * process remembers the committed ones and asks the database only about
 * slides new to it: a course's statements mostly revisit known slides.
 */
const knownSlides = new Map<string, number>();
const MAX_KNOWN_SLIDES = 100_000;
const slideMemoryKey = (organizationId: string, slideKey: string) => `${organizationId}\n${slideKey}`;

async function slideNumbers(
  tx: Database,
  organizationId: string,
  wanted: readonly { course: string; slide: string }[],
): Promise<Map<string, number>> {
  const numbers = new Map<string, number>();
  const unknown: { course: string; slide: string }[] = [];
  for (const slide of wanted) {
    const key = `${slide.course}\n${slide.slide}`;
    const remembered = knownSlides.get(slideMemoryKey(organizationId, key));
    if (remembered === undefined) unknown.push(slide);
    else numbers.set(key, remembered);
  }
  for (const [key, number] of await numberSlides(tx, organizationId, unknown)) numbers.set(key, number);
  return numbers;
}

function rememberSlides(organizationId: string, numbers: ReadonlyMap<string, number>) {
  for (const [key, number] of numbers) {
    const memoryKey = slideMemoryKey(organizationId, key);
    if (knownSlides.has(memoryKey)) continue;
    // The oldest entry goes first: a long-running process keeps a bounded memory.
    if (knownSlides.size >= MAX_KNOWN_SLIDES) knownSlides.delete(knownSlides.keys().next().value as string);
    knownSlides.set(memoryKey, number);
  }
}

/**
 * Maps the new statements to learning events and writes them through the
 * write path (courses, learners, runs, answers, values; plan caps checked
 * there). Returns, per statement that made no facts, the reason, and the
 * registrations seen for the first time with their course.
 */
async function recordFacts(
  tx: Database,
  caller: LrsCaller,
  fresh: readonly Prepared[],
  context: StatementContext,
  publish: Publish | undefined,
): Promise<{
  unmapped: Map<string, string>;
  registrations: Map<string, string>;
  slides: Map<string, number>;
}> {
  const unmapped = new Map<string, string>();
  const mappable = fresh.filter((p) => !isVoiding(p.stored));
  for (const p of fresh) if (isVoiding(p.stored)) unmapped.set(p.id, 'a voiding statement changes no facts');
  const courses = new Set(context.courses);
  const registrationCourses = new Map(context.registrations);
  const newRegistrations = new Map<string, string>();

  type Planned = { prepared: Prepared; facts: MappedFact[]; event: Omit<EventBase, 'id'> };
  const planned: Planned[] = [];
  for (const p of mappable) {
    // The statement passed the contract's validation, so it has the shape the mapping reads.
    const statement = p.stored as unknown as XapiStatementLike;
    const mapping = mapStatement(statement, { courses, registrations: registrationCourses });
    if (!mapping.mapped) {
      unmapped.set(p.id, mapping.reason);
      continue;
    }
    if (!p.eventAt) {
      unmapped.set(p.id, 'its timestamp is before 2000 or more than a day in the future');
      continue;
    }
    // Later statements of the request see what earlier ones taught.
    courses.add(mapping.course.activityId);
    if (mapping.registration && !registrationCourses.has(mapping.registration)) {
      registrationCourses.set(mapping.registration, mapping.course.activityId);
      newRegistrations.set(mapping.registration, mapping.course.activityId);
    }
    planned.push({
      prepared: p,
      facts: mapping.facts,
      event: eventBase(mapping, p.eventAt),
    });
  }

  const slides = await slideNumbers(
    tx,
    caller.organizationId,
    planned.flatMap(({ facts, event }) =>
      facts.flatMap((fact) =>
        fact.type === 'slide.viewed'
          ? [{ course: event.course.externalCourseId, slide: fact.slide.activityId }]
          : [],
      ),
    ),
  );

  const candidates: Candidate[] = [];
  const statementOf = new Map<string, string>();
  for (const { prepared, facts, event } of planned) {
    const at = prepared.eventAt as Date;
    facts.forEach((fact, i) => {
      const id = i === 0 ? `xapi:${prepared.id}` : `xapi:${prepared.id}:${i}`;
      statementOf.set(id, prepared.id);
      candidates.push({
        index: candidates.length,
        event: toIngestionEvent(fact, { id, ...event }, slides),
        at,
        extras: { statementId: prepared.id },
      });
    });
  }
  if (candidates.length > 0) {
    const outcome = await writeLearningEvents(
      tx,
      { organizationId: caller.organizationId, source: 'xapi', apiKeyId: caller.apiKeyId, publish },
      candidates,
    );
    for (const rejected of outcome.rejected) {
      const statementId = rejected.id ? statementOf.get(rejected.id) : undefined;
      if (statementId && !unmapped.has(statementId)) unmapped.set(statementId, rejected.error);
    }
  }
  return { unmapped, registrations: newRegistrations, slides };
}

/** Activity ids a statement mentions: the object and its context activities (and a sub-statement's, for `related`). */
function mentionedActivities(statement: JsonObject, related: boolean): string[] {
  const ids: string[] = [];
  const object = asObject(statement.object);
  const objectType = asString(object?.objectType) ?? 'Activity';
  if (object && objectType === 'Activity') {
    const id = asString(object.id);
    if (id) ids.push(id);
  }
  const contextActivities = asObject(asObject(statement.context)?.contextActivities);
  for (const key of ['parent', 'grouping', 'category', 'other'] as const) {
    if (!related && (key === 'category' || key === 'other')) continue;
    for (const activity of asArray(contextActivities?.[key])) {
      const id = asString(asObject(activity)?.id);
      if (id) ids.push(id);
    }
  }
  if (related && object && objectType === 'SubStatement') ids.push(...mentionedActivities(object, true));
  return ids;
}

/** Every agent a statement mentions (for `related_agents`). */
function mentionedAgents(statement: JsonObject): string[] {
  const keys: string[] = [];
  const add = (actor: Json | undefined) => {
    const agent = asObject(actor);
    if (agent) keys.push(...xapiGroupMemberKeys(agent));
  };
  add(statement.actor);
  const object = asObject(statement.object);
  if (object?.objectType === 'Agent' || object?.objectType === 'Group') add(object);
  add(statement.authority);
  const context = asObject(statement.context);
  add(context?.instructor);
  add(context?.team);
  if (object?.objectType === 'SubStatement') keys.push(...mentionedAgents(object));
  return keys;
}

function agentKeyOf(value: Json | undefined): string | null {
  const agent = asObject(value);
  return agent ? xapiAgentKey(agent) : null;
}

/** The terms the statement queries match this statement by (`xapi_statements.search_keys`). */
function searchKeys(
  organizationId: string,
  stored: JsonObject,
  direct: {
    verbId: string;
    actorKey: string | null;
    objectActivityId: string | null;
    objectAgentKey: string | null;
    registration: string | null;
  },
): string[] {
  const keys = new Set<string>([searchKey(organizationId, 'v', direct.verbId)]);
  for (const agent of [direct.actorKey, direct.objectAgentKey])
    if (agent) keys.add(searchKey(organizationId, 'ag', agent));
  for (const agent of mentionedAgents(stored)) keys.add(searchKey(organizationId, 'rag', agent));
  if (direct.objectActivityId) keys.add(searchKey(organizationId, 'ac', direct.objectActivityId));
  for (const activity of mentionedActivities(stored, true))
    keys.add(searchKey(organizationId, 'rac', activity));
  if (direct.registration) keys.add(searchKey(organizationId, 'r', direct.registration));
  return [...keys];
}

function toRow(
  caller: LrsCaller,
  stored: JsonObject,
  unmappedReason: string | null,
  now: Date,
): XapiStatementRow {
  const object = asObject(stored.object) ?? {};
  const objectType = asString(object.objectType) ?? 'Activity';
  const registration = asString(asObject(stored.context)?.registration)?.toLowerCase() ?? null;
  return {
    organizationId: caller.organizationId,
    id: asString(stored.id) as string,
    stored: now,
    timestamp: new Date(instantOf(stored.timestamp) ?? now.getTime()),
    verbId: asString(asObject(stored.verb)?.id) as string,
    actorKey: agentKeyOf(stored.actor),
    objectActivityId: objectType === 'Activity' ? (asString(object.id) ?? null) : null,
    objectAgentKey: objectType === 'Agent' || objectType === 'Group' ? agentKeyOf(object) : null,
    objectStatementId: objectType === 'StatementRef' ? (asString(object.id)?.toLowerCase() ?? null) : null,
    registration,
    searchKeys: searchKeys(caller.organizationId, stored, {
      verbId: asString(asObject(stored.verb)?.id) as string,
      actorKey: agentKeyOf(stored.actor),
      objectActivityId: objectType === 'Activity' ? (asString(object.id) ?? null) : null,
      objectAgentKey: objectType === 'Agent' || objectType === 'Group' ? agentKeyOf(object) : null,
      registration,
    }),
    isVoiding: isVoiding(stored),
    voided: false,
    statement: stored,
    unmappedReason,
    apiKeyId: caller.apiKeyId,
  };
}

/** The definitions the statements carry, for `GET /xapi/activities` (the last one sent wins). */
function activityDefinitions(fresh: readonly Prepared[]): Map<string, Record<string, unknown>> {
  const definitions = new Map<string, Record<string, unknown>>();
  const collect = (activity: Json | undefined) => {
    const object = asObject(activity);
    const id = asString(object?.id);
    const definition = asObject(object?.definition);
    if (id && definition && (asString(object?.objectType) ?? 'Activity') === 'Activity')
      definitions.set(id, definition);
  };
  for (const { stored } of fresh) {
    collect(stored.object);
    const contextActivities = asObject(asObject(stored.context)?.contextActivities);
    for (const key of ['parent', 'grouping', 'category', 'other'])
      for (const activity of asArray(contextActivities?.[key])) collect(activity);
  }
  return definitions;
}

// --- Reading statements -----------------------------------------------------

const QUERY_PARAMETERS = new Set([
  'statementId',
  'voidedStatementId',
  'agent',
  'verb',
  'activity',
  'registration',
  'related_activities',
  'related_agents',
  'since',
  'until',
  'limit',
  'format',
  'attachments',
  'ascending',
  'more',
]);

export type StatementsAnswer = {
  /** One statement (by id) or a page of the query with its `more` link. */
  body: JsonObject | { statements: JsonObject[]; more: string };
  /** The attachments to send with it (when `attachments=true`). */
  attachments: { sha2: string; contentType: string; content: Buffer }[] | null;
  /** The single statement's `stored` (Last-Modified). */
  lastModified: Date | null;
};

type Query = {
  filter: StatementFilter;
  limit: number;
  format: StatementFormat;
  attachments: boolean;
};

/** `GET /xapi/statements`: one statement by id, or a page of the query. */
export async function getStatements(
  db: Database,
  organizationId: string,
  params: Readonly<Record<string, string>>,
  languages: string[],
): Promise<StatementsAnswer> {
  for (const name of Object.keys(params)) {
    if (!QUERY_PARAMETERS.has(name)) throw bad(LRS_MESSAGES.unknownParameter(name));
  }
  const format = parseFormat(params.format);
  const withAttachments = parseBoolean('attachments', params.attachments);
  const statementId = params.statementId;
  const voidedStatementId = params.voidedStatementId;
  if (statementId !== undefined || voidedStatementId !== undefined) {
    if (statementId !== undefined && voidedStatementId !== undefined)
      throw bad(LRS_MESSAGES.bothStatementIds);
    const others = Object.keys(params).filter(
      (name) => !['statementId', 'voidedStatementId', 'format', 'attachments'].includes(name),
    );
    if (others.length > 0) throw bad(LRS_MESSAGES.statementIdWithFilters);
    const id = (statementId ?? voidedStatementId) as string;
    const name = statementId !== undefined ? 'statementId' : 'voidedStatementId';
    if (!isXapiUuid(id)) throw bad(LRS_MESSAGES.invalidParameter(name, 'must be a UUID'));
    const [row] = await findStatementsByIds(db, organizationId, [id.toLowerCase()]);
    const wantVoided = voidedStatementId !== undefined;
    if (!row || row.voided !== wantVoided) throw new AppError('NOT_FOUND', LRS_MESSAGES.statementNotFound);
    const statement = formatStatement(row.statement as JsonObject, format, languages);
    return {
      body: statement,
      attachments: withAttachments ? await attachmentsOf(db, organizationId, [statement]) : null,
      lastModified: row.stored,
    };
  }

  let query: Query;
  let cursor: StatementCursor | null = null;
  if (params.more !== undefined) {
    if (Object.keys(params).length > 1) throw bad(LRS_MESSAGES.invalidMore);
    ({ query, cursor } = decodeMore(params.more));
  } else {
    query = parseQuery(params, format, withAttachments);
  }
  const rows = await queryStatements(db, organizationId, query.filter, cursor, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const more =
    rows.length > query.limit && last
      ? `/xapi/statements?more=${encodeMore(query, { stored: last.stored, id: last.id })}`
      : '';
  const statements = page.map((row) => formatStatement(row.statement as JsonObject, query.format, languages));
  return {
    body: { statements, more },
    attachments: query.attachments ? await attachmentsOf(db, organizationId, statements) : null,
    lastModified: null,
  };
}

async function attachmentsOf(db: Database, organizationId: string, statements: readonly JsonObject[]) {
  const sha2s = new Set<string>();
  for (const statement of statements) {
    for (const entry of asArray(statement.attachments)) {
      const sha2 = asString(asObject(entry)?.sha2)?.toLowerCase();
      if (sha2) sha2s.add(sha2);
    }
  }
  return findAttachments(db, organizationId, [...sha2s]);
}

function parseQuery(
  params: Readonly<Record<string, string>>,
  format: StatementFormat,
  attachments: boolean,
): Query {
  let agentKey: string | undefined;
  if (params.agent !== undefined) {
    const agent = parseXapiAgentParam(params.agent);
    if (!agent.ok) throw bad(agent.error);
    agentKey = xapiAgentKey(agent.agent) ?? undefined;
    if (agentKey === undefined)
      throw bad(LRS_MESSAGES.invalidParameter('agent', 'must identify an Agent or a Group'));
  }
  const iri = (name: 'verb' | 'activity') => {
    const value = params[name];
    if (value !== undefined && !isXapiIri(value))
      throw bad(LRS_MESSAGES.invalidParameter(name, 'must be an IRI'));
    return value;
  };
  const registration = params.registration;
  if (registration !== undefined && !isXapiUuid(registration))
    throw bad(LRS_MESSAGES.invalidParameter('registration', 'must be a UUID'));
  const time = (name: 'since' | 'until') => {
    const value = params[name];
    if (value === undefined) return undefined;
    if (!isXapiTimestamp(value))
      throw bad(LRS_MESSAGES.invalidParameter(name, 'must be an ISO 8601 timestamp'));
    return new Date(instantMilliseconds(value) ?? Number.NaN);
  };
  let limit = XAPI_MAX_PAGE;
  if (params.limit !== undefined) {
    if (!/^\d{1,9}$/.test(params.limit))
      throw bad(LRS_MESSAGES.invalidParameter('limit', 'must be a whole number (0 for the largest page)'));
    const asked = Number(params.limit);
    limit = asked === 0 ? XAPI_MAX_PAGE : Math.min(asked, XAPI_MAX_PAGE);
  }
  return {
    filter: {
      agentKey,
      verbId: iri('verb'),
      activityId: iri('activity'),
      registration: registration?.toLowerCase(),
      relatedActivities: parseBoolean('related_activities', params.related_activities),
      relatedAgents: parseBoolean('related_agents', params.related_agents),
      since: time('since'),
      until: time('until'),
      ascending: parseBoolean('ascending', params.ascending),
    },
    limit,
    format,
    attachments,
  };
}

function parseFormat(value: string | undefined): StatementFormat {
  if (value === undefined) return 'exact';
  if (value === 'exact' || value === 'ids' || value === 'canonical') return value;
  throw bad(LRS_MESSAGES.invalidParameter('format', 'must be ids, exact or canonical'));
}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw bad(LRS_MESSAGES.invalidParameter(name, 'must be true or false'));
}

/** The `more` token: the query and where its next page starts, so a later call needs nothing else. */
function encodeMore(query: Query, cursor: StatementCursor): string {
  const { filter } = query;
  return Buffer.from(
    JSON.stringify({
      f: {
        ...filter,
        since: filter.since?.toISOString(),
        until: filter.until?.toISOString(),
      },
      l: query.limit,
      o: query.format,
      a: query.attachments,
      c: [cursor.stored.toISOString(), cursor.id],
    }),
  ).toString('base64url');
}

function decodeMore(token: string): { query: Query; cursor: StatementCursor } {
  try {
    const raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      f: Omit<StatementFilter, 'since' | 'until'> & { since?: string; until?: string };
      l: number;
      o: StatementFormat;
      a: boolean;
      c: [string, string];
    };
    const stored = new Date(raw.c[0]);
    if (
      Number.isNaN(stored.getTime()) ||
      !isXapiUuid(raw.c[1]) ||
      !Number.isInteger(raw.l) ||
      raw.l < 1 ||
      raw.l > XAPI_MAX_PAGE ||
      !['exact', 'ids', 'canonical'].includes(raw.o)
    )
      throw new Error('bad token');
    const filter: StatementFilter = {
      agentKey: typeof raw.f.agentKey === 'string' ? raw.f.agentKey : undefined,
      verbId: typeof raw.f.verbId === 'string' ? raw.f.verbId : undefined,
      activityId: typeof raw.f.activityId === 'string' ? raw.f.activityId : undefined,
      registration:
        typeof raw.f.registration === 'string' && isXapiUuid(raw.f.registration)
          ? raw.f.registration
          : undefined,
      relatedActivities: raw.f.relatedActivities === true,
      relatedAgents: raw.f.relatedAgents === true,
      since: raw.f.since ? new Date(raw.f.since) : undefined,
      until: raw.f.until ? new Date(raw.f.until) : undefined,
      ascending: raw.f.ascending === true,
    };
    return {
      query: { filter, limit: raw.l, format: raw.o, attachments: raw.a === true },
      cursor: { stored, id: raw.c[1] },
    };
  } catch {
    throw bad(LRS_MESSAGES.invalidMore);
  }
}
