import { z } from 'zod';
import { isUuid } from './ids';

/**
 * The statement contract of the xAPI 1.0.3 Learning Record Store (`/xapi/`):
 * the rules of the spec's Part Two ("Statement Requirements") as zod schemas,
 * with one error message a person can act on, naming the property and the
 * rule (`actor.mbox must be a mailto: IRI (mailto:name@example.com)`).
 */

/** The version this LRS speaks, sent back in `X-Experience-API-Version`. */
export const XAPI_VERSION = '1.0.3';

/** Most statements per `POST /xapi/statements`. */
export const MAX_XAPI_STATEMENTS_PER_BATCH = 1000;

const VERSION_PATTERN = /^1\.0(\.\d+)?$/;

/**
 * Whether a client's `X-Experience-API-Version` (or a statement's `version`)
 * is one this LRS accepts: 1.0 and every 1.0.x, which the spec keeps
 * compatible with each other.
 */
export function isSupportedXapiVersion(header: string): boolean {
  return VERSION_PATTERN.test(header);
}

const ADL_VERBS = 'http://adlnet.gov/expapi/verbs/';
/** The ADL verbs that course authoring tools (Storyline, Rise, Captivate) send. */
export const XAPI_VERBS = {
  voided: `${ADL_VERBS}voided`,
  answered: `${ADL_VERBS}answered`,
  attempted: `${ADL_VERBS}attempted`,
  launched: `${ADL_VERBS}launched`,
  initialized: `${ADL_VERBS}initialized`,
  completed: `${ADL_VERBS}completed`,
  passed: `${ADL_VERBS}passed`,
  failed: `${ADL_VERBS}failed`,
  experienced: `${ADL_VERBS}experienced`,
  progressed: `${ADL_VERBS}progressed`,
  suspended: `${ADL_VERBS}suspended`,
  terminated: `${ADL_VERBS}terminated`,
  exited: `${ADL_VERBS}exited`,
  resumed: `${ADL_VERBS}resumed`,
} as const;

const ADL_ACTIVITIES = 'http://adlnet.gov/expapi/activities/';
/** ADL activity types. ADL defines no slide type: tools use their own IRIs for slides. */
export const XAPI_ACTIVITY_TYPES = {
  course: `${ADL_ACTIVITIES}course`,
  module: `${ADL_ACTIVITIES}module`,
  lesson: `${ADL_ACTIVITIES}lesson`,
  assessment: `${ADL_ACTIVITIES}assessment`,
  interaction: `${ADL_ACTIVITIES}interaction`,
  cmiInteraction: `${ADL_ACTIVITIES}cmi.interaction`,
  question: `${ADL_ACTIVITIES}question`,
  media: `${ADL_ACTIVITIES}media`,
  objective: `${ADL_ACTIVITIES}objective`,
} as const;

/** The usageType of the attachment that carries a signed statement's JWS. */
export const XAPI_SIGNATURE_USAGE_TYPE = 'http://adlnet.gov/expapi/attachments/signature';

export const XAPI_INTERACTION_TYPES = [
  'true-false',
  'choice',
  'fill-in',
  'long-fill-in',
  'matching',
  'performance',
  'sequencing',
  'likert',
  'numeric',
  'other',
] as const;
export type XapiInteractionType = (typeof XAPI_INTERACTION_TYPES)[number];

/** Messages the callers may show or compare as they are. */
export const XAPI_MESSAGES = {
  emptyBatch: 'A list of statements must not be empty',
  batchTooLarge: `A list of statements must hold at most ${MAX_XAPI_STATEMENTS_PER_BATCH} statements`,
  agentParam: 'agent must be a JSON Agent or identified Group',
  voidingObject: "a voiding statement's object must be a StatementRef",
} as const;

// ---------------------------------------------------------------------------
// Formats

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const MAX_IRI_LENGTH = 2048;

/**
 * An absolute IRI: a scheme and a colon, no whitespace. RFC 3987 allows far
 * more shapes than a regular expression can check sensibly; the spec only
 * needs identifiers to be absolute so that two producers never collide.
 */
export function isXapiIri(value: string): boolean {
  return value.length <= MAX_IRI_LENGTH && SCHEME.test(value) && !/\s/.test(value);
}

/** A UUID in the RFC 4122 string form, any variant or version, any case. */
export function isXapiUuid(value: string): boolean {
  return isUuid(value);
}

const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** An RFC 5646 language tag by its syntax (`en`, `en-US`, `zh-Hant-TW`). */
export function isXapiLanguageTag(value: string): boolean {
  return LANGUAGE_TAG.test(value);
}

// ISO 8601 allows the extended (`2026-01-31T09:30:00Z`) and the basic
// (`20260131T093000Z`) form, but never a mix of the two; the spec's conformance
// requirements ask an LRS to accept both.
const TIMESTAMP_EXTENDED =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const TIMESTAMP_BASIC =
  /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The instant of an xAPI timestamp in milliseconds since the epoch, or null
 * when the text is not one. A timestamp without a zone is read as UTC, as the
 * spec asks. Offsets such as `+01` or `+0100` are outside what `Date.parse`
 * reads, which is why the server converts through this function.
 */
export function xapiTimestampToMillis(value: string): number | null {
  const match = TIMESTAMP_EXTENDED.exec(value) ?? TIMESTAMP_BASIC.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone, sign, offsetHours, offsetMinutes] = match;
  const numbers = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? '0'),
    offsetHours: Number(offsetHours ?? '0'),
    offsetMinutes: Number(offsetMinutes ?? '0'),
  };
  if (numbers.month < 1 || numbers.month > 12) return null;
  if (numbers.day < 1 || numbers.day > daysInMonth(numbers.year, numbers.month)) return null;
  if (numbers.hour > 23 || numbers.minute > 59 || numbers.second > 59) return null;
  if (numbers.offsetHours > 23 || numbers.offsetMinutes > 59) return null;
  // RFC 3339 gives -00:00 the meaning "zone unknown"; the xAPI spec forbids it.
  if (zone !== undefined && sign === '-' && numbers.offsetHours === 0 && numbers.offsetMinutes === 0)
    return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, leaves the years 0 to 99 alone.
  date.setUTCFullYear(numbers.year, numbers.month - 1, numbers.day);
  date.setUTCHours(
    numbers.hour,
    numbers.minute,
    numbers.second,
    Math.floor(Number(`0.${fraction ?? '0'}`) * 1000),
  );
  const offset = (sign === '-' ? -1 : 1) * (numbers.offsetHours * 60 + numbers.offsetMinutes);
  return date.getTime() - offset * 60_000;
}

/** An ISO 8601 date-time as the spec allows it (zone `Z`, `+hh:mm`, `+hhmm`, `+hh` or none; never a negative zero). */
export function isXapiTimestamp(value: string): boolean {
  return xapiTimestampToMillis(value) !== null;
}

const DURATION_NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const DURATION = new RegExp(
  `^P(?:${DURATION_NUMBER}W|(?:${DURATION_NUMBER}Y)?(?:${DURATION_NUMBER}M)?(?:${DURATION_NUMBER}D)?` +
    `(T(?:${DURATION_NUMBER}H)?(?:${DURATION_NUMBER}M)?(?:${DURATION_NUMBER}S)?)?)$`,
);

/**
 * An ISO 8601 duration in the format the spec requires (`PnYnMnDTnHnMnS` or
 * `PnW`): at least one component, a `T` only before a time component, and a
 * decimal fraction only in the last component.
 */
export function isXapiDuration(value: string): boolean {
  const match = DURATION.exec(value);
  if (!match) return false;
  if (match[1] !== undefined) return true;
  const [, , years, months, days, time, hours, minutes, seconds] = match;
  const timeParts = [hours, minutes, seconds].filter((part) => part !== undefined);
  if (time !== undefined && timeParts.length === 0) return false;
  const parts = [years, months, days, ...timeParts].filter((part) => part !== undefined);
  if (parts.length === 0) return false;
  return parts.slice(0, -1).every((part) => !/[.,]/.test(part));
}

const MBOX = /^mailto:[^\s@]+@[^\s@]+$/i;
const SHA1 = /^[0-9a-f]{40}$/i;
const HEX = /^[0-9a-f]+$/i;
const COMPONENT_ID = /^\S+$/;
// RFC 6838's restricted names, then any parameters (`; charset=utf-8`).
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

// ---------------------------------------------------------------------------
// Messages. Schemas hold the rule without the property ("must be an IRI");
// the formatter puts the path in front, so one schema serves every place the
// spec reuses it (actor, object, context.instructor, authority...).

const REQUIRED = 'is required';
const RULES = {
  string: 'must be a string',
  iri: 'must be an IRI',
  uuid: 'must be a UUID (such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301)',
  timestamp: 'must be an ISO 8601 date-time (such as 2026-01-31T09:30:00Z)',
  duration: 'must be an ISO 8601 duration (such as PT1M30S)',
  languageMap: 'must be a language map (such as {"en-US": "text"})',
  languageTag: 'must be an RFC 5646 language tag (such as en-US)',
  extensions: 'must be an object whose keys are IRIs',
  object: 'must be a JSON object',
  boolean: 'must be true or false',
  number: 'must be a number',
  mbox: 'must be a mailto: IRI (mailto:name@example.com)',
  sha1: 'must be 40 hexadecimal characters (the SHA-1 of a mailto: IRI)',
  componentId: 'must be a non-empty string without whitespace',
  interactionType: `must be one of ${XAPI_INTERACTION_TYPES.join(', ')}`,
  version: 'must be 1.0 or 1.0.x (such as 1.0.3)',
  contentType: 'must be an internet media type (such as application/pdf)',
  length: 'must be a whole number of bytes, 0 or more',
  sha2: 'must be the SHA-2 hash of the attachment in hexadecimal',
  scaled: 'must be a number from -1 to 1',
} as const;

const IFI_PROPERTIES = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const IFI_LIST = IFI_PROPERTIES.join(', ');

function requiredOr(message: string) {
  return (issue: { readonly input: unknown }) => (issue.input === undefined ? REQUIRED : message);
}

function unknownProperties(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`).join(', ');
  return keys.length === 1 ? `has an unknown property ${quoted}` : `has unknown properties ${quoted}`;
}

/** For issues a schema below does not word itself; none is expected, but a message must never be zod's English. */
const fallbackError: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'unrecognized_keys') return unknownProperties(issue.keys);
  return issue.input === undefined ? REQUIRED : 'is not valid';
};

// ---------------------------------------------------------------------------
// Schemas

/** The spec rejects every property it does not define, so every object is strict. */
function strictObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? unknownProperties(issue.keys)
        : issue.input === undefined
          ? REQUIRED
          : RULES.object,
  });
}

const string = (message: string = RULES.string) => z.string({ error: requiredOr(message) });
const iri = () => string(RULES.iri).refine(isXapiIri, RULES.iri);
const uuid = () => string(RULES.uuid).refine(isXapiUuid, RULES.uuid);
const timestamp = () => string(RULES.timestamp).refine(isXapiTimestamp, RULES.timestamp);
const number = (message: string = RULES.number) => z.number({ error: requiredOr(message) });

/**
 * An object whose keys follow a rule. The keys are checked on the input, not
 * the parsed output, because zod's record drops a "__proto__" key silently
 * and the spec wants a bad key rejected, not lost.
 */
function keyedMap<T extends z.ZodType>(
  values: T,
  isKey: (key: string) => boolean,
  rule: string,
  keyRule: string,
) {
  return z
    .unknown()
    .superRefine((input, context) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
      const bad = Object.keys(input).find((key) => !isKey(key));
      if (bad !== undefined)
        context.addIssue({ code: 'custom', message: `has a key "${bad}" that is not ${keyRule}` });
    })
    .pipe(z.record(z.string(), values, { error: requiredOr(rule) }));
}

/** Values are kept as sent; the keys must be language tags. */
export const xapiLanguageMapSchema = keyedMap(
  string(),
  isXapiLanguageTag,
  RULES.languageMap,
  'an RFC 5646 language tag (such as en-US)',
);
export type XapiLanguageMap = z.output<typeof xapiLanguageMapSchema>;

/** Extensions hold any JSON; only the keys, which must be IRIs, are checked. */
const extensionsSchema = keyedMap(z.unknown(), isXapiIri, RULES.extensions, 'an IRI');

export const xapiAccountSchema = strictObject({
  homePage: iri(),
  name: string(),
});
export type XapiAccount = z.output<typeof xapiAccountSchema>;

const identityShape = {
  name: string().optional(),
  mbox: string(RULES.mbox)
    .refine((value) => MBOX.test(value) && isXapiIri(value), RULES.mbox)
    .optional(),
  mbox_sha1sum: string(RULES.sha1).regex(SHA1, RULES.sha1).optional(),
  openid: iri().optional(),
  account: xapiAccountSchema.optional(),
};

function countIdentifiers(actor: Partial<Record<(typeof IFI_PROPERTIES)[number], unknown>>): number {
  return IFI_PROPERTIES.filter((property) => actor[property] !== undefined).length;
}

function agentSchemaWith<T extends z.ZodType>(objectType: T) {
  return strictObject({ objectType, ...identityShape }).superRefine((agent, context) => {
    if (countIdentifiers(agent) !== 1) {
      context.addIssue({ code: 'custom', message: `must have exactly one of ${IFI_LIST}` });
    }
  });
}

/** An Agent where it is the only kind allowed or the default (actor, authority, instructor). */
export const xapiAgentSchema = agentSchemaWith(z.literal('Agent', { error: 'must be "Agent"' }).optional());
export type XapiAgent = z.output<typeof xapiAgentSchema>;

// As a statement's object, a missing objectType means Activity, so an Agent must say so.
const objectAgentSchema = agentSchemaWith(z.literal('Agent'));

const memberSchema = agentSchemaWith(
  z
    .literal('Agent', { error: 'must be "Agent" (the members of a Group are Agents, never Groups)' })
    .optional(),
);

function groupSchemaWith<T extends z.ZodType>(objectType: T) {
  return strictObject({
    objectType,
    ...identityShape,
    member: z.array(memberSchema, { error: requiredOr('must be a list of Agents') }).optional(),
  }).superRefine((group, context) => {
    const identifiers = countIdentifiers(group);
    if (identifiers > 1) {
      context.addIssue({ code: 'custom', message: `must have at most one of ${IFI_LIST}` });
    } else if (identifiers === 0 && (group.member?.length ?? 0) === 0) {
      context.addIssue({
        code: 'custom',
        message: `must have one of ${IFI_LIST}, or a non-empty member list (an anonymous Group)`,
      });
    }
  });
}

export const xapiGroupSchema = groupSchemaWith(z.literal('Group', { error: 'must be "Group"' }));
export type XapiGroup = z.output<typeof xapiGroupSchema>;

const teamSchema = groupSchemaWith(
  z.literal('Group', { error: 'must be "Group" (a team is always a Group)' }),
);

export const xapiActorSchema = z.discriminatedUnion('objectType', [xapiAgentSchema, xapiGroupSchema], {
  error: (issue) =>
    issue.code === 'invalid_union' ? 'must be "Agent" or "Group"' : requiredOr(RULES.object)(issue),
});
export type XapiActor = z.output<typeof xapiActorSchema>;

export const xapiVerbSchema = strictObject({
  id: iri(),
  display: xapiLanguageMapSchema.optional(),
});
export type XapiVerb = z.output<typeof xapiVerbSchema>;

export const xapiInteractionComponentSchema = strictObject({
  id: string(RULES.componentId).regex(COMPONENT_ID, RULES.componentId),
  description: xapiLanguageMapSchema.optional(),
});
export type XapiInteractionComponent = z.output<typeof xapiInteractionComponentSchema>;

const componentListSchema = z
  .array(xapiInteractionComponentSchema, { error: requiredOr('must be a list of interaction components') })
  .superRefine((components, context) => {
    const seen = new Set<string>();
    components.forEach((component, index) => {
      if (seen.has(component.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `repeats "${component.id}" (ids must be unique within the list)`,
        });
      }
      seen.add(component.id);
    });
  });

const COMPONENT_LISTS = ['choices', 'scale', 'source', 'target', 'steps'] as const;
type ComponentList = (typeof COMPONENT_LISTS)[number];
/** Which interaction types each list of components belongs to. */
const COMPONENT_LIST_TYPES: Record<ComponentList, readonly XapiInteractionType[]> = {
  choices: ['choice', 'sequencing'],
  scale: ['likert'],
  source: ['matching'],
  target: ['matching'],
  steps: ['performance'],
};

export const xapiActivityDefinitionSchema = strictObject({
  name: xapiLanguageMapSchema.optional(),
  description: xapiLanguageMapSchema.optional(),
  type: iri().optional(),
  moreInfo: iri().optional(),
  extensions: extensionsSchema.optional(),
  interactionType: z.enum(XAPI_INTERACTION_TYPES, { error: requiredOr(RULES.interactionType) }).optional(),
  correctResponsesPattern: z.array(string(), { error: requiredOr('must be a list of strings') }).optional(),
  choices: componentListSchema.optional(),
  scale: componentListSchema.optional(),
  source: componentListSchema.optional(),
  target: componentListSchema.optional(),
  steps: componentListSchema.optional(),
}).superRefine((definition, context) => {
  const { interactionType } = definition;
  for (const property of ['correctResponsesPattern', ...COMPONENT_LISTS] as const) {
    if (definition[property] === undefined) continue;
    if (interactionType === undefined) {
      context.addIssue({
        code: 'custom',
        path: [property],
        message: 'is only allowed with an interactionType',
      });
      return;
    }
    if (property === 'correctResponsesPattern') continue;
    const types = COMPONENT_LIST_TYPES[property];
    if (!types.includes(interactionType)) {
      context.addIssue({
        code: 'custom',
        path: [property],
        message: `is only allowed when interactionType is ${types.join(' or ')}`,
      });
      return;
    }
  }
});
export type XapiActivityDefinition = z.output<typeof xapiActivityDefinitionSchema>;

export const xapiActivitySchema = strictObject({
  objectType: z.literal('Activity', { error: 'must be "Activity"' }).optional(),
  id: iri(),
  definition: xapiActivityDefinitionSchema.optional(),
});
export type XapiActivity = z.output<typeof xapiActivitySchema>;

// The object of a statement says what it is only when it is not an Activity;
// the parsed output always says, so callers can switch on objectType.
const objectActivitySchema = xapiActivitySchema.transform((activity) => ({
  ...activity,
  objectType: 'Activity' as const,
}));

export const xapiStatementRefSchema = strictObject({
  objectType: z.literal('StatementRef', { error: 'must be "StatementRef"' }),
  id: uuid(),
});
export type XapiStatementRef = z.output<typeof xapiStatementRefSchema>;

export const xapiScoreSchema = strictObject({
  scaled: number(RULES.scaled).min(-1, RULES.scaled).max(1, RULES.scaled).optional(),
  raw: number().optional(),
  min: number().optional(),
  max: number().optional(),
}).superRefine(({ raw, min, max }, context) => {
  if (min !== undefined && max !== undefined && min >= max) {
    context.addIssue({ code: 'custom', path: ['min'], message: 'must be less than max' });
  } else if (raw !== undefined && min !== undefined && raw < min) {
    context.addIssue({ code: 'custom', path: ['raw'], message: 'must not be less than min' });
  } else if (raw !== undefined && max !== undefined && raw > max) {
    context.addIssue({ code: 'custom', path: ['raw'], message: 'must not be more than max' });
  }
});
export type XapiScore = z.output<typeof xapiScoreSchema>;

export const xapiResultSchema = strictObject({
  score: xapiScoreSchema.optional(),
  success: z.boolean({ error: requiredOr(RULES.boolean) }).optional(),
  completion: z.boolean({ error: requiredOr(RULES.boolean) }).optional(),
  response: string().optional(),
  duration: string(RULES.duration).refine(isXapiDuration, RULES.duration).optional(),
  extensions: extensionsSchema.optional(),
});
export type XapiResult = z.output<typeof xapiResultSchema>;

/**
 * The spec lets a producer send one Activity or a list; the LRS must answer
 * with lists, so the parsed output is always a list. Dispatching on the shape
 * (rather than a zod union) keeps the inner error precise.
 */
const contextActivityListSchema = z.unknown().transform((value, context): XapiActivity[] => {
  const parsed = Array.isArray(value)
    ? z.array(xapiActivitySchema).safeParse(value, { error: fallbackError })
    : xapiActivitySchema.transform((activity) => [activity]).safeParse(value, { error: fallbackError });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
  return z.NEVER;
});

export const xapiContextActivitiesSchema = strictObject({
  parent: contextActivityListSchema.optional(),
  grouping: contextActivityListSchema.optional(),
  category: contextActivityListSchema.optional(),
  other: contextActivityListSchema.optional(),
}).superRefine((activities, context) => {
  if (Object.values(activities).every((list) => list === undefined)) {
    context.addIssue({
      code: 'custom',
      message: 'must have at least one of parent, grouping, category, other',
    });
  }
});
export type XapiContextActivities = z.output<typeof xapiContextActivitiesSchema>;

export const xapiContextSchema = strictObject({
  registration: uuid().optional(),
  instructor: xapiActorSchema.optional(),
  team: teamSchema.optional(),
  contextActivities: xapiContextActivitiesSchema.optional(),
  revision: string().optional(),
  platform: string().optional(),
  language: string(RULES.languageTag).regex(LANGUAGE_TAG, RULES.languageTag).optional(),
  statement: xapiStatementRefSchema.optional(),
  extensions: extensionsSchema.optional(),
});
export type XapiContext = z.output<typeof xapiContextSchema>;

export const xapiAttachmentSchema = strictObject({
  usageType: iri(),
  display: xapiLanguageMapSchema,
  description: xapiLanguageMapSchema.optional(),
  contentType: string(RULES.contentType).regex(MEDIA_TYPE, RULES.contentType),
  length: number(RULES.length).int(RULES.length).min(0, RULES.length),
  sha2: string(RULES.sha2).regex(HEX, RULES.sha2),
  fileUrl: iri().optional(),
}).superRefine((attachment, context) => {
  // The spec fixes the signature's type so that an LRS can find the JWS part.
  if (
    attachment.usageType === XAPI_SIGNATURE_USAGE_TYPE &&
    attachment.contentType !== 'application/octet-stream'
  ) {
    context.addIssue({
      code: 'custom',
      path: ['contentType'],
      message: 'must be application/octet-stream for a signature attachment',
    });
  }
});
export type XapiAttachment = z.output<typeof xapiAttachmentSchema>;

type Problem = { path: PropertyKey[]; message: string };

/** Context properties that describe an Activity, meaningless for any other object. */
function contextProblem(statement: {
  object: { objectType: string };
  context?: XapiContext | undefined;
}): Problem | null {
  if (statement.object.objectType === 'Activity') return null;
  for (const property of ['revision', 'platform'] as const) {
    if (statement.context?.[property] !== undefined) {
      return {
        path: ['context', property],
        message: "is only allowed when the statement's object is an Activity",
      };
    }
  }
  return null;
}

const NOT_IN_SUBSTATEMENT = z.never({ error: 'is not allowed in a SubStatement' }).optional();

const subStatementObjectSchema = z.discriminatedUnion(
  'objectType',
  [objectActivitySchema, objectAgentSchema, xapiGroupSchema, xapiStatementRefSchema],
  {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return requiredOr(RULES.object)(issue);
      const input: unknown = issue.input;
      const isNested =
        typeof input === 'object' &&
        input !== null &&
        'objectType' in input &&
        input.objectType === 'SubStatement';
      return isNested
        ? 'must not be "SubStatement" (a SubStatement cannot hold another)'
        : 'must be one of Activity, Agent, Group, StatementRef';
    },
  },
);

export const xapiSubStatementSchema = strictObject({
  objectType: z.literal('SubStatement'),
  id: NOT_IN_SUBSTATEMENT,
  actor: xapiActorSchema,
  verb: xapiVerbSchema,
  object: subStatementObjectSchema,
  result: xapiResultSchema.optional(),
  context: xapiContextSchema.optional(),
  timestamp: timestamp().optional(),
  stored: NOT_IN_SUBSTATEMENT,
  authority: NOT_IN_SUBSTATEMENT,
  version: NOT_IN_SUBSTATEMENT,
  attachments: z
    .array(xapiAttachmentSchema, { error: requiredOr('must be a list of attachments') })
    .optional(),
}).superRefine((subStatement, context) => {
  const problem = contextProblem(subStatement);
  if (problem) context.addIssue({ code: 'custom', ...problem });
});
export type XapiSubStatement = z.output<typeof xapiSubStatementSchema>;

export const xapiStatementObjectSchema = z.discriminatedUnion(
  'objectType',
  [objectActivitySchema, objectAgentSchema, xapiGroupSchema, xapiStatementRefSchema, xapiSubStatementSchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'must be one of Activity, Agent, Group, StatementRef, SubStatement'
        : requiredOr(RULES.object)(issue),
  },
);
export type XapiStatementObject = z.output<typeof xapiStatementObjectSchema>;

export const xapiStatementSchema = strictObject({
  id: uuid().optional(),
  actor: xapiActorSchema,
  verb: xapiVerbSchema,
  object: xapiStatementObjectSchema,
  result: xapiResultSchema.optional(),
  context: xapiContextSchema.optional(),
  timestamp: timestamp().optional(),
  /** Accepted so that statements copied from another LRS pass; this LRS sets its own. */
  stored: timestamp().optional(),
  authority: xapiActorSchema.optional(),
  version: string(RULES.version).regex(VERSION_PATTERN, RULES.version).optional(),
  attachments: z
    .array(xapiAttachmentSchema, { error: requiredOr('must be a list of attachments') })
    .optional(),
}).superRefine((statement, context) => {
  const problem = contextProblem(statement);
  if (problem) context.addIssue({ code: 'custom', ...problem });
  if (statement.verb.id === XAPI_VERBS.voided && statement.object.objectType !== 'StatementRef') {
    context.addIssue({ code: 'custom', message: XAPI_MESSAGES.voidingObject, params: { absolute: true } });
  }
  // A Group as authority stands for OAuth's pair of consumer and user, nothing else.
  const { authority } = statement;
  if (authority?.objectType === 'Group' && authority.member?.length !== 2) {
    context.addIssue({
      code: 'custom',
      path: ['authority', 'member'],
      message: 'must hold exactly two Agents when the authority is a Group (an OAuth consumer and a user)',
    });
  }
});
export type XapiStatement = z.output<typeof xapiStatementSchema>;

// The agent query parameter must name one person or group: an anonymous Group
// has nothing to look up by.
const identifiedActorSchema = xapiActorSchema.superRefine((actor, context) => {
  if (countIdentifiers(actor) === 0) {
    context.addIssue({
      code: 'custom',
      message: `must be an Agent or an identified Group (with one of ${IFI_LIST})`,
    });
  }
});

// ---------------------------------------------------------------------------
// Parsing

export type XapiParseFailure = { ok: false; error: string };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let joined = prefix;
  for (const segment of path) {
    if (typeof segment === 'number') joined += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment))
      joined += joined ? `.${segment}` : segment;
    else joined += `[${JSON.stringify(String(segment))}]`;
  }
  return joined;
}

/**
 * One issue as a sentence: the property's path, then the rule. `prefix` names
 * where the value sits (`statements[2]`), `root` what to call it when the
 * issue is about the value as a whole.
 */
function describeIssue(issue: z.core.$ZodIssue, prefix: string, root: string): string {
  if (issue.code === 'custom' && issue.params?.['absolute'] === true) {
    return prefix ? `${prefix}: ${issue.message}` : issue.message;
  }
  return `${joinPath(prefix, issue.path) || root} ${issue.message}`;
}

function parseWith<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  prefix: string,
  root: string,
): { ok: true; value: T } | XapiParseFailure {
  const parsed = schema.safeParse(raw, { error: fallbackError });
  if (parsed.success) return { ok: true, value: parsed.data };
  const [first] = parsed.error.issues;
  return { ok: false, error: first ? describeIssue(first, prefix, root) : `${root} is not valid` };
}

/**
 * Checks one statement against the spec. The parsed statement keeps every
 * value as sent (timestamps included) except that the object always carries
 * its objectType and contextActivities are always lists.
 */
export function parseXapiStatement(raw: unknown): { ok: true; statement: XapiStatement } | XapiParseFailure {
  const parsed = parseWith(xapiStatementSchema, raw, '', 'statement');
  return parsed.ok ? { ok: true, statement: parsed.value } : parsed;
}

/**
 * The body of `POST`/`PUT /xapi/statements`: one statement or a list of 1 to
 * 1000. The spec makes a batch all-or-nothing, so the first problem rejects
 * it, named by its position (`statements[2].actor.mbox must be ...`).
 */
export function parseXapiStatements(
  raw: unknown,
): { ok: true; statements: XapiStatement[] } | XapiParseFailure {
  if (!Array.isArray(raw)) {
    const parsed = parseXapiStatement(raw);
    return parsed.ok ? { ok: true, statements: [parsed.statement] } : parsed;
  }
  if (raw.length === 0) return { ok: false, error: XAPI_MESSAGES.emptyBatch };
  if (raw.length > MAX_XAPI_STATEMENTS_PER_BATCH) return { ok: false, error: XAPI_MESSAGES.batchTooLarge };
  const statements: XapiStatement[] = [];
  for (const [index, item] of raw.entries()) {
    const position = `statements[${index}]`;
    const parsed = parseWith(xapiStatementSchema, item, position, position);
    if (!parsed.ok) return parsed;
    statements.push(parsed.value);
  }
  return { ok: true, statements };
}

/** The `agent` query parameter once JSON-parsed: an Agent or an identified Group. */
export function parseXapiAgent(raw: unknown): { ok: true; agent: XapiActor } | XapiParseFailure {
  const parsed = parseWith(identifiedActorSchema, raw, 'agent', 'agent');
  return parsed.ok ? { ok: true, agent: parsed.value } : parsed;
}

/** The `agent` query parameter as sent (JSON text). */
export function parseXapiAgentParam(text: string): { ok: true; agent: XapiActor } | XapiParseFailure {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: XAPI_MESSAGES.agentParam };
  }
  return parseXapiAgent(raw);
}

// ---------------------------------------------------------------------------
// Identity

/**
 * The lookup key of an Agent's or Group's inverse functional identifier, or
 * null for an anonymous Group. mbox and mbox_sha1sum are lower-cased because
 * e-mail addresses and hex digests compare without case in practice; openid
 * and account are kept as sent, as the spec compares them exactly.
 */
export function xapiAgentKey(actor: XapiAgent | XapiGroup): string | null {
  if (actor.mbox !== undefined) return `mbox:${actor.mbox.toLowerCase()}`;
  if (actor.mbox_sha1sum !== undefined) return `mbox_sha1sum:${actor.mbox_sha1sum.toLowerCase()}`;
  if (actor.openid !== undefined) return `openid:${actor.openid}`;
  if (actor.account !== undefined) return `account:${actor.account.homePage}|${actor.account.name}`;
  return null;
}

/**
 * The keys of an actor and, for a Group, of its members: what a query with
 * `related_agents=true` matches against. Without duplicates, in order.
 */
export function xapiGroupMemberKeys(actor: XapiActor): string[] {
  const members = actor.objectType === 'Group' ? (actor.member ?? []) : [];
  const keys = [actor, ...members].map(xapiAgentKey).filter((key): key is string => key !== null);
  return [...new Set(keys)];
}
