import { describe, expect, it } from 'vitest';
import type { JsonObject } from './statement-equality';
import { chooseLanguage, formatStatement, parseAcceptLanguage } from './statement-format';

const courseDefinition = (): JsonObject => ({
  name: { 'en-US': 'Fire safety', fr: 'Sécurité incendie', 'fr-CA': 'Sécurité-incendie' },
  description: { 'en-US': 'What to do', de: 'Was zu tun ist' },
  type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
  interactionType: 'choice',
  correctResponsesPattern: ['exit'],
  choices: [
    { id: 'exit', description: { 'en-US': 'Leave', fr: 'Sortir' } },
    { id: 'stay', description: { de: 'Bleiben', 'en-GB': 'Stay' } },
  ],
});

const full = (): JsonObject => ({
  id: 'c0a80a3b-5a1c-4b8e-9d2e-3f4a5b6c7d8e',
  actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:ada@example.com' },
  verb: { id: 'http://adlnet.gov/expapi/verbs/answered', display: { 'en-US': 'answered', fr: 'a répondu' } },
  object: { objectType: 'Activity', id: 'https://courselens.example/q/1', definition: courseDefinition() },
  authority: {
    objectType: 'Group',
    member: [
      { name: 'App', account: { homePage: 'https://courselens.example', name: 'app' } },
      { name: 'Ada', mbox: 'mailto:ada@example.com' },
    ],
  },
  context: {
    instructor: { name: 'Grace', mbox_sha1sum: 'a9993e364706816aba3e25717850c26c9cd0d89d' },
    team: {
      objectType: 'Group',
      name: 'Blue',
      openid: 'https://blue.example',
      member: [{ mbox: 'mailto:x@example.com' }],
    },
    contextActivities: {
      parent: { id: 'https://courselens.example/courses/1', definition: { name: { 'en-US': 'Course' } } },
      grouping: [
        {
          objectType: 'Activity',
          id: 'https://courselens.example/programs/1',
          definition: { name: { fr: 'Programme' } },
        },
      ],
    },
    extensions: { 'https://courselens.example/ext': { anything: 1 } },
  },
  result: { success: true },
  timestamp: '2026-01-01T10:00:00Z',
  stored: '2026-01-01T10:00:01Z',
  attachments: [
    {
      usageType: 'http://adlnet.gov/expapi/attachments/signature',
      display: { 'en-US': 'Signature', fr: 'Signature FR' },
      description: { de: 'Unterschrift' },
      contentType: 'application/octet-stream',
      length: 10,
      sha2: 'ab',
    },
  ],
});

describe('formatStatement', () => {
  it('returns the statement unchanged for exact', () => {
    expect(formatStatement(full(), 'exact', ['fr'])).toEqual(full());
  });

  it('keeps only identifiers for ids, everywhere agents, groups, activities and verbs appear', () => {
    const original = full();
    const ids = formatStatement(original, 'ids', []);
    expect(ids).toEqual({
      id: 'c0a80a3b-5a1c-4b8e-9d2e-3f4a5b6c7d8e',
      actor: { objectType: 'Agent', mbox: 'mailto:ada@example.com' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/answered' },
      object: { objectType: 'Activity', id: 'https://courselens.example/q/1' },
      // An anonymous group is known by its members.
      authority: {
        objectType: 'Group',
        member: [
          { account: { homePage: 'https://courselens.example', name: 'app' } },
          { mbox: 'mailto:ada@example.com' },
        ],
      },
      context: {
        instructor: { mbox_sha1sum: 'a9993e364706816aba3e25717850c26c9cd0d89d' },
        // An identified group by its identifier alone.
        team: { objectType: 'Group', openid: 'https://blue.example' },
        contextActivities: {
          parent: { id: 'https://courselens.example/courses/1' },
          grouping: [{ objectType: 'Activity', id: 'https://courselens.example/programs/1' }],
        },
        extensions: { 'https://courselens.example/ext': { anything: 1 } },
      },
      result: { success: true },
      timestamp: '2026-01-01T10:00:00Z',
      stored: '2026-01-01T10:00:01Z',
      attachments: original.attachments,
    });
    expect(original).toEqual(full());
  });

  it('applies ids inside a SubStatement and leaves a StatementRef alone', () => {
    const sub = formatStatement(
      {
        ...full(),
        object: {
          objectType: 'SubStatement',
          actor: { objectType: 'Agent', name: 'Bob', mbox: 'mailto:bob@example.com' },
          verb: { id: 'http://adlnet.gov/expapi/verbs/attempted', display: { 'en-US': 'attempted' } },
          object: {
            objectType: 'Agent',
            name: 'Eve',
            account: { homePage: 'https://e.example', name: 'eve' },
          },
          context: { instructor: { name: 'Grace', mbox: 'mailto:grace@example.com' } },
        },
      },
      'ids',
      [],
    );
    expect(sub.object).toEqual({
      objectType: 'SubStatement',
      actor: { objectType: 'Agent', mbox: 'mailto:bob@example.com' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' },
      object: { objectType: 'Agent', account: { homePage: 'https://e.example', name: 'eve' } },
      context: { instructor: { mbox: 'mailto:grace@example.com' } },
    });
    const reference = { objectType: 'StatementRef', id: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7' };
    expect(formatStatement({ ...full(), object: reference }, 'ids', []).object).toEqual(reference);
  });

  it('keeps one language per map for canonical, in the order the client asked', () => {
    const canonical = formatStatement(full(), 'canonical', ['fr-CA', 'fr', 'en']);
    expect(canonical.verb).toEqual({
      id: 'http://adlnet.gov/expapi/verbs/answered',
      display: { fr: 'a répondu' },
    });
    expect(canonical.object).toEqual({
      objectType: 'Activity',
      id: 'https://courselens.example/q/1',
      definition: {
        ...courseDefinition(),
        name: { 'fr-CA': 'Sécurité-incendie' },
        // No French here: the third language, en, finds en-US by its primary subtag.
        description: { 'en-US': 'What to do' },
        choices: [
          { id: 'exit', description: { fr: 'Sortir' } },
          { id: 'stay', description: { 'en-GB': 'Stay' } },
        ],
      },
    });
    const context = canonical.context as JsonObject;
    expect(context.contextActivities).toEqual({
      parent: { id: 'https://courselens.example/courses/1', definition: { name: { 'en-US': 'Course' } } },
      grouping: [
        {
          objectType: 'Activity',
          id: 'https://courselens.example/programs/1',
          definition: { name: { fr: 'Programme' } },
        },
      ],
    });
    expect(canonical.attachments).toEqual([
      expect.objectContaining({ display: { fr: 'Signature FR' }, description: { de: 'Unterschrift' } }),
    ]);
    // Agents and groups stay as they were.
    expect(canonical.actor).toEqual(full().actor);
    expect(canonical.authority).toEqual(full().authority);
  });

  it('falls back to en-US, then en, then the first entry when no asked language is there', () => {
    const canonical = formatStatement(full(), 'canonical', ['ja']);
    const definition = (canonical.object as JsonObject).definition as JsonObject;
    expect(definition.name).toEqual({ 'en-US': 'Fire safety' });
    expect(definition.choices).toEqual([
      { id: 'exit', description: { 'en-US': 'Leave' } },
      { id: 'stay', description: { de: 'Bleiben' } },
    ]);
  });
});

describe('chooseLanguage', () => {
  it('prefers the exact tag, then the bare primary subtag, then any tag with that primary subtag', () => {
    expect(chooseLanguage(['fr-FR', 'fr', 'en'], ['fr-CA', 'en'])).toBe('fr');
    expect(chooseLanguage(['fr-FR', 'en'], ['fr-CA', 'en'])).toBe('fr-FR');
    expect(chooseLanguage(['FR-ca', 'fr'], ['fr-CA'])).toBe('FR-ca');
    expect(chooseLanguage(['de', 'en'], ['ja'])).toBe('en');
    expect(chooseLanguage(['de', 'it'], [])).toBe('de');
    expect(chooseLanguage([], ['fr'])).toBeUndefined();
  });
});

describe('parseAcceptLanguage', () => {
  it('orders tags by q value, keeps the header order on ties and drops * and q=0', () => {
    expect(parseAcceptLanguage('en;q=0.5, fr-CA, *;q=0.8, fr;q=0.9, de;q=0, it;q=0.5')).toEqual([
      'fr-CA',
      'fr',
      'en',
      'it',
    ]);
    expect(parseAcceptLanguage(' de-CH ,de;q=0.7,EN;Q=0.3')).toEqual(['de-CH', 'de', 'EN']);
    expect(parseAcceptLanguage('en;q=abc, fr')).toEqual(['fr']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });
});
