import { isJsonObject, type Json, type JsonObject } from './statement-equality';

/**
 * The `format` parameter of GET /xapi/statements (xAPI 1.0.3 Communication
 * 2.1.3): `exact` returns Statements as received, `ids` keeps only what
 * identifies each Agent, Group, Activity and Verb, and `canonical` keeps one
 * language in every language map, chosen from the client's Accept-Language.
 * Pure functions on plain JSON: they never change the Statement they are given.
 */

export type StatementFormat = 'exact' | 'ids' | 'canonical';

/** The Inverse Functional Identifiers: whichever one an Agent or Identified Group has identifies it. */
const IDENTIFIERS = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const CONTEXT_ACTIVITY_KINDS = ['parent', 'grouping', 'category', 'other'] as const;
const INTERACTION_COMPONENT_LISTS = ['choices', 'scale', 'source', 'target', 'steps'] as const;

/**
 * `statement` in the requested format. `languages` is the client's
 * Accept-Language in order of preference (see `parseAcceptLanguage`); only
 * `canonical` reads it.
 */
export function formatStatement(
  statement: JsonObject,
  format: StatementFormat,
  languages: string[],
): JsonObject {
  if (format === 'ids') return idsStatement(statement);
  if (format === 'canonical') return canonicalStatement(statement, languages);
  return statement;
}

/** A copy of `object` with `changes` applied; an `undefined` change removes the key. */
function withChanges(object: JsonObject, changes: Record<string, Json | undefined>): JsonObject {
  // Object.fromEntries defines properties, so a "__proto__" key stays a plain key.
  const entries = Object.entries(object).filter(([key]) => !Object.hasOwn(changes, key));
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) entries.push([key, value]);
  return Object.fromEntries(entries);
}

/** Only the listed keys of `object`, those it has. */
function pick(object: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(
    keys.filter((key) => Object.hasOwn(object, key)).map((key) => [key, object[key] ?? null]),
  );
}

/** Applies `transform` to an object, or to each object of an array (contextActivities may be either). */
function mapObjects(
  value: Json | undefined,
  transform: (object: JsonObject) => JsonObject,
): Json | undefined {
  if (Array.isArray(value)) return value.map((item) => (isJsonObject(item) ? transform(item) : item));
  return isJsonObject(value) ? transform(value) : value;
}

// ---- ids ----------------------------------------------------------------------------

function idsStatement(statement: JsonObject): JsonObject {
  return withChanges(statement, {
    actor: mapObjects(statement.actor, idsActor),
    verb: mapObjects(statement.verb, (verb) => pick(verb, ['id'])),
    object: mapObjects(statement.object, idsObject),
    authority: mapObjects(statement.authority, idsActor),
    context: mapObjects(statement.context, idsContext),
  });
}

function idsObject(object: JsonObject): JsonObject {
  switch (object.objectType ?? 'Activity') {
    case 'Activity':
      return idsActivity(object);
    case 'Agent':
    case 'Group':
      return idsActor(object);
    case 'SubStatement':
      return idsStatement(object);
    default:
      return object;
  }
}

function idsActivity(activity: JsonObject): JsonObject {
  return pick(activity, ['objectType', 'id']);
}

/**
 * An Agent or Identified Group keeps its identifier; an Anonymous Group (no
 * identifier) is known only by its members, so it keeps them, in ids form.
 */
function idsActor(actor: JsonObject): JsonObject {
  const hasIdentifier = IDENTIFIERS.some((key) => Object.hasOwn(actor, key));
  if (hasIdentifier || actor.objectType !== 'Group') return pick(actor, ['objectType', ...IDENTIFIERS]);
  return withChanges(pick(actor, ['objectType']), { member: mapObjects(actor.member, idsActor) });
}

function idsContext(context: JsonObject): JsonObject {
  const { contextActivities } = context;
  return withChanges(context, {
    instructor: mapObjects(context.instructor, idsActor),
    team: mapObjects(context.team, idsActor),
    contextActivities: isJsonObject(contextActivities)
      ? mapContextActivities(contextActivities, idsActivity)
      : contextActivities,
  });
}

function mapContextActivities(
  contextActivities: JsonObject,
  transform: (activity: JsonObject) => JsonObject,
): JsonObject {
  const changes: Record<string, Json | undefined> = {};
  for (const kind of CONTEXT_ACTIVITY_KINDS) {
    if (Object.hasOwn(contextActivities, kind))
      changes[kind] = mapObjects(contextActivities[kind], transform);
  }
  return withChanges(contextActivities, changes);
}

// ---- canonical ----------------------------------------------------------------------

function canonicalStatement(statement: JsonObject, languages: string[]): JsonObject {
  const filterMap = (value: Json | undefined) => filterLanguageMap(value, languages);
  const canonicalActivity = (activity: JsonObject) => canonicalActivityOf(activity, languages);
  const { context } = statement;
  return withChanges(statement, {
    verb: mapObjects(statement.verb, (verb) => withChanges(verb, { display: filterMap(verb.display) })),
    object: mapObjects(statement.object, (object) => {
      const type = object.objectType ?? 'Activity';
      if (type === 'Activity') return canonicalActivity(object);
      if (type === 'SubStatement') return canonicalStatement(object, languages);
      return object;
    }),
    context: isJsonObject(context)
      ? withChanges(context, {
          contextActivities: isJsonObject(context.contextActivities)
            ? mapContextActivities(context.contextActivities, canonicalActivity)
            : context.contextActivities,
        })
      : context,
    attachments: mapObjects(statement.attachments, (attachment) =>
      withChanges(attachment, {
        display: filterMap(attachment.display),
        description: filterMap(attachment.description),
      }),
    ),
  });
}

function canonicalActivityOf(activity: JsonObject, languages: string[]): JsonObject {
  const { definition } = activity;
  if (!isJsonObject(definition)) return activity;
  const changes: Record<string, Json | undefined> = {
    name: filterLanguageMap(definition.name, languages),
    description: filterLanguageMap(definition.description, languages),
  };
  for (const list of INTERACTION_COMPONENT_LISTS) {
    if (!Object.hasOwn(definition, list)) continue;
    changes[list] = mapObjects(definition[list], (component) =>
      withChanges(component, { description: filterLanguageMap(component.description, languages) }),
    );
  }
  return withChanges(activity, { definition: withChanges(definition, changes) });
}

function filterLanguageMap(value: Json | undefined, languages: string[]): Json | undefined {
  if (!isJsonObject(value)) return value;
  const key = chooseLanguage(Object.keys(value), languages);
  return key === undefined ? value : { [key]: value[key] ?? null };
}

/**
 * Which entry of a language map to return: the first of the client's
 * languages the map has, the same tag first, then the same primary subtag
 * (for fr-CA, the map's "fr", else any "fr-…"); failing those, en-US, en,
 * then the map's first entry. Tags are compared without regard to case, as
 * RFC 5646 says they are.
 */
export function chooseLanguage(tags: string[], languages: string[]): string | undefined {
  const find = (wanted: string) => tags.find((tag) => tag.toLowerCase() === wanted.toLowerCase());
  for (const language of languages) {
    const primary = primarySubtag(language);
    const match =
      find(language) ?? find(primary) ?? tags.find((tag) => primarySubtag(tag).toLowerCase() === primary);
    if (match !== undefined) return match;
  }
  return find('en-US') ?? find('en') ?? tags[0];
}

function primarySubtag(tag: string): string {
  return (tag.split('-')[0] ?? tag).toLowerCase();
}

/**
 * The language tags of an Accept-Language header, most wanted first (by q
 * value, then by position). `*` and anything with q=0 are dropped: the first
 * says nothing about a language map and the second means "not this one".
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (header === undefined) return [];
  const ranked: { tag: string; quality: number; position: number }[] = [];
  const seen = new Set<string>();
  header.split(',').forEach((item, position) => {
    const [rawTag = '', ...parameters] = item.split(';');
    const tag = rawTag.trim();
    if (tag === '' || tag === '*' || seen.has(tag.toLowerCase())) return;
    let quality = 1;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
      if (name.toLowerCase() === 'q') quality = /^\d+(\.\d*)?$/.test(value) ? Number(value) : Number.NaN;
    }
    if (!(quality > 0 && quality <= 1)) return;
    seen.add(tag.toLowerCase());
    ranked.push({ tag, quality, position });
  });
  return ranked.sort((x, y) => y.quality - x.quality || x.position - y.position).map((entry) => entry.tag);
}
