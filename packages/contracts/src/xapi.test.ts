import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_XAPI_STATEMENTS_PER_BATCH,
  XAPI_ACTIVITY_TYPES,
  XAPI_MESSAGES,
  XAPI_SIGNATURE_USAGE_TYPE,
  XAPI_VERBS,
  isSupportedXapiVersion,
  isXapiDuration,
  isXapiIri,
  isXapiTimestamp,
  isXapiUuid,
  parseXapiAgent,
  parseXapiAgentParam,
  parseXapiStatement,
  parseXapiStatements,
  xapiAgentKey,
  xapiGroupMemberKeys,
  xapiTimestampToMillis,
} from './xapi';

type Json = Record<string, unknown>;

const COURSE = 'https://courses.example.com/safety-101';
const QUESTION = `${COURSE}/scene1/slide4/question1`;
const REGISTRATION = 'c9a8b7d6-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const STATEMENT_ID = 'f6c2d1e0-3b4a-4c5d-8e9f-0a1b2c3d4e5f';

/** What Articulate Storyline sends when a learner answers a multiple-choice question. */
function storylineAnswer(): Json {
  return {
    id: STATEMENT_ID,
    actor: { objectType: 'Agent', name: 'Ada Learner', mbox: 'mailto:Ada@Example.com' },
    verb: { id: XAPI_VERBS.answered, display: { 'en-US': 'answered' } },
    object: {
      id: QUESTION,
      definition: {
        name: { 'en-US': 'Which extinguisher suits an electrical fire?' },
        description: { 'en-US': 'Which extinguisher suits an electrical fire?' },
        type: XAPI_ACTIVITY_TYPES.cmiInteraction,
        interactionType: 'choice',
        correctResponsesPattern: ['co2'],
        choices: [
          { id: 'water', description: { 'en-US': 'Water' } },
          { id: 'co2', description: { 'en-US': 'CO2' } },
          { id: 'foam', description: { 'en-US': 'Foam' } },
        ],
      },
    },
    result: {
      score: { scaled: 1, raw: 10, min: 0, max: 10 },
      success: true,
      response: 'co2',
      duration: 'PT12.34S',
    },
    context: {
      registration: REGISTRATION,
      contextActivities: {
        parent: { id: `${COURSE}/scene1/slide4`, objectType: 'Activity' },
        grouping: [{ id: COURSE, definition: { type: XAPI_ACTIVITY_TYPES.course } }],
      },
    },
    timestamp: '2026-01-31T09:30:00.123+01:00',
    version: '1.0.0',
  };
}

/** A copy of the valid statement with one change. */
function changed(change: (statement: Json) => void): Json {
  const statement = storylineAnswer();
  change(statement);
  return statement;
}

/** Reaches into the nested test data without a type assertion at each step. */
function at(value: unknown, ...path: (string | number)[]): Json {
  let current = value;
  for (const key of path) current = (current as Json)[key];
  return current as Json;
}

function errorOf(raw: unknown): string | null {
  const parsed = parseXapiStatement(raw);
  return parsed.ok ? null : parsed.error;
}

describe('parseXapiStatement with a valid statement', () => {
  it('accepts a Storyline answer and normalises only the object type and context activities', () => {
    const parsed = parseXapiStatement(storylineAnswer());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const expected = storylineAnswer();
    at(expected, 'object').objectType = 'Activity';
    at(expected, 'context', 'contextActivities').parent = [
      { id: `${COURSE}/scene1/slide4`, objectType: 'Activity' },
    ];
    expect(parsed.statement).toEqual(expected);
    expect(parsed.statement.timestamp).toBe('2026-01-31T09:30:00.123+01:00');
  });

  it('accepts the smallest statement', () => {
    const minimal = {
      actor: { mbox: 'mailto:a@example.com' },
      verb: { id: XAPI_VERBS.experienced },
      object: { id: COURSE },
    };
    expect(parseXapiStatement(minimal)).toEqual({
      ok: true,
      statement: { ...minimal, object: { id: COURSE, objectType: 'Activity' } },
    });
  });

  it('accepts every kind of object and actor the spec defines', () => {
    const objects = [
      { objectType: 'Agent', account: { homePage: 'https://lms.example.com', name: '' } },
      { objectType: 'Group', mbox_sha1sum: 'A'.repeat(40) },
      { objectType: 'Group', member: [{ openid: 'https://id.example.com/ada' }] },
      { objectType: 'StatementRef', id: STATEMENT_ID.toUpperCase() },
      {
        objectType: 'SubStatement',
        actor: { mbox: 'mailto:b@example.com' },
        verb: { id: XAPI_VERBS.completed },
        object: { id: COURSE },
        context: { revision: '2', platform: 'Storyline' },
        timestamp: '2026-01-31T09:30:00Z',
      },
    ];
    for (const object of objects) {
      const statement = {
        actor: { objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }] },
        verb: { id: XAPI_VERBS.experienced },
        object,
      };
      expect(errorOf(statement)).toBeNull();
    }
  });

  it('adds objectType Activity to the object of a SubStatement as well', () => {
    const parsed = parseXapiStatement({
      actor: { mbox: 'mailto:a@example.com' },
      verb: { id: XAPI_VERBS.experienced },
      object: {
        objectType: 'SubStatement',
        actor: { mbox: 'mailto:b@example.com' },
        verb: { id: XAPI_VERBS.completed },
        object: { id: COURSE },
      },
    });
    expect(
      parsed.ok && parsed.statement.object.objectType === 'SubStatement' && parsed.statement.object.object,
    ).toEqual({
      id: COURSE,
      objectType: 'Activity',
    });
  });

  it('accepts extensions with any JSON values, a stored time, an authority and attachments', () => {
    const statement = changed((s) => {
      at(s, 'result').extensions = { 'https://example.com/ext/attempts': { count: 2, list: [1, null, 'x'] } };
      s.stored = '2026-01-31T09:30:01Z';
      s.authority = {
        objectType: 'Group',
        member: [
          { account: { homePage: 'https://courselens.example.com', name: 'consumer' } },
          { mbox: 'mailto:a@example.com' },
        ],
      };
      s.attachments = [
        {
          usageType: XAPI_SIGNATURE_USAGE_TYPE,
          display: { en: 'Signature' },
          contentType: 'application/octet-stream',
          length: 0,
          sha2: 'ABCDEF0123',
          fileUrl: 'https://files.example.com/x',
        },
      ];
    });
    expect(errorOf(statement)).toBeNull();
  });

  it('accepts a voiding statement', () => {
    expect(
      errorOf({
        actor: { mbox: 'mailto:admin@example.com' },
        verb: { id: XAPI_VERBS.voided },
        object: { objectType: 'StatementRef', id: STATEMENT_ID },
      }),
    ).toBeNull();
  });

  it.each(['likert', 'matching', 'performance', 'sequencing'])(
    'accepts the component lists of a %s interaction',
    (type) => {
      const lists: Record<string, Json> = {
        likert: { scale: [{ id: 'agree' }] },
        matching: { source: [{ id: 'a' }], target: [{ id: 'b' }] },
        performance: { steps: [{ id: 'step1' }] },
        sequencing: { choices: [{ id: 'first' }] },
      };
      const statement = changed((s) => {
        at(s, 'object').definition = { interactionType: type, correctResponsesPattern: [], ...lists[type] };
      });
      expect(errorOf(statement)).toBeNull();
    },
  );
});

describe('parseXapiStatement rules', () => {
  const interactionTypes =
    'true-false, choice, fill-in, long-fill-in, matching, performance, sequencing, likert, numeric, other';

  it.each<[string, (statement: Json) => void, string]>([
    ['an unknown property', (s) => (s.foo = 1), 'statement has an unknown property "foo"'],
    [
      'unknown properties',
      (s) => Object.assign(s, { foo: 1, bar: 2 }),
      'statement has unknown properties "foo", "bar"',
    ],
    [
      'an id that is not a UUID',
      (s) => (s.id = '123'),
      'id must be a UUID (such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301)',
    ],
    ['no actor', (s) => delete s.actor, 'actor is required'],
    ['no verb', (s) => delete s.verb, 'verb is required'],
    ['no object', (s) => delete s.object, 'object is required'],
    // Actor: Agent
    ['an actor that is not an object', (s) => (s.actor = 'ada'), 'actor must be a JSON object'],
    [
      'an actor of unknown type',
      (s) => (at(s, 'actor').objectType = 'Person'),
      'actor.objectType must be "Agent" or "Group"',
    ],
    [
      'an mbox without mailto:',
      (s) => (at(s, 'actor').mbox = 'ada@example.com'),
      'actor.mbox must be a mailto: IRI (mailto:name@example.com)',
    ],
    [
      'an mbox without an address',
      (s) => (at(s, 'actor').mbox = 'mailto:ada'),
      'actor.mbox must be a mailto: IRI (mailto:name@example.com)',
    ],
    [
      'an agent without identifier',
      (s) => delete at(s, 'actor').mbox,
      'actor must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'an agent with two identifiers',
      (s) => (at(s, 'actor').openid = 'https://id.example.com/ada'),
      'actor must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'an mbox_sha1sum that is not 40 hex characters',
      (s) => (s.actor = { mbox_sha1sum: 'abc' }),
      'actor.mbox_sha1sum must be 40 hexadecimal characters (the SHA-1 of a mailto: IRI)',
    ],
    ['an openid that is not an IRI', (s) => (s.actor = { openid: 'ada' }), 'actor.openid must be an IRI'],
    [
      'an account without name',
      (s) => (s.actor = { account: { homePage: 'https://lms.example.com' } }),
      'actor.account.name is required',
    ],
    [
      'an account whose homePage is not an IRI',
      (s) => (s.actor = { account: { homePage: 'lms.example.com', name: 'ada' } }),
      'actor.account.homePage must be an IRI',
    ],
    [
      'an account with an unknown property',
      (s) => (s.actor = { account: { homePage: 'https://lms.example.com', name: 'ada', id: 1 } }),
      'actor.account has an unknown property "id"',
    ],
    ['an agent name that is not a string', (s) => (at(s, 'actor').name = 42), 'actor.name must be a string'],
    ['an agent with members', (s) => (at(s, 'actor').member = []), 'actor has an unknown property "member"'],
    // Actor: Group
    [
      'an anonymous group without members',
      (s) => (s.actor = { objectType: 'Group', name: 'Team' }),
      'actor must have one of mbox, mbox_sha1sum, openid, account, or a non-empty member list (an anonymous Group)',
    ],
    [
      'an anonymous group with an empty member list',
      (s) => (s.actor = { objectType: 'Group', member: [] }),
      'actor must have one of mbox, mbox_sha1sum, openid, account, or a non-empty member list (an anonymous Group)',
    ],
    [
      'a group with two identifiers',
      (s) =>
        (s.actor = { objectType: 'Group', mbox: 'mailto:t@example.com', openid: 'https://id.example.com/t' }),
      'actor must have at most one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'a group whose member is a group',
      (s) =>
        (s.actor = { objectType: 'Group', member: [{ objectType: 'Group', mbox: 'mailto:t@example.com' }] }),
      'actor.member[0].objectType must be "Agent" (the members of a Group are Agents, never Groups)',
    ],
    [
      'a group member without identifier',
      (s) => (s.actor = { objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }, { name: 'Bo' }] }),
      'actor.member[1] must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'a member list that is not a list',
      (s) => (s.actor = { objectType: 'Group', member: {} }),
      'actor.member must be a list of Agents',
    ],
    // Verb
    ['a verb id that is not an IRI', (s) => (at(s, 'verb').id = 'answered'), 'verb.id must be an IRI'],
    [
      'a verb id with whitespace',
      (s) => (at(s, 'verb').id = 'http://example.com/my verb'),
      'verb.id must be an IRI',
    ],
    ['a verb without id', (s) => delete at(s, 'verb').id, 'verb.id is required'],
    [
      'a verb with an unknown property',
      (s) => (at(s, 'verb').name = 'answered'),
      'verb has an unknown property "name"',
    ],
    [
      'a display key that is not a language tag',
      (s) => (at(s, 'verb').display = { en_US: 'answered' }),
      'verb.display has a key "en_US" that is not an RFC 5646 language tag (such as en-US)',
    ],
    [
      'a display value that is not a string',
      (s) => (at(s, 'verb').display = { 'en-US': 1 }),
      'verb.display["en-US"] must be a string',
    ],
    [
      'a display that is a list',
      (s) => (at(s, 'verb').display = ['answered']),
      'verb.display must be a language map (such as {"en-US": "text"})',
    ],
    // Object: Activity
    [
      'an object of unknown type',
      (s) => (at(s, 'object').objectType = 'Course'),
      'object.objectType must be one of Activity, Agent, Group, StatementRef, SubStatement',
    ],
    [
      'an activity id that is not an IRI',
      (s) => (at(s, 'object').id = 'question1'),
      'object.id must be an IRI',
    ],
    [
      'an activity id longer than 2048 characters',
      (s) => (at(s, 'object').id = `https://x.example.com/${'a'.repeat(2048)}`),
      'object.id must be an IRI',
    ],
    ['an activity without id', (s) => delete at(s, 'object').id, 'object.id is required'],
    [
      'an agent as object without objectType',
      (s) => (s.object = { mbox: 'mailto:a@example.com' }),
      'object.id is required',
    ],
    [
      'a definition with an unknown property',
      (s) => (at(s, 'object', 'definition').foo = 1),
      'object.definition has an unknown property "foo"',
    ],
    [
      'an unknown interactionType',
      (s) => (at(s, 'object', 'definition').interactionType = 'multiple-choice'),
      `object.definition.interactionType must be one of ${interactionTypes}`,
    ],
    [
      'choices on a likert interaction',
      (s) => (at(s, 'object', 'definition').interactionType = 'likert'),
      'object.definition.choices is only allowed when interactionType is choice or sequencing',
    ],
    [
      'scale on a choice interaction',
      (s) => (at(s, 'object', 'definition').scale = [{ id: 'agree' }]),
      'object.definition.scale is only allowed when interactionType is likert',
    ],
    [
      'source on a choice interaction',
      (s) => (at(s, 'object', 'definition').source = [{ id: 'a' }]),
      'object.definition.source is only allowed when interactionType is matching',
    ],
    [
      'steps on a choice interaction',
      (s) => (at(s, 'object', 'definition').steps = [{ id: 'a' }]),
      'object.definition.steps is only allowed when interactionType is performance',
    ],
    [
      'correctResponsesPattern without interactionType',
      (s) => delete at(s, 'object', 'definition').interactionType,
      'object.definition.correctResponsesPattern is only allowed with an interactionType',
    ],
    [
      'choices without interactionType',
      (s) => {
        delete at(s, 'object', 'definition').interactionType;
        delete at(s, 'object', 'definition').correctResponsesPattern;
      },
      'object.definition.choices is only allowed with an interactionType',
    ],
    [
      'a correctResponsesPattern that is not a list of strings',
      (s) => (at(s, 'object', 'definition').correctResponsesPattern = [1]),
      'object.definition.correctResponsesPattern[0] must be a string',
    ],
    [
      'a component id with whitespace',
      (s) => (at(s, 'object', 'definition', 'choices', 0).id = 'dry powder'),
      'object.definition.choices[0].id must be a non-empty string without whitespace',
    ],
    [
      'an empty component id',
      (s) => (at(s, 'object', 'definition', 'choices', 2).id = ''),
      'object.definition.choices[2].id must be a non-empty string without whitespace',
    ],
    [
      'a repeated component id',
      (s) => (at(s, 'object', 'definition', 'choices', 2).id = 'water'),
      'object.definition.choices[2].id repeats "water" (ids must be unique within the list)',
    ],
    [
      'a component with an unknown property',
      (s) => (at(s, 'object', 'definition', 'choices', 0).correct = false),
      'object.definition.choices[0] has an unknown property "correct"',
    ],
    [
      'a type that is not an IRI',
      (s) => (at(s, 'object', 'definition').type = 'question'),
      'object.definition.type must be an IRI',
    ],
    [
      'a moreInfo that is not an IRI',
      (s) => (at(s, 'object', 'definition').moreInfo = '/help'),
      'object.definition.moreInfo must be an IRI',
    ],
    [
      'an extension key that is not an IRI',
      (s) => (at(s, 'object', 'definition').extensions = { slide: 4 }),
      'object.definition.extensions has a key "slide" that is not an IRI',
    ],
    [
      'extensions that are a list',
      (s) => (at(s, 'object', 'definition').extensions = []),
      'object.definition.extensions must be an object whose keys are IRIs',
    ],
    // Object: StatementRef and SubStatement
    [
      'a StatementRef whose id is not a UUID',
      (s) => (s.object = { objectType: 'StatementRef', id: QUESTION }),
      'object.id must be a UUID (such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301)',
    ],
    ...(['id', 'stored', 'version', 'authority'] as const).map(
      (property): [string, (statement: Json) => void, string] => [
        `a SubStatement with ${property}`,
        (s) => {
          const values = {
            id: STATEMENT_ID,
            stored: '2026-01-31T09:30:00Z',
            version: '1.0.3',
            authority: { mbox: 'mailto:a@example.com' },
          };
          s.object = {
            objectType: 'SubStatement',
            actor: s.actor,
            verb: s.verb,
            object: { id: COURSE },
            [property]: values[property],
          };
        },
        `object.${property} is not allowed in a SubStatement`,
      ],
    ),
    [
      'a SubStatement inside a SubStatement',
      (s) => {
        const inner = { objectType: 'SubStatement', actor: s.actor, verb: s.verb, object: { id: COURSE } };
        s.object = { ...inner, object: inner };
      },
      'object.object.objectType must not be "SubStatement" (a SubStatement cannot hold another)',
    ],
    [
      'a SubStatement with an invalid actor',
      (s) => (s.object = { objectType: 'SubStatement', actor: {}, verb: s.verb, object: { id: COURSE } }),
      'object.actor must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'a SubStatement whose context has a revision and whose object is an Agent',
      (s) =>
        (s.object = {
          objectType: 'SubStatement',
          actor: s.actor,
          verb: s.verb,
          object: { objectType: 'Agent', mbox: 'mailto:b@example.com' },
          context: { revision: '2' },
        }),
      "object.context.revision is only allowed when the statement's object is an Activity",
    ],
    // Result
    ['a result that is not an object', (s) => (s.result = true), 'result must be a JSON object'],
    [
      'a result with an unknown property',
      (s) => (at(s, 'result').passed = true),
      'result has an unknown property "passed"',
    ],
    [
      'a scaled score above 1',
      (s) => (at(s, 'result', 'score').scaled = 1.5),
      'result.score.scaled must be a number from -1 to 1',
    ],
    [
      'a scaled score below -1',
      (s) => (at(s, 'result', 'score').scaled = -1.01),
      'result.score.scaled must be a number from -1 to 1',
    ],
    [
      'a raw score below min',
      (s) => (at(s, 'result', 'score').raw = -1),
      'result.score.raw must not be less than min',
    ],
    [
      'a raw score above max',
      (s) => (at(s, 'result', 'score').raw = 11),
      'result.score.raw must not be more than max',
    ],
    [
      'a min equal to max',
      (s) => (at(s, 'result', 'score').min = 10),
      'result.score.min must be less than max',
    ],
    [
      'a raw score that is a string',
      (s) => (at(s, 'result', 'score').raw = '10'),
      'result.score.raw must be a number',
    ],
    [
      'a raw score that is infinite',
      (s) => (at(s, 'result', 'score').raw = Infinity),
      'result.score.raw must be a number',
    ],
    [
      'a score with an unknown property',
      (s) => (at(s, 'result', 'score').percent = 100),
      'result.score has an unknown property "percent"',
    ],
    [
      'a success that is not a boolean',
      (s) => (at(s, 'result').success = 'true'),
      'result.success must be true or false',
    ],
    [
      'a completion that is not a boolean',
      (s) => (at(s, 'result').completion = 1),
      'result.completion must be true or false',
    ],
    [
      'a response that is not a string',
      (s) => (at(s, 'result').response = ['co2']),
      'result.response must be a string',
    ],
    [
      'a duration in seconds',
      (s) => (at(s, 'result').duration = '12.34'),
      'result.duration must be an ISO 8601 duration (such as PT1M30S)',
    ],
    [
      'a bare PT duration',
      (s) => (at(s, 'result').duration = 'PT'),
      'result.duration must be an ISO 8601 duration (such as PT1M30S)',
    ],
    [
      'a result extension key that is not an IRI',
      (s) => (at(s, 'result').extensions = { attempts: 2 }),
      'result.extensions has a key "attempts" that is not an IRI',
    ],
    // Context
    [
      'a context with an unknown property',
      (s) => (at(s, 'context').session = 'x'),
      'context has an unknown property "session"',
    ],
    [
      'a registration that is not a UUID',
      (s) => (at(s, 'context').registration = 'attempt-1'),
      'context.registration must be a UUID (such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301)',
    ],
    [
      'an instructor without identifier',
      (s) => (at(s, 'context').instructor = { name: 'Grace' }),
      'context.instructor must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'a team that is an Agent',
      (s) => (at(s, 'context').team = { mbox: 'mailto:team@example.com' }),
      'context.team.objectType must be "Group" (a team is always a Group)',
    ],
    [
      'an unknown contextActivities key',
      (s) => (at(s, 'context', 'contextActivities').parents = [{ id: COURSE }]),
      'context.contextActivities has an unknown property "parents"',
    ],
    [
      'empty contextActivities',
      (s) => (at(s, 'context').contextActivities = {}),
      'context.contextActivities must have at least one of parent, grouping, category, other',
    ],
    [
      'a single context activity with a bad id',
      (s) => (at(s, 'context', 'contextActivities').parent = { id: 'slide4' }),
      'context.contextActivities.parent.id must be an IRI',
    ],
    [
      'a listed context activity with a bad id',
      (s) => (at(s, 'context', 'contextActivities').grouping = [{ id: COURSE }, { id: 'course' }]),
      'context.contextActivities.grouping[1].id must be an IRI',
    ],
    [
      'a context activity that is not an object',
      (s) => (at(s, 'context', 'contextActivities').category = COURSE),
      'context.contextActivities.category must be a JSON object',
    ],
    [
      'a context activity with an unknown property',
      (s) => (at(s, 'context', 'contextActivities').other = [{ id: COURSE, name: 'Course' }]),
      'context.contextActivities.other[0] has an unknown property "name"',
    ],
    [
      'a revision when the object is not an Activity',
      (s) => {
        s.object = { objectType: 'StatementRef', id: STATEMENT_ID };
        at(s, 'context').revision = '3';
      },
      "context.revision is only allowed when the statement's object is an Activity",
    ],
    [
      'a platform when the object is not an Activity',
      (s) => {
        s.object = { objectType: 'Agent', mbox: 'mailto:b@example.com' };
        at(s, 'context').platform = 'Storyline';
      },
      "context.platform is only allowed when the statement's object is an Activity",
    ],
    [
      'a language that is not a tag',
      (s) => (at(s, 'context').language = 'English (US)'),
      'context.language must be an RFC 5646 language tag (such as en-US)',
    ],
    [
      'a context statement without objectType',
      (s) => (at(s, 'context').statement = { id: STATEMENT_ID }),
      'context.statement.objectType must be "StatementRef"',
    ],
    [
      'a context extension key that is not an IRI',
      (s) => (at(s, 'context').extensions = { '': 1 }),
      'context.extensions has a key "" that is not an IRI',
    ],
    // Timestamps, version, authority
    [
      'a timestamp that is not ISO 8601',
      (s) => (s.timestamp = '31/01/2026 09:30'),
      'timestamp must be an ISO 8601 date-time (such as 2026-01-31T09:30:00Z)',
    ],
    [
      'a timestamp at negative zero',
      (s) => (s.timestamp = '2026-01-31T09:30:00-00:00'),
      'timestamp must be an ISO 8601 date-time (such as 2026-01-31T09:30:00Z)',
    ],
    [
      'a stored that is not ISO 8601',
      (s) => (s.stored = 'yesterday'),
      'stored must be an ISO 8601 date-time (such as 2026-01-31T09:30:00Z)',
    ],
    ['a version 2.0.0', (s) => (s.version = '2.0.0'), 'version must be 1.0 or 1.0.x (such as 1.0.3)'],
    ['a version 1.1', (s) => (s.version = '1.1'), 'version must be 1.0 or 1.0.x (such as 1.0.3)'],
    [
      'an authority without identifier',
      (s) => (s.authority = { name: 'LMS' }),
      'authority must have exactly one of mbox, mbox_sha1sum, openid, account',
    ],
    [
      'an authority group of three',
      (s) =>
        (s.authority = {
          objectType: 'Group',
          member: [
            { mbox: 'mailto:a@example.com' },
            { mbox: 'mailto:b@example.com' },
            { mbox: 'mailto:c@example.com' },
          ],
        }),
      'authority.member must hold exactly two Agents when the authority is a Group (an OAuth consumer and a user)',
    ],
    // Attachments
    ...(
      [
        ['usageType', 'signature', 'attachments[0].usageType must be an IRI'],
        ['display', undefined, 'attachments[0].display is required'],
        [
          'description',
          { en_GB: 'x' },
          'attachments[0].description has a key "en_GB" that is not an RFC 5646 language tag (such as en-US)',
        ],
        [
          'contentType',
          'pdf',
          'attachments[0].contentType must be an internet media type (such as application/pdf)',
        ],
        ['contentType', undefined, 'attachments[0].contentType is required'],
        ['length', -1, 'attachments[0].length must be a whole number of bytes, 0 or more'],
        ['length', 1.5, 'attachments[0].length must be a whole number of bytes, 0 or more'],
        ['sha2', 'not-hex', 'attachments[0].sha2 must be the SHA-2 hash of the attachment in hexadecimal'],
        ['fileUrl', 'files/x.pdf', 'attachments[0].fileUrl must be an IRI'],
        ['size', 3, 'attachments[0] has an unknown property "size"'],
      ] as const
    ).map(([property, value, message]): [string, (statement: Json) => void, string] => [
      `an attachment with ${property} ${JSON.stringify(value)}`,
      (s) => {
        const attachment: Json = {
          usageType: 'https://example.com/attachments/certificate',
          display: { en: 'Certificate' },
          contentType: 'application/pdf; charset=binary',
          length: 1024,
          sha2: 'a'.repeat(64),
        };
        if (value === undefined) delete attachment[property];
        else attachment[property] = value;
        s.attachments = [attachment];
      },
      message,
    ]),
    [
      'a signature that is not application/octet-stream',
      (s) =>
        (s.attachments = [
          {
            usageType: XAPI_SIGNATURE_USAGE_TYPE,
            display: { en: 'Signature' },
            contentType: 'application/jose',
            length: 10,
            sha2: 'ab',
          },
        ]),
      'attachments[0].contentType must be application/octet-stream for a signature attachment',
    ],
    [
      'attachments that are not a list',
      (s) => (s.attachments = {}),
      'attachments must be a list of attachments',
    ],
    // Voiding
    [
      'a voiding statement about an Activity',
      (s) => (at(s, 'verb').id = XAPI_VERBS.voided),
      "a voiding statement's object must be a StatementRef",
    ],
  ])('rejects %s', (_name, change, message) => {
    expect(errorOf(changed(change))).toBe(message);
  });

  it('rejects anything but an object as a single statement', () => {
    expect(errorOf('statement')).toBe('statement must be a JSON object');
    expect(errorOf(null)).toBe('statement must be a JSON object');
    expect(errorOf([])).toBe('statement must be a JSON object');
  });

  it('rejects a __proto__ key instead of dropping it', () => {
    const text = (display: string) =>
      `{"actor":{"mbox":"mailto:a@example.com"},"verb":{"id":"${XAPI_VERBS.answered}","display":${display}},"object":{"id":"${COURSE}"}}`;
    expect(errorOf(JSON.parse(text('{"__proto__":"x"}')))).toBe(
      'verb.display has a key "__proto__" that is not an RFC 5646 language tag (such as en-US)',
    );
    expect(errorOf({ ...storylineAnswer(), ...JSON.parse('{"__proto__":{}}') })).toBe(
      'statement has an unknown property "__proto__"',
    );
  });

  it('never throws and always explains itself, whatever JSON it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseXapiStatement(value);
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) expect(parsed.error).toMatch(/\S/);
      }),
    );
  });
});

describe('parseXapiStatements', () => {
  it('takes one statement as a list of one', () => {
    const parsed = parseXapiStatements(storylineAnswer());
    expect(parsed.ok && parsed.statements.length).toBe(1);
  });

  it('takes a list and keeps its order', () => {
    const second = changed((s) => (s.id = REGISTRATION));
    const parsed = parseXapiStatements([storylineAnswer(), second]);
    expect(parsed.ok && parsed.statements.map((statement) => statement.id)).toEqual([
      STATEMENT_ID,
      REGISTRATION,
    ]);
  });

  it('names the position of the statement at fault', () => {
    const bad = changed((s) => (at(s, 'actor').mbox = 'ada@example.com'));
    expect(parseXapiStatements([storylineAnswer(), storylineAnswer(), bad])).toEqual({
      ok: false,
      error: 'statements[2].actor.mbox must be a mailto: IRI (mailto:name@example.com)',
    });
    expect(parseXapiStatements([changed((s) => (s.foo = 1))])).toEqual({
      ok: false,
      error: 'statements[0] has an unknown property "foo"',
    });
    expect(
      parseXapiStatements([storylineAnswer(), changed((s) => (at(s, 'verb').id = XAPI_VERBS.voided))]),
    ).toEqual({
      ok: false,
      error: "statements[1]: a voiding statement's object must be a StatementRef",
    });
    expect(parseXapiStatements([storylineAnswer(), 'x'])).toEqual({
      ok: false,
      error: 'statements[1] must be a JSON object',
    });
  });

  it('does not prefix the errors of a single statement', () => {
    expect(parseXapiStatements(changed((s) => delete s.verb))).toEqual({
      ok: false,
      error: 'verb is required',
    });
  });

  it('rejects an empty list and a list over the limit', () => {
    expect(parseXapiStatements([])).toEqual({ ok: false, error: 'A list of statements must not be empty' });
    const tooMany = Array.from({ length: MAX_XAPI_STATEMENTS_PER_BATCH + 1 }, storylineAnswer);
    expect(parseXapiStatements(tooMany)).toEqual({ ok: false, error: XAPI_MESSAGES.batchTooLarge });
    const atLimit = Array.from({ length: MAX_XAPI_STATEMENTS_PER_BATCH }, storylineAnswer);
    expect(parseXapiStatements(atLimit).ok).toBe(true);
  });
});

describe('parseXapiAgent', () => {
  it('accepts an Agent and an identified Group', () => {
    expect(parseXapiAgent({ mbox: 'mailto:a@example.com' })).toEqual({
      ok: true,
      agent: { mbox: 'mailto:a@example.com' },
    });
    expect(parseXapiAgent({ objectType: 'Group', openid: 'https://id.example.com/t' }).ok).toBe(true);
  });

  it('rejects an anonymous Group and invalid agents, naming the parameter', () => {
    expect(parseXapiAgent({ objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }] })).toEqual({
      ok: false,
      error:
        'agent must be an Agent or an identified Group (with one of mbox, mbox_sha1sum, openid, account)',
    });
    expect(parseXapiAgent({ mbox: 'a@example.com' })).toEqual({
      ok: false,
      error: 'agent.mbox must be a mailto: IRI (mailto:name@example.com)',
    });
    expect(parseXapiAgent('mailto:a@example.com')).toEqual({
      ok: false,
      error: 'agent must be a JSON object',
    });
  });

  it('parses the query text', () => {
    expect(parseXapiAgentParam('{"mbox":"mailto:a@example.com"}').ok).toBe(true);
    expect(parseXapiAgentParam('{mbox:')).toEqual({
      ok: false,
      error: 'agent must be a JSON Agent or identified Group',
    });
    expect(parseXapiAgentParam('')).toEqual({ ok: false, error: XAPI_MESSAGES.agentParam });
    expect(parseXapiAgentParam('{}')).toEqual({
      ok: false,
      error: 'agent must have exactly one of mbox, mbox_sha1sum, openid, account',
    });
  });
});

describe('agent keys', () => {
  it('builds one key per kind of identifier', () => {
    expect(xapiAgentKey({ mbox: 'mailto:Ada@Example.COM' })).toBe('mbox:mailto:ada@example.com');
    expect(xapiAgentKey({ mbox_sha1sum: 'ABCDEF'.padEnd(40, '0') })).toBe(
      `mbox_sha1sum:${'abcdef'.padEnd(40, '0')}`,
    );
    expect(xapiAgentKey({ openid: 'https://id.example.com/Ada' })).toBe('openid:https://id.example.com/Ada');
    expect(xapiAgentKey({ account: { homePage: 'https://lms.example.com', name: 'Ada' } })).toBe(
      'account:https://lms.example.com|Ada',
    );
    expect(xapiAgentKey({ objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }] })).toBeNull();
  });

  it('lists the keys of a group and its members once each', () => {
    expect(
      xapiGroupMemberKeys({
        objectType: 'Group',
        mbox: 'mailto:team@example.com',
        member: [
          { mbox: 'mailto:a@example.com' },
          { mbox: 'mailto:A@example.com' },
          { openid: 'https://id.example.com/b' },
        ],
      }),
    ).toEqual([
      'mbox:mailto:team@example.com',
      'mbox:mailto:a@example.com',
      'openid:https://id.example.com/b',
    ]);
    expect(xapiGroupMemberKeys({ objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }] })).toEqual([
      'mbox:mailto:a@example.com',
    ]);
    expect(xapiGroupMemberKeys({ mbox: 'mailto:a@example.com' })).toEqual(['mbox:mailto:a@example.com']);
  });
});

describe('isSupportedXapiVersion', () => {
  it.each(['1.0', '1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.9', '1.0.10'])('accepts %s', (version) => {
    expect(isSupportedXapiVersion(version)).toBe(true);
  });

  it.each(['0.95', '0.9', '1.1.0', '1.1', '2.0.0', '', '1', '1.0.', '1.0.x', ' 1.0.3', '1.0.3-beta'])(
    'rejects %j',
    (version) => {
      expect(isSupportedXapiVersion(version)).toBe(false);
    },
  );
});

describe('isXapiTimestamp', () => {
  it.each([
    '2026-01-31T09:30:00Z',
    '2026-01-31T09:30:00.1Z',
    '2026-01-31T09:30:00.123456789Z',
    '2026-01-31T09:30:00+01:00',
    '2026-01-31T09:30:00+0100',
    '2026-01-31T09:30:00+01',
    '2026-01-31T09:30:00-05:00',
    '2026-01-31T09:30:00+00:00',
    '2026-01-31T09:30:00',
    '2026-01-31T09:30Z',
    '2024-02-29T00:00:00Z',
    '20260131T093000Z',
    '20260131T093000.5+0100',
  ])('accepts %s', (value) => {
    expect(isXapiTimestamp(value)).toBe(true);
  });

  it.each([
    '2026-01-31T09:30:00-00:00',
    '2026-01-31T09:30:00-0000',
    '2026-01-31T09:30:00-00',
    '2026-01-31',
    '2026-01-31 09:30:00Z',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-01-31T24:00:00Z',
    '2026-01-31T09:60:00Z',
    '2026-01-31T09:30:00+1:00',
    '2026-01-31T09:30:00.Z',
    '2026-01-31T093000Z',
    '20260131T09:30:00Z',
    '',
    'yesterday',
  ])('rejects %s', (value) => {
    expect(isXapiTimestamp(value)).toBe(false);
  });

  it('reads every offset form and no zone as UTC', () => {
    const instant = Date.UTC(2026, 0, 31, 8, 30, 0, 123);
    for (const value of [
      '2026-01-31T08:30:00.123Z',
      '2026-01-31T08:30:00.123',
      '2026-01-31T09:30:00.1239+01:00',
      '2026-01-31T09:30:00.123+0100',
      '2026-01-31T09:30:00.123+01',
      '2026-01-31T03:00:00.123-05:30',
      '20260131T083000.123Z',
    ]) {
      expect(xapiTimestampToMillis(value)).toBe(instant);
    }
    expect(xapiTimestampToMillis('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(xapiTimestampToMillis('2026-01-31T09:30:00-00:00')).toBeNull();
  });

  it('agrees with Date on every instant Date can print', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(xapiTimestampToMillis(date.toISOString())).toBe(date.getTime());
        },
      ),
    );
  });
});

describe('isXapiDuration', () => {
  it.each([
    'PT12.34S',
    'PT1M30S',
    'P1Y2M3DT4H5M6S',
    'P1D',
    'PT0S',
    'P2W',
    'P1.5W',
    'P1DT0.5H',
    'PT1H0,5M',
    'P0D',
    'PT36H',
  ])('accepts %s', (value) => {
    expect(isXapiDuration(value)).toBe(true);
  });

  it.each([
    'PT',
    'P',
    '',
    'T1S',
    'P1.5DT1H',
    'PT1.5H30M',
    'P1W2D',
    'P-1D',
    'PT1S2M',
    'P1H',
    'P0001-02-03T04:05:06',
    'PT.5S',
    'pt1s',
    ' PT1S',
    '12.34',
  ])('rejects %j', (value) => {
    expect(isXapiDuration(value)).toBe(false);
  });

  it('accepts every whole-number combination of components', () => {
    const component = fc.option(fc.nat({ max: 9999 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.tuple(component, component, component, component, component, component),
        ([y, mo, d, h, mi, s]) => {
          const part = (value: number | undefined, unit: string) =>
            value === undefined ? '' : `${value}${unit}`;
          const time = part(h, 'H') + part(mi, 'M') + part(s, 'S');
          const text = `P${part(y, 'Y')}${part(mo, 'M')}${part(d, 'D')}${time ? `T${time}` : ''}`;
          expect(isXapiDuration(text)).toBe(text !== 'P');
        },
      ),
    );
  });
});

describe('isXapiIri and isXapiUuid', () => {
  it.each([
    'http://adlnet.gov/expapi/verbs/answered',
    'mailto:a@example.com',
    'urn:uuid:1',
    'tag:example.com,2026:x',
    'https://例え.jp/パス',
    'x:',
  ])('accepts the IRI %s', (value) => {
    expect(isXapiIri(value)).toBe(true);
  });

  it.each([
    '',
    'answered',
    '/relative/path',
    '1http://x',
    'http://a b',
    'http://a\tb',
    `http://x/${'a'.repeat(2040)}`,
  ])('rejects the IRI %j', (value) => {
    expect(isXapiIri(value)).toBe(false);
  });

  it('accepts every UUID in either case and rejects other forms', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.boolean(), (uuid, upper) => {
        expect(isXapiUuid(upper ? uuid.toUpperCase() : uuid)).toBe(true);
      }),
    );
    for (const value of [
      '',
      'f6c2d1e03b4a4c5d8e9f0a1b2c3d4e5f',
      '{f6c2d1e0-3b4a-4c5d-8e9f-0a1b2c3d4e5f}',
      'f6c2d1e0-3b4a-4c5d-8e9f-0a1b2c3d4e5g',
    ]) {
      expect(isXapiUuid(value)).toBe(false);
    }
  });
});
