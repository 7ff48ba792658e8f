import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantMilliseconds, sameStatement, type Json, type JsonObject } from './statement-equality';

const base = (): JsonObject => ({
  id: 'c0a80a3b-5a1c-4b8e-9d2e-3f4a5b6c7d8e',
  actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:ada@example.com' },
  verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
  object: {
    objectType: 'Activity',
    id: 'https://courselens.example/courses/1',
    definition: { name: { 'en-US': 'Course one' } },
  },
  result: { score: { scaled: 0.8, raw: 8, min: 0, max: 10 }, success: true, duration: 'PT1H' },
  context: {
    registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
    contextActivities: { parent: [{ id: 'https://courselens.example/programs/1' }] },
  },
  timestamp: '2026-01-01T10:00:00Z',
});

/** `base()` with `changes` applied at the top level. */
const statement = (changes: JsonObject = {}): JsonObject => ({ ...base(), ...changes });

describe('sameStatement', () => {
  it('matches a statement with itself and rejects a different result score', () => {
    expect(sameStatement(base(), base())).toBe(true);
    const other = statement({ result: { score: { scaled: 0.7, raw: 7, min: 0, max: 10 }, success: true } });
    expect(sameStatement(base(), other)).toBe(false);
  });

  it('ignores authority, stored and version, which the LRS sets', () => {
    const stored = statement({
      authority: { objectType: 'Agent', account: { homePage: 'https://courselens.example', name: 'key' } },
      stored: '2026-01-02T00:00:00Z',
      version: '1.0.3',
    });
    expect(sameStatement(base(), stored)).toBe(true);
  });

  it('ignores an id or a timestamp present on one side only, never two different ones', () => {
    const { id: _id, timestamp: _timestamp, ...bare } = base();
    expect(sameStatement(bare, base())).toBe(true);
    expect(sameStatement(base(), bare)).toBe(true);
    expect(sameStatement(base(), statement({ id: '11111111-2222-4333-8444-555555555555' }))).toBe(false);
    expect(sameStatement(base(), statement({ timestamp: '2026-01-01T10:00:01Z' }))).toBe(false);
  });

  it('ignores the order of object keys', () => {
    const reordered = Object.fromEntries(Object.entries(base()).reverse());
    expect(sameStatement(base(), reordered)).toBe(true);
    const score = statement({
      result: { duration: 'PT1H', success: true, score: { max: 10, min: 0, raw: 8, scaled: 0.8 } },
    });
    expect(sameStatement(base(), score)).toBe(true);
  });

  it('compares arrays in order', () => {
    const twoParents = (first: string, second: string) =>
      statement({ context: { contextActivities: { parent: [{ id: first }, { id: second }] } } });
    expect(
      sameStatement(
        twoParents('https://a.example', 'https://b.example'),
        twoParents('https://a.example', 'https://b.example'),
      ),
    ).toBe(true);
    expect(
      sameStatement(
        twoParents('https://a.example', 'https://b.example'),
        twoParents('https://b.example', 'https://a.example'),
      ),
    ).toBe(false);
  });

  it('compares timestamps as instants, whatever the zone or the written precision', () => {
    for (const same of [
      '2026-01-01T11:00:00+01:00',
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T05:00:00-0500',
      '2026-01-01T10:00:00.0004Z',
    ]) {
      expect(sameStatement(base(), statement({ timestamp: same })), same).toBe(true);
    }
    expect(sameStatement(base(), statement({ timestamp: '2026-01-01T10:00:00.001Z' }))).toBe(false);
    expect(sameStatement(base(), statement({ timestamp: '2026-01-01T10:00:00+01:00' }))).toBe(false);
  });

  it('compares mbox addresses without regard to case', () => {
    const shouting = statement({
      actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:Ada@EXAMPLE.com' },
    });
    expect(sameStatement(base(), shouting)).toBe(true);
    const someoneElse = statement({
      actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:bob@example.com' },
    });
    expect(sameStatement(base(), someoneElse)).toBe(false);
  });

  it('reads a missing objectType as Activity for the object and as Agent for an agent', () => {
    const implicit = statement({
      actor: { name: 'Ada', mbox: 'mailto:ada@example.com' },
      object: { id: 'https://courselens.example/courses/1' },
    });
    expect(sameStatement(base(), implicit)).toBe(true);
    const group = statement({ actor: { objectType: 'Group', name: 'Ada', mbox: 'mailto:ada@example.com' } });
    expect(sameStatement(base(), group)).toBe(false);
  });

  it('reads a single contextActivities activity as a one-element array', () => {
    const single = statement({
      context: {
        registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
        contextActivities: {
          parent: { id: 'https://courselens.example/programs/1', objectType: 'Activity' },
        },
      },
    });
    expect(sameStatement(base(), single)).toBe(true);
  });

  it('ignores what the specification keeps outside the statement: verb display, activity definitions, member order, UUID case', () => {
    const member = (name: string): Json => ({ mbox: `mailto:${name}@example.com` });
    const team = (names: string[]): JsonObject => ({
      objectType: 'Group',
      member: names.map(member),
    });
    const variant = statement({
      id: 'C0A80A3B-5A1C-4B8E-9D2E-3F4A5B6C7D8E',
      verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { fr: 'a terminé' } },
      object: { id: 'https://courselens.example/courses/1' },
      actor: team(['b', 'a']),
    });
    expect(sameStatement(statement({ actor: team(['a', 'b']) }), variant)).toBe(true);
    // A different verb id or activity id is another statement.
    expect(sameStatement(base(), statement({ verb: { id: 'http://adlnet.gov/expapi/verbs/passed' } }))).toBe(
      false,
    );
    expect(sameStatement(base(), statement({ object: { id: 'https://courselens.example/courses/2' } }))).toBe(
      false,
    );
  });

  it('applies the same rules inside a SubStatement', () => {
    const sub = (timestamp: string, mbox: string): JsonObject =>
      statement({
        object: {
          objectType: 'SubStatement',
          actor: { mbox },
          verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' },
          object: { id: 'https://courselens.example/courses/1' },
          timestamp,
        },
      });
    expect(
      sameStatement(
        sub('2026-01-01T10:00:00Z', 'mailto:a@example.com'),
        sub('2026-01-01T12:00:00+02:00', 'mailto:A@example.com'),
      ),
    ).toBe(true);
    expect(
      sameStatement(
        sub('2026-01-01T10:00:00Z', 'mailto:a@example.com'),
        sub('2026-01-01T10:00:00Z', 'mailto:b@example.com'),
      ),
    ).toBe(false);
  });

  it('keeps result.duration as written', () => {
    const minutes = statement({
      result: { score: { scaled: 0.8, raw: 8, min: 0, max: 10 }, success: true, duration: 'PT60M' },
    });
    expect(sameStatement(base(), minutes)).toBe(false);
  });

  it('is reflexive and symmetric on any JSON extension', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (x, y) => {
        const left = statement({ result: { extensions: { 'https://courselens.example/x': x as Json } } });
        const right = statement({ result: { extensions: { 'https://courselens.example/x': y as Json } } });
        expect(sameStatement(left, left)).toBe(true);
        expect(sameStatement(left, right)).toBe(sameStatement(right, left));
      }),
    );
  });
});

describe('instantMilliseconds', () => {
  it('reads extended and basic ISO 8601, with or without a zone, and refuses the rest', () => {
    const tenOClock = Date.UTC(2026, 0, 1, 10);
    expect(instantMilliseconds('2026-01-01T10:00:00Z')).toBe(tenOClock);
    expect(instantMilliseconds('20260101T110000+0100')).toBe(tenOClock);
    expect(instantMilliseconds('2026-01-01T10:00:00')).toBe(tenOClock);
    expect(instantMilliseconds('2026-01-01T10:00:00.123456789Z')).toBe(tenOClock + 123);
    expect(new Date(instantMilliseconds('0026-01-01T00:00:00Z') ?? Number.NaN).getUTCFullYear()).toBe(26);
    expect(instantMilliseconds('yesterday')).toBeNull();
    expect(instantMilliseconds('2026-13-01T10:00:00Z')).toBeNull();
  });
});
