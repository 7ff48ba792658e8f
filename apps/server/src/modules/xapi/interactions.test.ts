import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INTERACTION_TYPES,
  describeCorrectResponse,
  formatResponse,
  judgeResponse,
  preferredText,
  type InteractionDefinition,
} from './interactions';

// Definitions from Appendix C of the xAPI 1.0.3 specification ("Example definitions for Activities of type cmi.interaction").
const choiceDefinition: InteractionDefinition = {
  choices: [
    { id: 'golf', description: { 'en-US': 'Golf Example' } },
    { id: 'facebook', description: { 'en-US': 'Facebook App' } },
    { id: 'tetris', description: { 'en-US': 'Tetris Example' } },
    { id: 'scrabble', description: { 'en-US': 'Scrabble Example' } },
  ],
};
const sequencingDefinition: InteractionDefinition = {
  choices: [
    { id: 'tim', description: { 'en-US': 'Tim' } },
    { id: 'ben', description: { 'en-US': 'Ben' } },
    { id: 'ells', description: { 'en-US': 'Ells' } },
    { id: 'mike', description: { 'en-US': 'Mike' } },
  ],
};
const matchingDefinition: InteractionDefinition = {
  source: [
    { id: 'ben', description: { 'en-US': 'Ben' } },
    { id: 'chris', description: { 'en-US': 'Chris' } },
    { id: 'troy', description: { 'en-US': 'Troy' } },
    { id: 'freddie', description: { 'en-US': 'Freddie' } },
  ],
  target: [
    { id: '1', description: { 'en-US': 'Swift Kick in the Grass' } },
    { id: '2', description: { 'en-US': 'We got Runs' } },
    { id: '3', description: { 'en-US': 'Duck' } },
    { id: '4', description: { 'en-US': 'Van Delay Industries' } },
  ],
};
const likertDefinition: InteractionDefinition = {
  scale: [
    { id: 'likert_0', description: { 'en-US': "It's OK" } },
    { id: 'likert_1', description: { 'en-US': "It's Pretty Cool" } },
    { id: 'likert_2', description: { 'en-US': "It's Damn Cool" } },
    { id: 'likert_3', description: { 'en-US': "It's Gonna Change the World" } },
  ],
};
const performanceDefinition: InteractionDefinition = {
  steps: [
    { id: 'pong', description: { 'en-US': 'Net pong matches won' } },
    { id: 'dg', description: { 'en-US': 'Strokes over par in disc golf at Liberty' } },
    { id: 'lunch', description: { 'en-US': 'Lunch having been eaten' } },
  ],
};

describe('preferredText', () => {
  it('prefers en-US, then en, then the first language, comparing tags without case', () => {
    expect(preferredText({ de: 'Hallo', en: 'Hello', 'en-US': 'Howdy' })).toBe('Howdy');
    expect(preferredText({ de: 'Hallo', EN: 'Hello', 'en-GB': 'Good day' })).toBe('Hello');
    expect(preferredText({ 'en-us': 'Howdy', en: 'Hello' })).toBe('Howdy');
    expect(preferredText({ fr: 'Bonjour', de: 'Hallo' })).toBe('Bonjour');
    expect(preferredText({ und: 'Safety Basics' })).toBe('Safety Basics');
  });

  it('skips blank texts, trims, and is null without any text', () => {
    expect(preferredText({ 'en-US': '  ', fr: ' Bonjour ' })).toBe('Bonjour');
    expect(preferredText({})).toBeNull();
    expect(preferredText(undefined)).toBeNull();
  });
});

describe('formatResponse', () => {
  it('shows choice ids as their descriptions, in the order given', () => {
    expect(formatResponse('choice', 'tetris[,]golf', choiceDefinition)).toBe('Tetris Example, Golf Example');
    expect(formatResponse('choice', 'facebook', choiceDefinition)).toBe('Facebook App');
  });

  it('keeps ids the definition does not describe, and all ids without a definition', () => {
    expect(formatResponse('choice', 'golf[,]chess', choiceDefinition)).toBe('Golf Example, chess');
    expect(formatResponse('choice', 'golf[,]tetris')).toBe('golf, tetris');
    expect(formatResponse('choice', '', choiceDefinition)).toBe('');
  });

  it('picks the description in en-US, then en, then the first language', () => {
    const definition: InteractionDefinition = {
      choices: [
        { id: 'a', description: { de: 'Helm', 'en-US': 'Hard hat', en: 'Helmet' } },
        { id: 'b', description: { de: 'Schutzbrille', en: 'Goggles' } },
        { id: 'c', description: { de: 'Handschuhe', fr: 'Gants' } },
      ],
    };
    expect(formatResponse('choice', 'a[,]b[,]c', definition)).toBe('Hard hat, Goggles, Handschuhe');
  });

  it('shows a sequence with arrows', () => {
    expect(formatResponse('sequencing', 'tim[,]mike[,]ells[,]ben', sequencingDefinition)).toBe(
      'Tim → Mike → Ells → Ben',
    );
  });

  it('shows matching pairs as source → target', () => {
    expect(formatResponse('matching', 'ben[.]3[,]chris[.]2', matchingDefinition)).toBe(
      'Ben → Duck, Chris → We got Runs',
    );
    expect(formatResponse('matching', 'troy[.]9')).toBe('troy → 9');
  });

  it('shows a likert answer as its scale description', () => {
    expect(formatResponse('likert', 'likert_3', likertDefinition)).toBe("It's Gonna Change the World");
    expect(formatResponse('likert', 'likert_9', likertDefinition)).toBe('likert_9');
  });

  it('shows true-false as true or false', () => {
    expect(formatResponse('true-false', 'true')).toBe('true');
    expect(formatResponse('true-false', 'False')).toBe('false');
  });

  it('shows numbers as sent and ranges in words', () => {
    expect(formatResponse('numeric', '42')).toBe('42');
    expect(formatResponse('numeric', '1[:]5')).toBe('1 to 5');
    expect(formatResponse('numeric', '4[:]')).toBe('at least 4');
    expect(formatResponse('numeric', '[:]10')).toBe('at most 10');
  });

  it('shows fill-in items without their parameters', () => {
    expect(formatResponse('fill-in', 'Bob\u2019s your uncle')).toBe('Bob\u2019s your uncle');
    expect(
      formatResponse('fill-in', '{case_matters=true}{order_matters=false}{lang=en}Paris[,]{lang=fr} Londres'),
    ).toBe('Paris, Londres');
    expect(
      formatResponse(
        'long-fill-in',
        '{case_matters=false}{lang=en}To store and provide access to learning experiences.',
      ),
    ).toBe('To store and provide access to learning experiences.');
  });

  it('shows performance steps as step: value, with ranges in words', () => {
    expect(formatResponse('performance', 'pong[.]1[,]dg[.]10[,]lunch[.]burger', performanceDefinition)).toBe(
      'Net pong matches won: 1, Strokes over par in disc golf at Liberty: 10, Lunch having been eaten: burger',
    );
    expect(formatResponse('performance', 'step1[.]{lang=en}open valve[,]step2[.]3[:]5')).toBe(
      'step1: open valve, step2: 3 to 5',
    );
  });

  it('shows other (and unknown) interaction types as sent', () => {
    expect(formatResponse('other', '(35.937432,-86.868896)')).toBe('(35.937432,-86.868896)');
    expect(formatResponse('hotspot', 'a[,]b')).toBe('a[,]b');
  });

  it('never throws, whatever the response', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERACTION_TYPES), fc.string(), (type, response) => {
        expect(typeof formatResponse(type, response, choiceDefinition)).toBe('string');
        expect(judgeResponse(type, response, [response, 'x[,]y'])).not.toBeUndefined();
      }),
    );
  });
});

describe('judgeResponse', () => {
  it('cannot judge without a pattern', () => {
    for (const type of INTERACTION_TYPES) expect(judgeResponse(type, 'anything', undefined)).toBeNull();
  });

  it('reads an empty pattern list as "no correct answer": unjudged for likert and other, wrong otherwise', () => {
    expect(judgeResponse('likert', 'likert_1', [])).toBeNull();
    expect(judgeResponse('other', 'x', [])).toBeNull();
    expect(judgeResponse('choice', 'golf', [])).toBe(false);
    expect(judgeResponse('fill-in', 'Paris', [])).toBe(false);
  });

  it('accepts a response that matches any of the patterns (the specification foo/bar example)', () => {
    const pattern = ['foo[,]bar', 'foo'];
    expect(judgeResponse('choice', 'foo', pattern)).toBe(true);
    expect(judgeResponse('choice', 'foo[,]bar', pattern)).toBe(true);
    expect(judgeResponse('choice', 'bar', pattern)).toBe(false);
  });

  it('compares choices as sets: order does not matter, every item does', () => {
    expect(judgeResponse('choice', 'tetris[,]golf', ['golf[,]tetris'])).toBe(true);
    expect(judgeResponse('choice', 'golf', ['golf[,]tetris'])).toBe(false);
    expect(judgeResponse('choice', 'golf[,]tetris[,]facebook', ['golf[,]tetris'])).toBe(false);
    expect(judgeResponse('choice', '', ['golf'])).toBe(false);
  });

  it('accepts any order of the right choices (property)', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.stringMatching(/^[a-z0-9_]{1,8}$/), { minLength: 1, maxLength: 6 })
          .chain((ids) =>
            fc.tuple(
              fc.constant(ids),
              fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }),
            ),
          ),
        ([ids, shuffled]) => {
          expect(judgeResponse('choice', shuffled.join('[,]'), [ids.join('[,]')])).toBe(true);
          expect(judgeResponse('choice', ids.slice(1).join('[,]'), [ids.join('[,]')])).toBe(false);
        },
      ),
    );
  });

  it('requires the exact order for sequencing', () => {
    expect(judgeResponse('sequencing', 'tim[,]mike[,]ells[,]ben', ['tim[,]mike[,]ells[,]ben'])).toBe(true);
    expect(judgeResponse('sequencing', 'mike[,]tim[,]ells[,]ben', ['tim[,]mike[,]ells[,]ben'])).toBe(false);
    expect(judgeResponse('sequencing', 'tim[,]mike[,]ells', ['tim[,]mike[,]ells[,]ben'])).toBe(false);
  });

  it('compares matching pairs as sets', () => {
    const pattern = ['ben[.]3[,]chris[.]2[,]troy[.]4[,]freddie[.]1'];
    expect(judgeResponse('matching', 'freddie[.]1[,]troy[.]4[,]ben[.]3[,]chris[.]2', pattern)).toBe(true);
    expect(judgeResponse('matching', 'ben[.]2[,]chris[.]3[,]troy[.]4[,]freddie[.]1', pattern)).toBe(false);
    expect(judgeResponse('matching', 'ben[.]3[,]chris[.]2[,]troy[.]4', pattern)).toBe(false);
  });

  it('judges true-false exactly', () => {
    expect(judgeResponse('true-false', 'true', ['true'])).toBe(true);
    expect(judgeResponse('true-false', 'false', ['true'])).toBe(false);
  });

  it('compares fill-in without case unless {case_matters=true}', () => {
    expect(judgeResponse('fill-in', 'bob\u2019s YOUR uncle', ['Bob\u2019s your uncle'])).toBe(true);
    expect(judgeResponse('fill-in', 'Paris', ['{case_matters=false}paris'])).toBe(true);
    expect(judgeResponse('fill-in', 'paris', ['{case_matters=true}Paris'])).toBe(false);
    expect(judgeResponse('fill-in', 'Paris', ['{case_matters=true}Paris'])).toBe(true);
  });

  it('keeps the order of fill-in items unless {order_matters=false}', () => {
    expect(judgeResponse('fill-in', 'red[,]blue', ['red[,]blue'])).toBe(true);
    expect(judgeResponse('fill-in', 'blue[,]red', ['red[,]blue'])).toBe(false);
    expect(judgeResponse('fill-in', 'blue[,]red', ['{order_matters=false}red[,]blue'])).toBe(true);
    expect(
      judgeResponse('fill-in', 'BLUE[,]red', ['{case_matters=true}{order_matters=false}red[,]blue']),
    ).toBe(false);
    expect(judgeResponse('fill-in', 'blue[,]blue', ['{order_matters=false}red[,]blue'])).toBe(false);
    expect(judgeResponse('fill-in', 'red', ['{order_matters=false}red[,]blue'])).toBe(false);
  });

  it('ignores {lang=…} and surrounding whitespace in fill-in items', () => {
    expect(
      judgeResponse('long-fill-in', '  to store and provide access to learning experiences. ', [
        '{case_matters=false}{lang=en}To store and provide access to learning experiences.',
      ]),
    ).toBe(true);
    expect(judgeResponse('fill-in', '{lang=fr}Londres[,] Paris', ['{lang=fr}londres[,]{lang=fr}paris'])).toBe(
      true,
    );
  });

  it('reads a numeric pattern as an inclusive range, either side optional', () => {
    expect(judgeResponse('numeric', '1', ['1[:]5'])).toBe(true);
    expect(judgeResponse('numeric', '5', ['1[:]5'])).toBe(true);
    expect(judgeResponse('numeric', '5.01', ['1[:]5'])).toBe(false);
    expect(judgeResponse('numeric', '976', ['4[:]'])).toBe(true);
    expect(judgeResponse('numeric', '3.99', ['4[:]'])).toBe(false);
    expect(judgeResponse('numeric', '-100', ['[:]4'])).toBe(true);
    expect(judgeResponse('numeric', '4.5', ['[:]4'])).toBe(false);
  });

  it('reads a single numeric pattern as that number exactly', () => {
    expect(judgeResponse('numeric', '42', ['42'])).toBe(true);
    expect(judgeResponse('numeric', '42.0', ['42'])).toBe(true);
    expect(judgeResponse('numeric', '41', ['42'])).toBe(false);
    expect(judgeResponse('numeric', 'forty-two', ['42'])).toBe(false);
    expect(judgeResponse('numeric', '', ['0'])).toBe(false);
  });

  it('accepts a numeric response range only inside the pattern range', () => {
    expect(judgeResponse('numeric', '2[:]3', ['1[:]5'])).toBe(true);
    expect(judgeResponse('numeric', '2[:]6', ['1[:]5'])).toBe(false);
    expect(judgeResponse('numeric', '2[:]', ['1[:]'])).toBe(true);
    expect(judgeResponse('numeric', '2[:]', ['1[:]5'])).toBe(false);
  });

  it('judges performance step by step, with numeric ranges for values', () => {
    const pattern = ['pong[.]1[:][,]dg[.][:]10[,]lunch[.]burger'];
    expect(judgeResponse('performance', 'pong[.]3[,]dg[.]10[,]lunch[.]Burger', pattern)).toBe(true);
    expect(judgeResponse('performance', 'pong[.]0[,]dg[.]10[,]lunch[.]burger', pattern)).toBe(false);
    expect(judgeResponse('performance', 'pong[.]3[,]dg[.]11[,]lunch[.]burger', pattern)).toBe(false);
    expect(judgeResponse('performance', 'pong[.]3[,]dg[.]10[,]lunch[.]salad', pattern)).toBe(false);
    expect(judgeResponse('performance', 'pong[.]3[,]dg[.]10', pattern)).toBe(false);
    expect(judgeResponse('performance', 'dg[.]10[,]pong[.]3[,]lunch[.]burger', pattern)).toBe(false);
    expect(
      judgeResponse('performance', 'dg[.]10[,]pong[.]3[,]lunch[.]burger', [
        `{order_matters=false}${pattern[0]}`,
      ]),
    ).toBe(true);
  });

  it('reads the specification example with bare-colon ranges and an empty step value', () => {
    // Appendix C writes its performance pattern as "pong[.]1:[,]dg[.]:10[,]lunch[.]".
    const pattern = ['pong[.]1:[,]dg[.]:10[,]lunch[.]'];
    expect(judgeResponse('performance', 'pong[.]1[,]dg[.]-2[,]lunch[.]sandwich', pattern)).toBe(true);
    expect(judgeResponse('performance', 'pong[.]0[,]dg[.]-2[,]lunch[.]sandwich', pattern)).toBe(false);
    expect(judgeResponse('performance', 'time[.]10:30', ['time[.]10:30'])).toBe(true);
  });

  it('stays fast on very long responses (anyone with a key can send one)', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `w${i}`);
    const started = performance.now();
    expect(
      judgeResponse('fill-in', [...ids].reverse().join('[,]'), [`{order_matters=false}${ids.join('[,]')}`]),
    ).toBe(true);
    const choices = ids.map((id) => ({ id, description: { en: id.toUpperCase() } }));
    expect(formatResponse('choice', ids.join('[,]'), { choices }).startsWith('W0, W1, W2')).toBe(true);
    expect(judgeResponse('performance', `s[.]${'+'.repeat(100_000)}`, ['s[.]1:'])).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('does not judge an unordered performance of more than 200 steps', () => {
    const steps = (count: number) => Array.from({ length: count }, (_, i) => `s${i}[.]${i}`);
    const pattern = (count: number) => [`{order_matters=false}${steps(count).join('[,]')}`];
    expect(judgeResponse('performance', steps(200).reverse().join('[,]'), pattern(200))).toBe(true);
    expect(judgeResponse('performance', steps(201).reverse().join('[,]'), pattern(201))).toBeNull();
    expect(
      judgeResponse('performance', steps(201).join('[,]'), pattern(201).concat(steps(201).join('[,]'))),
    ).toBe(true);
  });

  it('judges likert and other by the exact string', () => {
    expect(judgeResponse('likert', 'likert_3', ['likert_3'])).toBe(true);
    expect(judgeResponse('likert', 'likert_2', ['likert_3'])).toBe(false);
    expect(judgeResponse('other', '(35.937432,-86.868896)', ['(35.937432,-86.868896)'])).toBe(true);
    expect(judgeResponse('other', '(35.9,-86.8)', ['(35.937432,-86.868896)'])).toBe(false);
  });
});

describe('describeCorrectResponse', () => {
  it('formats the first pattern like a response', () => {
    expect(describeCorrectResponse('choice', ['golf[,]tetris', 'golf'], choiceDefinition)).toBe(
      'Golf Example, Tetris Example',
    );
    expect(describeCorrectResponse('fill-in', ['{case_matters=true}{lang=en}Paris'])).toBe('Paris');
    expect(describeCorrectResponse('numeric', ['4[:]'])).toBe('at least 4');
    expect(
      describeCorrectResponse('performance', ['pong[.]1[:][,]dg[.]:10[,]lunch[.]'], performanceDefinition),
    ).toBe(
      'Net pong matches won: at least 1, Strokes over par in disc golf at Liberty: at most 10, Lunch having been eaten',
    );
  });

  it('is null without a pattern', () => {
    expect(describeCorrectResponse('choice', undefined, choiceDefinition)).toBeNull();
    expect(describeCorrectResponse('likert', [], likertDefinition)).toBeNull();
  });
});
