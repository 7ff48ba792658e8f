import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillSlots, validateValue, type SlotInput } from './slot-filling';
import type { ChatVariable } from './types';

// Edge cases of the slot filler, phrased differently from the conversation
// test set so they check the rules rather than the set.

const NOW = new Date('2026-05-14T10:00:00Z');

const variables: ChatVariable[] = [
  { name: 'name', title: 'Name', type: 'text', question: 'What is your name?', required: true },
  {
    name: 'hours',
    title: 'Hours of training',
    type: 'number',
    question: 'How many hours of training did you do?',
    required: true,
    validation: { min: 0, max: 2000 },
  },
  {
    name: 'agrees',
    title: 'Agrees to terms',
    type: 'boolean',
    question: 'Do you agree to the terms?',
    required: true,
  },
  { name: 'visit_date', title: 'Visit date', type: 'date', question: 'When will you visit?', required: true },
  {
    name: 'size',
    title: 'Shirt size',
    type: 'choice',
    question: 'Which shirt size: small, medium, large or extra large?',
    required: true,
    options: ['Small', 'Medium', 'Large', 'Extra large'],
  },
  { name: 'work_email', title: 'Work e-mail', type: 'text', question: 'Your work e-mail?', required: false },
  {
    name: 'notes',
    title: 'Notes',
    type: 'text',
    question: 'Any notes?',
    required: false,
    validation: { maxLength: 20 },
  },
];

function fill(message: string, overrides: Partial<SlotInput> = {}) {
  return fillSlots({
    variables,
    captured: {},
    askedVariable: null,
    lastCaptured: [],
    message,
    now: NOW,
    ...overrides,
  });
}

describe('numbers', () => {
  it.each([
    ['one hundred and twenty', 120],
    ['about 1,200', 1200],
    ['7.5 hours', 7.5],
    ['2,5', 2.5],
    ['forty-four', 44],
    ['a hundred', 100],
    ['roughly thirty five', 35],
  ])('reads “%s” as %d when asked', (message, expected) => {
    expect(fill(message, { askedVariable: 'hours' }).values).toEqual({ hours: expected });
  });

  it('does not take ordinals, ids or the scale of a rating as the number', () => {
    expect(fill('the 3rd one', { askedVariable: 'hours' }).values.hours).toBeUndefined();
    expect(fill('ID A1234', { askedVariable: 'hours' }).values.hours).toBeUndefined();
    expect(fill('6 out of 10', { askedVariable: 'hours' }).values).toEqual({ hours: 6 });
  });

  it('rejects a number out of range and names the range', () => {
    const result = fill('2500', { askedVariable: 'hours' });
    expect(result.values).toEqual({});
    expect(result.problems).toEqual([
      { variable: 'hours', kind: 'invalid', message: 'Please give a number between 0 and 2000.' },
    ]);
  });

  it('takes a number for a variable that is not asked only when the message names it', () => {
    expect(fill('I did 12 hours of training', { askedVariable: 'size' }).values).toEqual({
      hours: 12,
    });
    expect(fill('12', { askedVariable: 'agrees' }).values.hours).toBeUndefined();
  });
});

describe('yes and no', () => {
  it.each([
    ['yup', true],
    ['Of course!', true],
    ['I do', true],
    ['nope', false],
    ['not at all', false],
    ["I don't agree", false],
    ['I agree to them', true],
  ])('reads “%s” as %s when asked', (message, expected) => {
    expect(fill(message, { askedVariable: 'agrees' }).values).toEqual({ agrees: expected });
  });

  it('asks again when the learner is unsure', () => {
    const result = fill('not sure', { askedVariable: 'agrees' });
    expect(result.values).toEqual({});
    expect(result.problems[0]?.message).toBe('Please answer yes or no.');
  });
});

describe('dates', () => {
  it.each([
    ['next Monday', '2026-05-18'],
    ['on the 4th of July', '2026-07-04'],
    ['03/06/2026', '2026-06-03'],
    ['in three days', '2026-05-17'],
    ['December 1st 2026', '2026-12-01'],
  ])('reads “%s” as %s', (message, expected) => {
    expect(fill(message, { askedVariable: 'visit_date' }).values).toEqual({ visit_date: expected });
  });

  it('asks for a day when only a month is given', () => {
    const result = fill('sometime in July', { askedVariable: 'visit_date' });
    expect(result.values).toEqual({});
    expect(result.problems[0]?.variable).toBe('visit_date');
  });
});

describe('choices', () => {
  it('prefers the longer option that matches and respects a negation', () => {
    expect(fill('extra large please', { askedVariable: 'size' }).values).toEqual({ size: 'Extra large' });
    expect(fill('not small, medium', { askedVariable: 'size' }).values).toEqual({ size: 'Medium' });
    expect(fill('the last one', { askedVariable: 'size' }).values).toEqual({ size: 'Extra large' });
    expect(fill('3', { askedVariable: 'size' }).values).toEqual({ size: 'Large' });
    expect(fill('meduim', { askedVariable: 'size' }).values).toEqual({ size: 'Medium' });
  });

  it('lists the options when nothing fits', () => {
    expect(fill('XXL', { askedVariable: 'size' }).problems[0]?.message).toBe(
      'Please choose one of: Small, Medium, Large or Extra large.',
    );
  });
});

describe('text', () => {
  it('keeps a free answer, without greeting or lead-in for a name', () => {
    expect(fill('Hello! My name is Ada Lovelace', { askedVariable: 'name' }).values).toEqual({
      name: 'Ada Lovelace',
    });
    expect(fill('Grace Hopper.', { askedVariable: 'name' }).values).toEqual({ name: 'Grace Hopper' });
  });

  it('finds an e-mail address for an e-mail variable and rejects a broken one', () => {
    expect(fill('ada@example.com', { askedVariable: 'work_email' }).values).toEqual({
      work_email: 'ada@example.com',
    });
    expect(fill('ada at example', { askedVariable: 'work_email' }).problems[0]?.variable).toBe('work_email');
  });

  it('lets the learner skip an optional question', () => {
    expect(fill('no thanks', { askedVariable: 'notes' })).toMatchObject({ values: {}, skipped: true });
  });

  it('enforces the maximum length', () => {
    expect(
      fill('this note is far longer than twenty characters', { askedVariable: 'notes' }).problems[0]?.message,
    ).toBe('Please keep it under 20 characters.');
  });

  it('does not take a question as an answer', () => {
    const result = fill('why do you need my name?', { askedVariable: 'name' });
    expect(result).toMatchObject({ values: {}, problems: [], isQuestion: true });
  });
});

describe('several values and corrections', () => {
  it('fills several variables from one message', () => {
    expect(fill('Medium, and I agree. I will visit on 2 June', { askedVariable: 'size' }).values).toEqual({
      size: 'Medium',
      agrees: true,
      visit_date: '2026-06-02',
    });
  });

  it('changes an earlier answer only when the learner corrects it', () => {
    const captured = { hours: 10, size: 'Small' };
    expect(fill('large', { askedVariable: 'agrees', captured }).values.size).toBeUndefined();
    expect(fill('sorry, I meant large', { askedVariable: 'agrees', captured }).values).toEqual({
      size: 'Large',
    });
    expect(
      fill('actually 12', { askedVariable: 'agrees', captured, lastCaptured: ['hours'] }).values,
    ).toEqual({ hours: 12 });
  });
});

describe('any message', () => {
  it('never throws and only ever returns valid values', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom(null, ...variables.map((v) => v.name)),
        (message, asked) => {
          const result = fill(message, { askedVariable: asked });
          for (const [name, value] of Object.entries(result.values)) {
            const variable = variables.find((v) => v.name === name);
            expect(variable).toBeDefined();
            if (variable) expect(validateValue(variable, value)).toBeNull();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
