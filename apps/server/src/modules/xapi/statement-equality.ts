/**
 * xAPI 1.0.3 Statement comparison (Data 2.3.1, "Statement Comparison
 * Requirements"): two serializations are the same Statement when they differ
 * only in ways the immutability exceptions allow. The LRS needs it to answer
 * 409 Conflict when an id it already stores arrives with other content, and
 * to check that a signed Statement's JWS payload is the Statement received.
 *
 * What is ignored, each because the specification lists it as an exception:
 * - `authority`, `stored` and `version`, which the LRS may set or replace;
 * - `id` and `timestamp` when only one side has them, since the LRS assigns
 *   them to a Statement that arrives without;
 * - how `timestamp` is written: it is compared as an instant, to the
 *   millisecond, because an LRS may change its zone and truncate it;
 * - the order of object keys, and of the members of a Group (an unordered list);
 * - case where it carries no meaning: `mbox` and `mbox_sha1sum` addresses and
 *   UUIDs (statement ids, StatementRefs, registrations);
 * - an Activity's `definition` and a Verb's `display`, which the specification
 *   says are not part of the Statement (the LRS keeps a canonical version);
 * - a missing `objectType` where the default is implied (an Activity object,
 *   an Agent actor), and a single contextActivities Activity against a
 *   one-element array.
 * Everything else, including the order of other arrays and `result.duration`
 * as written, must be identical.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Properties the LRS may set or overwrite, so a difference in them never counts. */
const LRS_ASSIGNED = ['authority', 'stored', 'version'] as const;
/** Properties the LRS fills in only when the Statement arrives without them. */
const ASSIGNED_WHEN_MISSING = ['id', 'timestamp'] as const;
const CONTEXT_ACTIVITY_KINDS = ['parent', 'grouping', 'category', 'other'] as const;

/** True when `a` and `b` are the same xAPI Statement under the comparison rules above. */
export function sameStatement(a: JsonObject, b: JsonObject): boolean {
  const left = { ...a };
  const right = { ...b };
  for (const key of LRS_ASSIGNED) {
    delete left[key];
    delete right[key];
  }
  for (const key of ASSIGNED_WHEN_MISSING) {
    if (!Object.hasOwn(left, key) || !Object.hasOwn(right, key)) {
      delete left[key];
      delete right[key];
    }
  }
  return canonicalJson(normalizeStatement(left)) === canonicalJson(normalizeStatement(right));
}

/**
 * JSON with object keys sorted at every level, so two values that differ only
 * in key order serialize identically.
 */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A copy of `object` with `changes` applied; an `undefined` change removes the key. */
function withChanges(object: JsonObject, changes: Record<string, Json | undefined>): JsonObject {
  // Object.fromEntries defines properties, so a "__proto__" key stays a plain key.
  const entries = Object.entries(object).filter(([key]) => !Object.hasOwn(changes, key));
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) entries.push([key, value]);
  return Object.fromEntries(entries);
}

function lowerCase(value: Json | undefined): Json | undefined {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function normalizeStatement(statement: JsonObject): JsonObject {
  const { actor, verb, object, context, timestamp } = statement;
  return withChanges(statement, {
    id: lowerCase(statement.id),
    actor: isJsonObject(actor) ? normalizeActor(actor) : actor,
    verb: isJsonObject(verb) ? withChanges(verb, { display: undefined }) : verb,
    object: isJsonObject(object) ? normalizeObject(object) : object,
    context: isJsonObject(context) ? normalizeContext(context) : context,
    timestamp: typeof timestamp === 'string' ? (instantMilliseconds(timestamp) ?? timestamp) : timestamp,
  });
}

function normalizeObject(object: JsonObject): JsonObject {
  switch (object.objectType ?? 'Activity') {
    case 'Activity':
      return normalizeActivity(object);
    case 'Agent':
    case 'Group':
      return normalizeActor(object);
    case 'StatementRef':
      return withChanges(object, { id: lowerCase(object.id) });
    case 'SubStatement':
      return normalizeStatement(object);
    default:
      return object;
  }
}

function normalizeActivity(activity: JsonObject): JsonObject {
  return withChanges(activity, { objectType: activity.objectType ?? 'Activity', definition: undefined });
}

function normalizeActor(actor: JsonObject): JsonObject {
  const { member } = actor;
  const members = Array.isArray(member)
    ? member
        .map((agent) => (isJsonObject(agent) ? normalizeActor(agent) : agent))
        .sort((x, y) => compareStrings(canonicalJson(x), canonicalJson(y)))
    : member;
  return withChanges(actor, {
    objectType: actor.objectType ?? 'Agent',
    mbox: lowerCase(actor.mbox),
    mbox_sha1sum: lowerCase(actor.mbox_sha1sum),
    member: members,
  });
}

function normalizeContext(context: JsonObject): JsonObject {
  const { instructor, team, contextActivities, statement } = context;
  return withChanges(context, {
    registration: lowerCase(context.registration),
    instructor: isJsonObject(instructor) ? normalizeActor(instructor) : instructor,
    team: isJsonObject(team) ? normalizeActor(team) : team,
    contextActivities: isJsonObject(contextActivities)
      ? normalizeContextActivities(contextActivities)
      : contextActivities,
    statement: isJsonObject(statement) ? withChanges(statement, { id: lowerCase(statement.id) }) : statement,
  });
}

function normalizeContextActivities(contextActivities: JsonObject): JsonObject {
  const changes: Record<string, Json | undefined> = {};
  for (const kind of CONTEXT_ACTIVITY_KINDS) {
    const value = contextActivities[kind];
    if (value === undefined) continue;
    // xAPI 1.0.3 lets a provider send one Activity where an array is meant.
    const list = Array.isArray(value) ? value : [value];
    changes[kind] = list.map((activity) => (isJsonObject(activity) ? normalizeActivity(activity) : activity));
  }
  return withChanges(contextActivities, changes);
}

function compareStrings(x: string, y: string): number {
  if (x < y) return -1;
  return x > y ? 1 : 0;
}

const TIMESTAMP =
  /^(\d{4})-?(\d{2})-?(\d{2})[Tt ](\d{2}):?(\d{2}):?(\d{2})(?:[.,](\d+))?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The instant an ISO 8601 timestamp names, in milliseconds since the epoch,
 * or null when it is not one. Digits past the millisecond are dropped: the
 * LRS may truncate a timestamp to that precision. A timestamp without a zone
 * is read as UTC, the same way on both sides.
 */
export function instantMilliseconds(timestamp: string): number | null {
  const match = TIMESTAMP.exec(timestamp);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const parts = [month, day, hour, minute, second].map(Number);
  const [monthNumber = 0, dayNumber = 0, hours = 0, minutes = 0, seconds = 0] = parts;
  if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > 31) return null;
  if (hours > 24 || minutes > 59 || seconds > 60) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(Number(year), monthNumber - 1, dayNumber);
  date.setUTCHours(hours, minutes, seconds, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const local = date.getTime();
  if (Number.isNaN(local)) return null;
  return local - zoneOffsetMinutes(zone) * 60_000;
}

function zoneOffsetMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}
