import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { porterStem, readNumberWords, stem, withinOneEdit } from './language';

describe('porterStem', () => {
  it('follows the published examples', () => {
    const examples: Record<string, string> = {
      caresses: 'caress',
      ponies: 'poni',
      cats: 'cat',
      agreed: 'agre',
      plastered: 'plaster',
      motoring: 'motor',
      hopping: 'hop',
      filing: 'file',
      happy: 'happi',
      relational: 'relat',
      hopeful: 'hope',
      goodness: 'good',
      adjustment: 'adjust',
      controll: 'control',
    };
    for (const [word, expected] of Object.entries(examples)) expect(porterStem(word), word).toBe(expected);
  });

  it('brings derivations together', () => {
    expect(porterStem('evacuation')).toBe(porterStem('evacuate'));
    expect(porterStem('recommended')).toBe(porterStem('recommendation'));
    expect(porterStem('extinguishers')).toBe(porterStem('extinguisher'));
  });

  it('leaves digits and short words alone, and never grows a word by more than one letter', () => {
    expect(porterStem('112')).toBe('112');
    expect(porterStem('id')).toBe('id');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,15}$/), (word) => {
        const result = porterStem(word);
        expect(result.length).toBeLessThanOrEqual(word.length + 1);
        expect(porterStem(word)).toBe(result);
      }),
    );
  });
});

describe('stem', () => {
  it('maps the forms of a word to one key and keeps identifiers whole', () => {
    expect(stem('completes')).toBe(stem('completed'));
    expect(stem('departments')).toBe('department');
    expect(stem('onboarding_done')).toBe('onboarding_done');
    expect(stem('boxes')).toBe('box');
  });
});

describe('readNumberWords', () => {
  const read = (text: string) => readNumberWords(text.split(/[\s-]+/), 0)?.value ?? null;

  it('reads compound numbers', () => {
    expect(read('eighty-five')).toBe(85);
    expect(read('one hundred and twenty')).toBe(120);
    expect(read('a thousand')).toBe(1000);
    expect(read('two thousand and five')).toBe(2005);
    expect(read('twenty two years')).toBe(22);
    expect(read('two and a half')).toBe(2.5);
    expect(read('nine point five')).toBe(9.5);
    expect(read('zero')).toBe(0);
  });

  it('stops where the number ends', () => {
    expect(readNumberWords(['one', 'two'], 0)).toEqual({ value: 1, length: 1 });
    expect(readNumberWords(['seven', 'and', 'yes'], 0)).toEqual({ value: 7, length: 1 });
    expect(read('a mac')).toBeNull();
    expect(read('and')).toBeNull();
  });

  it('reads every number below a thousand written out', () => {
    const units = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const teens = [
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
      'sixteen',
      'seventeen',
      'eighteen',
      'nineteen',
    ];
    const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
    const spell = (n: number): string => {
      const hundreds = Math.floor(n / 100);
      const rest = n % 100;
      const restWords =
        rest === 0
          ? ''
          : rest < 10
            ? units[rest]
            : rest < 20
              ? teens[rest - 10]
              : `${tens[Math.floor(rest / 10)]}-${units[rest % 10]}`.replace(/-$/, '');
      if (hundreds === 0) return restWords ?? '';
      return `${units[hundreds]} hundred${restWords ? ` and ${restWords}` : ''}`;
    };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), (n) => {
        expect(read(spell(n)), spell(n)).toBe(n);
      }),
    );
  });
});

describe('withinOneEdit', () => {
  it('accepts one slip and refuses two', () => {
    expect(withinOneEdit('safty', 'safety')).toBe(true);
    expect(withinOneEdit('sales', 'sals')).toBe(true);
    expect(withinOneEdit('avergae', 'average')).toBe(true);
    expect(withinOneEdit('vegan', 'vegetarian')).toBe(false);
  });
});
