import { createHash } from 'node:crypto';
import {
  isXapiIri,
  isXapiTimestamp,
  isXapiUuid,
  LRS_MESSAGES,
  parseXapiAgentParam,
  XAPI_MAX_DOCUMENT_BYTES,
  XAPI_ACTIVITY_TYPES,
  XAPI_VERBS,
  xapiAgentKey,
  type XapiActor,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { writeInTransaction } from '../ingestion/ingestion.service';
import { writeLearningEvents, type Candidate, type Publish } from '../ingestion/write-path';
import { eventBase, toIngestionEvent } from './fact-events';
import { mapStatement, type XapiStatementLike } from './statement-mapping';
import type { XapiDocumentKind } from '../../db/schema';
import { AppError } from '../../errors';
import { instantMilliseconds } from './statement-equality';
import {
  deleteDocuments,
  findActivityDefinition,
  findAgentNames,
  findDocument,
  isActivityKnown,
  listDocumentIds,
  saveDocument,
  type DocumentKey,
} from './xapi.queries';

const bad = (message: string) => new AppError('BAD_REQUEST', message);

export type DocumentMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** A document request as the resource sees it, whichever syntax it came in. */
export type DocumentRequest = {
  method: DocumentMethod;
  params: Readonly<Record<string, string>>;
  ifMatch: string | undefined;
  ifNoneMatch: string | undefined;
  contentType: string | undefined;
  body: Buffer;
};

export type DocumentAnswer =
  | { kind: 'document'; contentType: string; content: Buffer; etag: string; updatedAt: Date }
  | { kind: 'ids'; ids: string[] }
  | { kind: 'done' };

/** How each resource names its document and which parameters it takes. */
const RESOURCES: Record<
  XapiDocumentKind,
  { idParam: 'stateId' | 'profileId'; activity: boolean; agent: boolean; registration: boolean }
> = {
  state: { idParam: 'stateId', activity: true, agent: true, registration: true },
  activity_profile: { idParam: 'profileId', activity: true, agent: false, registration: false },
  agent_profile: { idParam: 'profileId', activity: false, agent: true, registration: false },
};

/**
 * The State, Activity Profile and Agent Profile resources. Writes are
 * serialized per document (a transaction-scoped advisory lock), so the
 * If-Match / If-None-Match checks and the write that follows them are one
 * step even between processes.
 */
export async function handleDocument(
  db: Database,
  caller: { organizationId: string; apiKeyId: string; publish?: Publish | undefined },
  kind: XapiDocumentKind,
  request: DocumentRequest,
  now = new Date(),
): Promise<DocumentAnswer> {
  const { organizationId } = caller;
  const resource = RESOURCES[kind];
  const { params } = request;
  const allowed = new Set<string>([resource.idParam]);
  if (resource.activity) allowed.add('activityId');
  if (resource.agent) allowed.add('agent');
  if (resource.registration) allowed.add('registration');
  if (request.method === 'GET') allowed.add('since');
  for (const name of Object.keys(params)) {
    if (!allowed.has(name)) throw bad(LRS_MESSAGES.unknownParameter(name));
  }

  const key: DocumentKey = { kind, activityId: '', agentKey: '', registration: '' };
  if (resource.activity) {
    const activityId = params.activityId;
    if (activityId === undefined) throw bad(LRS_MESSAGES.parameterRequired('activityId'));
    if (!isXapiIri(activityId)) throw bad(LRS_MESSAGES.invalidParameter('activityId', 'must be an IRI'));
    key.activityId = activityId;
  }
  const agent = resource.agent ? agentParam(params.agent) : null;
  if (agent) key.agentKey = agent.key;
  if (resource.registration && params.registration !== undefined) {
    if (!isXapiUuid(params.registration))
      throw bad(LRS_MESSAGES.invalidParameter('registration', 'must be a UUID'));
    key.registration = params.registration.toLowerCase();
  }
  const documentId = params[resource.idParam];
  if (documentId !== undefined && documentId.length > 2048)
    throw bad(LRS_MESSAGES.invalidParameter(resource.idParam, 'must be at most 2048 characters'));

  if (request.method === 'GET') {
    if (documentId !== undefined) {
      if (params.since !== undefined) throw bad(LRS_MESSAGES.unknownParameter('since'));
      const document = await findDocument(db, organizationId, key, documentId);
      if (!document) throw new AppError('NOT_FOUND', LRS_MESSAGES.documentNotFound);
      return { kind: 'document', ...document };
    }
    let since: Date | undefined;
    if (params.since !== undefined) {
      const instant = isXapiTimestamp(params.since) ? instantMilliseconds(params.since) : null;
      if (instant === null)
        throw bad(LRS_MESSAGES.invalidParameter('since', 'must be an ISO 8601 timestamp'));
      since = new Date(instant);
    }
    return { kind: 'ids', ids: await listDocumentIds(db, organizationId, key, since) };
  }

  // Deleting every state of an activity and agent is allowed; profiles go one at a time.
  if (documentId === undefined && !(request.method === 'DELETE' && kind === 'state'))
    throw bad(LRS_MESSAGES.parameterRequired(resource.idParam));
  if (request.body.length > XAPI_MAX_DOCUMENT_BYTES) throw bad(LRS_MESSAGES.documentTooLarge);

  return writeInTransaction(db, [now], async (txDb) => {
    await txDb.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${[
        'xapi-document',
        organizationId,
        kind,
        key.activityId,
        key.agentKey,
        key.registration,
        documentId ?? '*',
      ].join('\n')}, 0))`,
    );
    const current =
      documentId === undefined ? null : await findDocument(txDb, organizationId, key, documentId);
    checkPreconditions(kind, request, current?.etag ?? null);

    if (request.method === 'DELETE') {
      await deleteDocuments(txDb, organizationId, key, documentId);
      return { kind: 'done' } as const;
    }
    const id = documentId as string;
    const contentType = (request.contentType ?? 'application/octet-stream').trim();
    let content = request.body;
    let storedType = contentType;
    if (request.method === 'POST') {
      const incoming = jsonObjectOf(contentType, content);
      if (!incoming) throw bad(LRS_MESSAGES.mergeNeedsJson);
      if (current) {
        const stored = jsonObjectOf(current.contentType, current.content);
        if (!stored) throw bad(LRS_MESSAGES.mergeNeedsJson);
        content = Buffer.from(JSON.stringify({ ...stored, ...incoming }));
      }
      storedType = 'application/json';
    }
    if (content.length > XAPI_MAX_DOCUMENT_BYTES) throw bad(LRS_MESSAGES.documentTooLarge);
    const etag = etagOf(content);
    await saveDocument(txDb, organizationId, key, {
      documentId: id,
      contentType: storedType,
      content,
      etag,
      updatedAt: now,
    });
    if (kind === 'state' && agent && isVariablesState(id)) {
      await recordStateVariables(txDb, caller, {
        agent: agent.agent,
        activityId: key.activityId,
        registration: key.registration || null,
        before: current ? jsonObjectOf(current.contentType, current.content) : null,
        after: jsonObjectOf(storedType, content),
        eventKey: [key.activityId, key.agentKey, key.registration, id, etag].join('\n'),
        now,
      });
    }
    return { kind: 'done' } as const;
  });
}

/** The document's ETag: the SHA-1 of its content, quoted. */
export function etagOf(content: Buffer): string {
  return `"${createHash('sha1').update(content).digest('hex')}"`;
}

/**
 * If-Match and If-None-Match, as xAPI asks: a mismatch is 412; replacing a
 * profile that exists without either header is 409 (the client may be
 * overwriting a change it never saw). The State resource does not require them.
 */
function checkPreconditions(kind: XapiDocumentKind, request: DocumentRequest, etag: string | null): void {
  const { ifMatch, ifNoneMatch } = request;
  if (ifMatch !== undefined && (etag === null || !etagListMatches(ifMatch, etag)))
    throw new AppError('PRECONDITION_FAILED', LRS_MESSAGES.ifMatchFailed);
  if (ifNoneMatch !== undefined && etag !== null && etagListMatches(ifNoneMatch, etag))
    throw new AppError('PRECONDITION_FAILED', LRS_MESSAGES.ifNoneMatchFailed);
  if (
    request.method === 'PUT' &&
    kind !== 'state' &&
    etag !== null &&
    ifMatch === undefined &&
    ifNoneMatch === undefined
  )
    throw new AppError('CONFLICT', LRS_MESSAGES.concurrencyRequired);
}

function etagListMatches(header: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function jsonObjectOf(contentType: string, content: Buffer): Record<string, unknown> | null {
  if (contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') return null;
  try {
    const value: unknown = JSON.parse(content.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function agentParam(raw: string | undefined): { agent: XapiActor; key: string } {
  if (raw === undefined) throw bad(LRS_MESSAGES.parameterRequired('agent'));
  const parsed = parseXapiAgentParam(raw);
  if (!parsed.ok) throw bad(parsed.error);
  const key = xapiAgentKey(parsed.agent);
  if (key === null) throw bad(LRS_MESSAGES.invalidParameter('agent', 'must identify an Agent or a Group'));
  return { agent: parsed.agent, key };
}

/** `GET /xapi/activities`: the activity with the latest definition the LRS was sent. */
export async function getActivity(
  db: Database,
  organizationId: string,
  params: Readonly<Record<string, string>>,
): Promise<Record<string, unknown>> {
  for (const name of Object.keys(params)) {
    if (name !== 'activityId') throw bad(LRS_MESSAGES.unknownParameter(name));
  }
  const activityId = params.activityId;
  if (activityId === undefined) throw bad(LRS_MESSAGES.parameterRequired('activityId'));
  if (!isXapiIri(activityId)) throw bad(LRS_MESSAGES.invalidParameter('activityId', 'must be an IRI'));
  const definition = await findActivityDefinition(db, organizationId, activityId);
  if (definition) return { objectType: 'Activity', id: activityId, definition };
  if (await isActivityKnown(db, organizationId, activityId))
    return { objectType: 'Activity', id: activityId };
  throw new AppError('NOT_FOUND', LRS_MESSAGES.activityNotFound);
}

/** `GET /xapi/agents`: the Person the LRS knows for an agent (its identifier and the names it was sent with). */
export async function getPerson(
  db: Database,
  organizationId: string,
  params: Readonly<Record<string, string>>,
): Promise<Record<string, unknown>> {
  for (const name of Object.keys(params)) {
    if (name !== 'agent') throw bad(LRS_MESSAGES.unknownParameter(name));
  }
  if (params.agent === undefined) throw bad(LRS_MESSAGES.parameterRequired('agent'));
  const parsed = parseXapiAgentParam(params.agent);
  if (!parsed.ok) throw bad(parsed.error);
  const agent = parsed.agent;
  const key = xapiAgentKey(agent);
  const names = key ? await findAgentNames(db, organizationId, key) : [];
  const sentName = typeof agent.name === 'string' ? agent.name : undefined;
  if (sentName && !names.includes(sentName)) names.push(sentName);
  const person: Record<string, unknown> = { objectType: 'Person' };
  if (names.length > 0) person.name = names;
  if (agent.mbox) person.mbox = [agent.mbox];
  if (agent.mbox_sha1sum) person.mbox_sha1sum = [agent.mbox_sha1sum];
  if (agent.openid) person.openid = [agent.openid];
  if (agent.account) person.account = [agent.account];
  return person;
}

/** A state document CourseLens reads as course variables: its id is `variables` (or an IRI ending in `/variables`). */
export function isVariablesState(stateId: string): boolean {
  return /(^|[/#:])variables$/i.test(stateId);
}

/**
 * A `variables` state document is the learner's course variables as one
 * JSON object (what a course's JavaScript trigger can keep with the xAPI
 * wrapper's `setState`): each value that changed becomes a value of the
 * course variable of that name, through the same mapping as a statement's
 * `/variables/<name>` result extensions, and the same write path.
 */
async function recordStateVariables(
  tx: Database,
  caller: { organizationId: string; apiKeyId: string; publish?: Publish | undefined },
  state: {
    agent: XapiActor;
    activityId: string;
    registration: string | null;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    eventKey: string;
    now: Date;
  },
): Promise<void> {
  if (!state.after) return;
  const extensions: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(state.after)) {
    if (state.before && JSON.stringify(state.before[name]) === JSON.stringify(value)) continue;
    extensions[`https://courselens.invalid/state/variables/${encodeURIComponent(name)}`] = value;
  }
  if (Object.keys(extensions).length === 0) return;
  // The state's activity is the course it belongs to (Storyline keeps its state on the course activity).
  const statement = {
    actor: state.agent,
    verb: { id: XAPI_VERBS.experienced },
    object: {
      objectType: 'Activity',
      id: state.activityId,
      definition: { type: XAPI_ACTIVITY_TYPES.course },
    },
    result: { extensions },
    ...(state.registration ? { context: { registration: state.registration } } : {}),
  } as unknown as XapiStatementLike;
  const mapping = mapStatement(statement, { courses: new Set(), registrations: new Map() });
  if (!mapping.mapped) return;
  const base = eventBase(mapping, state.now);
  const candidates: Candidate[] = mapping.facts.map((fact, index) => {
    const name = fact.type === 'variable.set' ? fact.variable.name : String(index);
    const id = `xapi-state:${createHash('sha1').update(`${state.eventKey}\n${name}`).digest('hex')}`;
    return { index, event: toIngestionEvent(fact, { id, ...base }, new Map()), at: state.now, extras: null };
  });
  await writeLearningEvents(
    tx,
    {
      organizationId: caller.organizationId,
      source: 'xapi',
      apiKeyId: caller.apiKeyId,
      publish: caller.publish,
    },
    candidates,
  );
}
