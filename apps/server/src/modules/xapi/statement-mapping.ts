/**
 * From one xAPI 1.0.3 statement (already validated for its shape) to the
 * CourseLens facts it means: the events of our ingestion write path
 * (`course.started`, `slide.viewed`, `question.answered`, …). Pure: what the
 * organization already knows is passed in, nothing is read or written.
 *
 * The rules, applied in this order (docs/xapi.md repeats them for integrators):
 *
 * 0. A voiding statement (verb `http://adlnet.gov/expapi/verbs/voided`) maps
 *    to nothing. Nor does a statement whose object is not an Activity
 *    (a StatementRef, a SubStatement, an Agent or a Group).
 *
 * 1. Course. The first of these that applies:
 *    a. the object, when its definition.type is
 *       `http://adlnet.gov/expapi/activities/course`;
 *    b. the first `grouping` context activity of that type, else the first
 *       `parent` one;
 *    c. the first `grouping`, else the first `parent`, context activity whose
 *       id is a course the organization already has;
 *    d. the course seen earlier with the statement's `context.registration`;
 *    e. for a course-level verb (launched, initialized, attempted, completed,
 *       passed, failed, progressed, suspended, terminated, exited, resumed,
 *       and the satisfied and abandoned aliases below) the object itself;
 *    f. the first `grouping` activity, else the first `parent` activity.
 *    None: not mapped. A course id longer than 255 characters: not mapped.
 *    The course title is the course activity's definition.name (en-US, then
 *    en, then the first language) where the statement carries it, else null.
 *
 * 2. Learner. The actor must be an Agent (objectType absent or "Agent").
 *    - `mbox`: the address without `mailto:`, lower-cased; it must be an
 *      e-mail address (at most 320 characters).
 *    - `account`: `account.name` when it is itself an e-mail address
 *      (lower-cased); else `<local>@<host>`, where local is the name
 *      lower-cased with every character outside `[a-z0-9._+-]` replaced by
 *      `-`, runs of `-` or `.` collapsed, `-` and `.` trimmed from both ends,
 *      at most 64 characters (nothing left: not mapped), and host is the host
 *      name of `account.homePage` (not a URL with a host: not mapped).
 *    - `mbox_sha1sum`, `openid` and Groups: not mapped (no e-mail to know the
 *      learner by).
 *    The learner's name is actor.name trimmed, or null.
 *
 * 3. Facts by verb (`http://adlnet.gov/expapi/verbs/<name>`, compared
 *    exactly; `https://w3id.org/xapi/adl/verbs/satisfied` counts as
 *    completed and `https://w3id.org/xapi/adl/verbs/abandoned` as exited).
 *    "On the course" means the object's id is the course's id.
 *    - launched, initialized, attempted on the course: course.started.
 *    - completed on the course: course.completed.
 *    - passed / failed on the course: course.passed / course.failed, with
 *      score = result.score.scaled × 100 when given, else result.score.raw,
 *      else null, and passMark = the context extension
 *      `https://w3id.org/xapi/cmi5/context/extensions/masteryscore` × 100
 *      when it is a number, else null; then course.completed as well when
 *      result.completion is true.
 *    - progressed on the course: course.progressed with the result extension
 *      `https://w3id.org/xapi/cmi5/result/extensions/progress` when it is a
 *      number from 0 to 100, else result.score.scaled × 100 when it is from
 *      0 to 1, else no fact.
 *    - suspended, terminated, exited on the course: course.exited, or
 *      course.completed instead when result.completion is true.
 *    - Any of these verbs on another activity (a lesson, a quiz, a scene):
 *      no fact from the verb.
 *    - answered on an activity whose definition has an interactionType:
 *      question.answered, with interactionId = the object's id (longer than
 *      255 characters: no fact), text = definition.description, else
 *      definition.name, answer = result.response for a person (choice ids as
 *      their descriptions, …), correct = result.success when given, else the
 *      response judged against definition.correctResponsesPattern (null
 *      without a pattern), correctAnswer = the first pattern for a person,
 *      points = result.score.raw when given.
 *    - experienced on an activity that is not the course: slide.viewed, with
 *      the object's id and name, and as scene the name of the first `parent`
 *      activity when that parent is not the course.
 *    - resumed and every other verb: no fact from the verb.
 *
 * 4. Variables, whatever the verb: each `result.extensions` key whose IRI
 *    path ends in `/variables/<name>` or `/variable/<name>` (the last segment
 *    URI-decoded and trimmed, 1 to 255 characters) with a string (up to
 *    10 000 characters), number, boolean or null value is a variable.set.
 *    Objects and arrays are skipped.
 *
 * 5. The verb's facts come first, then the variables in extension order. A
 *    statement that yields no fact at all is not mapped.
 *
 * 6. The registration is context.registration lower-cased, or null.
 *
 * Texts longer than what the ingestion API takes (course and slide titles
 * and scenes 500, question texts and answers 5000, learner names 200
 * characters) are cut, ending with "…", rather than losing the fact.
 */
import { ingestionLearnerSchema } from '@courselens/contracts';
import {
  describeCorrectResponse,
  formatResponse,
  judgeResponse,
  preferredText,
  type InteractionDefinition,
  type LanguageMap,
} from './interactions';

type Extensions = Readonly<Record<string, unknown>>;

export type XapiActivityDefinitionLike = InteractionDefinition & {
  readonly name?: LanguageMap;
  readonly description?: LanguageMap;
  readonly type?: string;
  readonly interactionType?: string;
  readonly correctResponsesPattern?: readonly string[];
};

export type XapiActivityLike = {
  readonly objectType?: string;
  readonly id: string;
  readonly definition?: XapiActivityDefinitionLike;
};

export type XapiActorLike = {
  readonly objectType?: string;
  readonly name?: string;
  readonly mbox?: string;
  readonly mbox_sha1sum?: string;
  readonly openid?: string;
  readonly account?: { readonly homePage?: string; readonly name?: string };
};

/** The parts of a validated statement the mapping reads; anything else is ignored. */
export type XapiStatementLike = {
  readonly actor: XapiActorLike;
  readonly verb: { readonly id: string };
  /** An Activity, or (for statements that map to nothing) an Agent, Group, StatementRef or SubStatement. */
  readonly object: {
    readonly objectType?: string;
    readonly id?: string;
    readonly definition?: XapiActivityDefinitionLike;
  };
  readonly result?: {
    readonly score?: { readonly scaled?: number; readonly raw?: number };
    readonly success?: boolean;
    readonly completion?: boolean;
    readonly response?: string;
    readonly extensions?: Extensions;
  };
  readonly context?: {
    readonly registration?: string;
    readonly contextActivities?: {
      readonly parent?: readonly XapiActivityLike[];
      readonly grouping?: readonly XapiActivityLike[];
      readonly category?: readonly XapiActivityLike[];
      readonly other?: readonly XapiActivityLike[];
    };
    readonly extensions?: Extensions;
  };
  readonly timestamp?: string;
};

export type MappedFact =
  | { type: 'course.started' }
  | { type: 'slide.viewed'; slide: { activityId: string; title: string | null; scene: string | null } }
  | {
      type: 'question.answered';
      question: {
        interactionId: string;
        text: string | null;
        answer: string | null;
        correct: boolean | null;
        correctAnswer: string | null;
        points: number | null;
      };
    }
  | { type: 'variable.set'; variable: { name: string; value: string | number | boolean | null } }
  | { type: 'course.progressed'; progress: { percent: number } }
  | { type: 'course.passed' | 'course.failed'; result: { score: number | null; passMark: number | null } }
  | { type: 'course.exited' }
  | { type: 'course.completed' };

export type StatementMapping =
  | {
      mapped: true;
      course: { activityId: string; title: string | null };
      learner: { email: string; name: string | null };
      registration: string | null;
      facts: MappedFact[];
    }
  | { mapped: false; reason: string };

/** What the organization already knows, to find the course of a statement that does not name it. */
export type KnownCourses = {
  /** Activity ids registered as courses. */
  courses: ReadonlySet<string>;
  /** Registration (lower-cased UUID) → the course activity id seen with it. */
  registrations: ReadonlyMap<string, string>;
};

const COURSE_TYPE = 'http://adlnet.gov/expapi/activities/course';
const ADL_VERBS = 'http://adlnet.gov/expapi/verbs/';
const VOIDED = `${ADL_VERBS}voided`;
const MASTERY_SCORE = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const PROGRESS = 'https://w3id.org/xapi/cmi5/result/extensions/progress';

const MAX_ACTIVITY_ID = 255;
const MAX_TITLE = 500;
const MAX_QUESTION_TEXT = 5000;
const MAX_LEARNER_NAME = 200;
const MAX_EMAIL = 320;
const MAX_LOCAL_PART = 64;
const MAX_VARIABLE_NAME = 255;
const MAX_VARIABLE_TEXT = 10_000;

const COURSE_VERBS = [
  'launched',
  'initialized',
  'attempted',
  'completed',
  'passed',
  'failed',
  'progressed',
  'suspended',
  'terminated',
  'exited',
  'resumed',
] as const;
type VerbName = (typeof COURSE_VERBS)[number] | 'answered' | 'experienced';

// A Map, not an object literal, so that a verb id such as "constructor" finds nothing.
const VERBS: ReadonlyMap<string, VerbName> = new Map<string, VerbName>([
  ...[...COURSE_VERBS, 'answered' as const, 'experienced' as const].map((name): [string, VerbName] => [
    `${ADL_VERBS}${name}`,
    name,
  ]),
  // cmi5's LMS-side verbs, from the ADL vocabulary rather than the xAPI one.
  ['https://w3id.org/xapi/adl/verbs/satisfied', 'completed'],
  ['https://w3id.org/xapi/adl/verbs/abandoned', 'exited'],
]);
const COURSE_LEVEL: ReadonlySet<VerbName> = new Set<VerbName>(COURSE_VERBS);

type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

const unmapped = (reason: string): StatementMapping => ({ mapped: false, reason });

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A fraction as a percentage, without the float noise of × 100 (0.57 × 100 = 56.99999999999999). */
const percentOf = (fraction: number): number => Number((fraction * 100).toPrecision(12));

/** `text` within `max` characters (ending with "…" when cut, never halving a surrogate pair); empty is null. */
function clip(text: string | null, max: number): string | null {
  if (text === null || text === '') return null;
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The e-mail address the ingestion API accepts for `learner.email` (the same check, so both agree). */
function asEmail(candidate: string): string | null {
  const email = candidate.trim().toLowerCase();
  if (email.length > MAX_EMAIL) return null;
  return ingestionLearnerSchema.shape.email.safeParse(email).success ? email : null;
}

const isEdge = (character: string | undefined) => character === '-' || character === '.';

/** `text` without `-` and `.` at either end (a loop: a regex would backtrack on a long run of them). */
function trimEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isEdge(text[start])) start += 1;
  while (end > start && isEdge(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

function accountLocalPart(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._+-]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/\.{2,}/g, '.');
  return trimEdges(trimEdges(cleaned).slice(0, MAX_LOCAL_PART));
}

function hostOf(homePage: string | undefined): string | null {
  if (!homePage) return null;
  try {
    return new URL(homePage).hostname.replace(/\.$/, '') || null;
  } catch {
    return null;
  }
}

function learnerOf(actor: XapiActorLike): Outcome<{ email: string; name: string | null }> {
  const fail = (reason: string) => ({ ok: false, reason }) as const;
  if (actor.objectType !== undefined && actor.objectType !== 'Agent') {
    return fail(`the actor is a ${actor.objectType}, not a single learner`);
  }
  let email: string | null;
  if (actor.mbox !== undefined) {
    email = asEmail(actor.mbox.replace(/^mailto:/i, ''));
    if (!email) return fail('the actor mbox is not an e-mail address of at most 320 characters');
  } else if (actor.account) {
    const accountName = actor.account.name ?? '';
    email = asEmail(accountName);
    if (!email) {
      const local = accountLocalPart(accountName);
      if (!local) return fail('the actor account name has no character usable in an e-mail address');
      const host = hostOf(actor.account.homePage);
      if (!host) return fail('the actor account homePage is not a URL with a host name');
      email = asEmail(`${local}@${host}`);
      if (!email) return fail(`the actor account makes ${local}@${host}, which is not an e-mail address`);
    }
  } else if (actor.mbox_sha1sum !== undefined) {
    return fail('the actor has only an mbox_sha1sum, which hides the e-mail address, so it is not a learner');
  } else if (actor.openid !== undefined) {
    return fail('the actor has only an openid, no mbox or account, so it is not a learner');
  } else {
    return fail('the actor has no mbox or account, so it is not a learner');
  }
  return { ok: true, value: { email, name: clip(actor.name?.trim() ?? null, MAX_LEARNER_NAME) } };
}

function contextActivities(statement: XapiStatementLike) {
  const activities = statement.context?.contextActivities;
  return {
    parent: activities?.parent ?? [],
    grouping: activities?.grouping ?? [],
    category: activities?.category ?? [],
    other: activities?.other ?? [],
  };
}

function courseOf(
  statement: XapiStatementLike,
  object: XapiActivityLike,
  verb: VerbName | null,
  known: KnownCourses,
): Outcome<{ activityId: string; title: string | null }> {
  const { parent, grouping, category, other } = contextActivities(statement);
  const isCourseType = (activity: XapiActivityLike) => activity.definition?.type === COURSE_TYPE;
  const isKnown = (activity: XapiActivityLike) => known.courses.has(activity.id);
  const registration = statement.context?.registration?.toLowerCase();
  const activityId =
    (isCourseType(object) ? object.id : undefined) ??
    grouping.find(isCourseType)?.id ??
    parent.find(isCourseType)?.id ??
    grouping.find(isKnown)?.id ??
    parent.find(isKnown)?.id ??
    (registration === undefined ? undefined : known.registrations.get(registration)) ??
    (verb !== null && COURSE_LEVEL.has(verb) ? object.id : undefined) ??
    grouping[0]?.id ??
    parent[0]?.id;
  if (activityId === undefined) {
    return { ok: false, reason: 'no course activity in the object, context or registration' };
  }
  if (activityId.length > MAX_ACTIVITY_ID) {
    return { ok: false, reason: `the course activity id is longer than ${MAX_ACTIVITY_ID} characters` };
  }
  // The course may be named wherever the statement mentions it, or nowhere (found by registration).
  const title = [object, ...grouping, ...parent, ...category, ...other]
    .filter((activity) => activity.id === activityId)
    .map((activity) => preferredText(activity.definition?.name))
    .find((name) => name !== null);
  return { ok: true, value: { activityId, title: clip(title ?? null, MAX_TITLE) } };
}

type VerbFacts = { facts: MappedFact[]; reason: string };

function scoreOf(statement: XapiStatementLike): number | null {
  const score = statement.result?.score;
  if (isFiniteNumber(score?.scaled)) return percentOf(score.scaled);
  return isFiniteNumber(score?.raw) ? score.raw : null;
}

function progressOf(statement: XapiStatementLike): number | null {
  const extension = statement.result?.extensions?.[PROGRESS];
  if (isFiniteNumber(extension) && extension >= 0 && extension <= 100) return extension;
  const scaled = statement.result?.score?.scaled;
  return isFiniteNumber(scaled) && scaled >= 0 && scaled <= 1 ? percentOf(scaled) : null;
}

function answerFacts(statement: XapiStatementLike, object: XapiActivityLike): VerbFacts {
  const definition = object.definition;
  const interactionType = definition?.interactionType;
  if (!definition || !interactionType) {
    return {
      facts: [],
      reason: `no fact for verb ${statement.verb.id} on an activity without an interactionType`,
    };
  }
  if (object.id.length > MAX_ACTIVITY_ID) {
    return { facts: [], reason: `the interaction id is longer than ${MAX_ACTIVITY_ID} characters` };
  }
  const result = statement.result;
  const response = result?.response;
  const pattern = definition.correctResponsesPattern;
  const judged = response === undefined ? null : judgeResponse(interactionType, response, pattern);
  const question = {
    interactionId: object.id,
    text: clip(preferredText(definition.description) ?? preferredText(definition.name), MAX_QUESTION_TEXT),
    answer:
      response === undefined
        ? null
        : clip(formatResponse(interactionType, response, definition), MAX_QUESTION_TEXT),
    correct: typeof result?.success === 'boolean' ? result.success : judged,
    correctAnswer: clip(describeCorrectResponse(interactionType, pattern, definition), MAX_QUESTION_TEXT),
    points: isFiniteNumber(result?.score?.raw) ? result.score.raw : null,
  };
  return { facts: [{ type: 'question.answered', question }], reason: '' };
}

function slideFacts(statement: XapiStatementLike, object: XapiActivityLike, courseId: string): VerbFacts {
  const firstParent = contextActivities(statement).parent[0];
  const scene =
    firstParent && firstParent.id !== courseId ? preferredText(firstParent.definition?.name) : null;
  const slide = {
    activityId: object.id,
    title: clip(preferredText(object.definition?.name), MAX_TITLE),
    scene: clip(scene, MAX_TITLE),
  };
  return { facts: [{ type: 'slide.viewed', slide }], reason: '' };
}

function verbFacts(
  statement: XapiStatementLike,
  verb: VerbName | null,
  object: XapiActivityLike,
  courseId: string,
): VerbFacts {
  const verbId = statement.verb.id;
  const none = (reason: string): VerbFacts => ({ facts: [], reason });
  const facts = (...list: MappedFact[]): VerbFacts => ({ facts: list, reason: '' });
  if (verb === null || verb === 'resumed') return none(`no fact for verb ${verbId}`);
  if (verb === 'answered') return answerFacts(statement, object);
  const onCourse = object.id === courseId;
  if (verb === 'experienced') {
    return onCourse
      ? none(`no fact for verb ${verbId} on the course itself (only other activities are slides)`)
      : slideFacts(statement, object, courseId);
  }
  if (!onCourse)
    return none(`no fact for verb ${verbId} on ${object.id}, which is not the course ${courseId}`);
  const completion = statement.result?.completion === true;
  switch (verb) {
    case 'launched':
    case 'initialized':
    case 'attempted':
      return facts({ type: 'course.started' });
    case 'completed':
      return facts({ type: 'course.completed' });
    case 'passed':
    case 'failed': {
      const masteryScore = statement.context?.extensions?.[MASTERY_SCORE];
      const outcome: MappedFact = {
        type: verb === 'passed' ? 'course.passed' : 'course.failed',
        result: {
          score: scoreOf(statement),
          passMark: isFiniteNumber(masteryScore) ? percentOf(masteryScore) : null,
        },
      };
      return completion ? facts(outcome, { type: 'course.completed' }) : facts(outcome);
    }
    case 'progressed': {
      const percent = progressOf(statement);
      return percent === null
        ? none(
            `no fact for verb ${verbId} without a progress extension from 0 to 100 or a scaled score from 0 to 1`,
          )
        : facts({ type: 'course.progressed', progress: { percent } });
    }
    case 'suspended':
    case 'terminated':
    case 'exited':
      return facts({ type: completion ? 'course.completed' : 'course.exited' });
  }
}

const VARIABLE_PATH = /\/variables?\/([^/]+)$/;

/** The variable an extension key names (`…/variables/<name>` or `…/variable/<name>`), or null. */
function variableName(key: string): string | null {
  let path: string;
  try {
    path = new URL(key).pathname;
  } catch {
    path = key.replace(/[?#][\s\S]*$/, '');
  }
  const segment = VARIABLE_PATH.exec(path)?.[1];
  if (segment === undefined) return null;
  let name: string;
  try {
    name = decodeURIComponent(segment).trim();
  } catch {
    return null;
  }
  return name.length >= 1 && name.length <= MAX_VARIABLE_NAME ? name : null;
}

function isVariableValue(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'boolean' ||
    isFiniteNumber(value) ||
    (typeof value === 'string' && value.length <= MAX_VARIABLE_TEXT)
  );
}

function variableFacts(statement: XapiStatementLike): MappedFact[] {
  const facts: MappedFact[] = [];
  for (const [key, value] of Object.entries(statement.result?.extensions ?? {})) {
    const name = variableName(key);
    if (name !== null && isVariableValue(value))
      facts.push({ type: 'variable.set', variable: { name, value } });
  }
  return facts;
}

/**
 * The CourseLens facts of one validated xAPI statement, with the course and
 * learner they belong to; or, when it changes no facts, a reason for a person
 * (stored beside the statement and shown to integrators). The rules are at
 * the top of this file.
 */
export function mapStatement(statement: XapiStatementLike, known: KnownCourses): StatementMapping {
  if (statement.verb.id === VOIDED) return unmapped('a voiding statement changes no facts');
  const { object } = statement;
  const objectType = object.objectType ?? 'Activity';
  if (objectType !== 'Activity') {
    return unmapped(`the object is not an activity (objectType ${objectType}), so it changes no facts`);
  }
  if (object.id === undefined) return unmapped('the object activity has no id');
  const activity: XapiActivityLike = { ...object, id: object.id };

  const learner = learnerOf(statement.actor);
  if (!learner.ok) return unmapped(learner.reason);

  const verb = VERBS.get(statement.verb.id) ?? null;
  const course = courseOf(statement, activity, verb, known);
  if (!course.ok) return unmapped(course.reason);

  const fromVerb = verbFacts(statement, verb, activity, course.value.activityId);
  const facts = [...fromVerb.facts, ...variableFacts(statement)];
  if (facts.length === 0) return unmapped(fromVerb.reason);
  return {
    mapped: true,
    course: course.value,
    learner: learner.value,
    registration: statement.context?.registration?.toLowerCase() ?? null,
    facts,
  };
}
