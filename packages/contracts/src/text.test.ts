import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidSchema } from './ids';
import { MAX_INPUT_DEPTH, findInvalidInput, storableText, textProblem, textProblemMessage } from './text';

/** The oracle for well-formed UTF-16: encodeURIComponent refuses exactly the unpaired surrogates. */
function isWellFormed(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

describe('textProblem', () => {
  it('accepts every well-formed string without NUL, emoji and other scripts included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        fc.pre(!value.includes('\u0000'));
        expect(textProblem(value)).toBeNull();
      }),
    );
    expect(textProblem('Well done 🎉, Zoë — 学习')).toBeNull();
  });

  it('finds a NUL anywhere', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        expect(textProblem(`${before}\u0000${after}`)).toBe('nul');
      }),
    );
  });

  it('finds an unpaired surrogate exactly when the string is not well-formed UTF-16', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        fc.pre(!value.includes('\u0000'));
        expect(textProblem(value) === 'unpaired-surrogate').toBe(!isWellFormed(value));
      }),
      { numRuns: 500 },
    );
    for (const value of ['\ud800', 'a\udfff', '\udc00\ud800', 'end \ud83d']) {
      expect(textProblem(value)).toBe('unpaired-surrogate');
    }
  });

  it('says which field and what to do', () => {
    expect(textProblemMessage('q', 'nul')).toBe('q must not contain a NUL character');
    expect(textProblemMessage('message', 'unpaired-surrogate')).toBe(
      'message contains an invalid character (an unpaired UTF-16 surrogate)',
    );
  });
});

describe('findInvalidInput', () => {
  it('finds nothing in well-formed JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        fc.pre(!JSON.stringify(value).includes('\\u0000'));
        expect(findInvalidInput(value, { root: 'body' })).toBeNull();
      }),
    );
  });

  it('names the first bad string by its path, and bad field names by their object', () => {
    expect(findInvalidInput({ a: 'ok', items: [{ title: 'x\u0000' }] }, { root: 'body' })).toEqual({
      path: ['items', 0, 'title'],
      message: 'items.0.title must not contain a NUL character',
    });
    expect(findInvalidInput({ first: '\ud800', second: '\u0000' }, { root: 'body' })).toMatchObject({
      path: ['first'],
    });
    expect(findInvalidInput({ details: { 'k\u0000': 1 } }, { root: 'body' })).toEqual({
      path: ['details'],
      message: 'details has a field name that contains a NUL character',
    });
    expect(findInvalidInput('\u0000', { root: 'body' })?.message).toBe(
      'body must not contain a NUL character',
    );
  });

  it('refuses nesting deeper than the limit without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200_000; level += 1) deep = { a: deep };
    expect(findInvalidInput(deep, { root: 'body' })?.message).toBe(
      `${Array.from({ length: MAX_INPUT_DEPTH }, () => 'a').join('.')} is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`,
    );
    let justDeepEnough: unknown = 'leaf';
    for (let level = 0; level < MAX_INPUT_DEPTH; level += 1) justDeepEnough = [justDeepEnough];
    expect(findInvalidInput(justDeepEnough, { root: 'body' })).toBeNull();
  });
});

describe('uuidSchema', () => {
  it('gives every id in lower case, and refuses what is not a UUID with the message given', () => {
    const schema = uuidSchema('Course not found');
    fc.assert(
      fc.property(fc.uuid({ version: 4 }), fc.boolean(), (id, isUpper) => {
        expect(schema.parse(isUpper ? id.toUpperCase() : id)).toBe(id.toLowerCase());
      }),
    );
    const result = schema.safeParse('not-a-uuid');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Course not found');
  });
});

describe('storableText', () => {
  it('drops NUL characters and unpaired surrogates, keeping whole emoji', () => {
    expect(storableText('a\u0000b\uD800c\uDC00d 😀')).toBe('abcd 😀');
    expect(textProblem(storableText('\uDBFF\u0000'))).toBeNull();
  });
});
