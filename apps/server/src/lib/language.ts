// English word handling shared by the built-in (no-model) engines: a light
// stemmer for matching names, the Porter stemmer for retrieval, stop words,
// number words ("one hundred and twenty") and a one-edit typo test. Pure
// functions with no dependencies, so every engine reads words the same way.

/**
 * A light stemmer: plurals, then -ing, -ed and a final -e. Crude on purpose:
 * it only has to map the forms of one word to the same key on both sides
 * (the sentence and the organization's names), and it keeps identifiers with
 * underscores whole.
 */
export function stem(word: string): string {
  if (/\d/.test(word) || word.includes('_') || word.length <= 3) return word;
  let result = word;
  if (result.endsWith('ies') && result.length > 4) result = `${result.slice(0, -3)}y`;
  else if (result.endsWith('sses')) result = result.slice(0, -2);
  else if (result.endsWith('es') && /(sh|ch|x|ss)es$/.test(result)) result = result.slice(0, -2);
  else if (result.endsWith('s') && !/(ss|us|is)$/.test(result)) result = result.slice(0, -1);
  if (result.endsWith('ing') && result.length > 5) result = result.slice(0, -3);
  else if (result.endsWith('ed') && result.length > 4) result = result.slice(0, -2);
  if (result.endsWith('e') && result.length > 4) result = result.slice(0, -1);
  return result;
}

// ---- Porter stemmer ------------------------------------------------------------------
// M. F. Porter, "An algorithm for suffix stripping" (1980). Retrieval needs
// derivations to meet ("evacuation" and "evacuate", "recommended" and
// "recommendation"), which the light stemmer leaves apart on purpose.

function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if (letter === 'a' || letter === 'e' || letter === 'i' || letter === 'o' || letter === 'u') return false;
  if (letter === 'y') return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in the stem. */
function measure(word: string): number {
  let count = 0;
  let index = 0;
  while (index < word.length && isConsonant(word, index)) index += 1;
  while (index < word.length) {
    while (index < word.length && !isConsonant(word, index)) index += 1;
    if (index >= word.length) break;
    while (index < word.length && isConsonant(word, index)) index += 1;
    count += 1;
  }
  return count;
}

function hasVowel(word: string): boolean {
  for (let index = 0; index < word.length; index += 1) if (!isConsonant(word, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const length = word.length;
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "snow"). */
function endsWithCvc(word: string): boolean {
  const length = word.length;
  if (length < 3) return false;
  const last = word[length - 1] ?? '';
  return (
    isConsonant(word, length - 3) &&
    !isConsonant(word, length - 2) &&
    isConsonant(word, length - 1) &&
    !'wxy'.includes(last)
  );
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

/** Only the longest matching suffix counts, whether or not its condition holds. */
function replaceLongest(
  word: string,
  rules: readonly (readonly [string, string])[],
  minMeasure: number,
): string {
  let best: readonly [string, string] | null = null;
  for (const rule of rules) {
    if (word.endsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
  }
  if (!best) return word;
  const base = word.slice(0, word.length - best[0].length);
  return measure(base) > minMeasure ? base + best[1] : word;
}

/** The Porter stem of a lower-case word ("evacuation" → "evacu"). Digits and short words stay. */
export function porterStem(word: string): string {
  if (word.length <= 2 || /[^a-z]/.test(word)) return word;
  let result = word;

  // Step 1a: plurals.
  if (result.endsWith('sses')) result = result.slice(0, -2);
  else if (result.endsWith('ies')) result = result.slice(0, -2);
  else if (result.endsWith('s') && !result.endsWith('ss')) result = result.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  if (result.endsWith('eed')) {
    if (measure(result.slice(0, -3)) > 0) result = result.slice(0, -1);
  } else {
    const suffix = result.endsWith('ed') ? 2 : result.endsWith('ing') ? 3 : 0;
    if (suffix > 0 && hasVowel(result.slice(0, -suffix))) {
      result = result.slice(0, -suffix);
      if (/(at|bl|iz)$/.test(result)) result += 'e';
      else if (endsWithDoubleConsonant(result) && !/[lsz]$/.test(result)) result = result.slice(0, -1);
      else if (measure(result) === 1 && endsWithCvc(result)) result += 'e';
    }
  }

  // Step 1c: a final y after a vowel-bearing stem becomes i.
  if (result.endsWith('y') && hasVowel(result.slice(0, -1))) result = `${result.slice(0, -1)}i`;

  result = replaceLongest(result, STEP2, 0);
  result = replaceLongest(result, STEP3, 0);

  // Step 4: the longest listed suffix goes when the stem is long enough.
  let longest = '';
  for (const suffix of STEP4) if (result.endsWith(suffix) && suffix.length > longest.length) longest = suffix;
  if (longest) {
    const base = result.slice(0, result.length - longest.length);
    const ionAllowed = longest !== 'ion' || /[st]$/.test(base);
    if (measure(base) > 1 && ionAllowed) result = base;
  }

  // Step 5: a final e, and a double l.
  if (result.endsWith('e')) {
    const base = result.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsWithCvc(base))) result = base;
  }
  if (measure(result) > 1 && result.endsWith('ll')) result = result.slice(0, -1);
  return result;
}

// ---- stop words ----------------------------------------------------------------------

/** Words that carry no topic: left out of retrieval and of cue matching. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing done down during each either else ever few ' +
    'for from further get gets getting got had has have having he her here hers herself him himself his ' +
    'how i if im in into is it its itself ive just let lets like me might more most much must my myself ' +
    'no nor not now of off on once one only or other our ours ourselves out over own please same shall ' +
    'she should so some such than that thats the their theirs them themselves then there these they this ' +
    'those through to too under until up us very was we were what whats when where which while who whom ' +
    'why will with would yes yet you your yours yourself yourselves s t d ll m re ve dont doesnt didnt ' +
    'cant wont isnt arent many tell know want'
  ).split(' '),
);

// ---- number words --------------------------------------------------------------------

export const UNIT_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
export const TENS_WORDS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
export const SCALE_WORDS: Readonly<Record<string, number>> = {
  hundred: 100,
  thousand: 1_000,
  million: 1_000_000,
};
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

export function isNumberWord(word: string): boolean {
  return word in UNIT_WORDS || word in TENS_WORDS || word in SCALE_WORDS;
}

/**
 * Reads a number written in words from `words[start]` on ("eighty-five" as
 * two words "eighty", "five"; "one hundred and twenty"; "a thousand"; "two
 * and a half"; "nine point five"). Returns the value and how many words it
 * used, or null when no number starts there. A run like "one two" is read as
 * "one" only: the caller finds "two" next.
 */
export function readNumberWords(
  words: readonly string[],
  start: number,
): { value: number; length: number } | null {
  let total = 0;
  let current = 0;
  let index = start;
  let used = 0;
  // What the previous number word was, so "twenty two" joins and "two two" does not.
  let previous: 'none' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale' = 'none';

  while (index < words.length) {
    const word = words[index] ?? '';
    const next = words[index + 1] ?? '';
    if ((word === 'a' || word === 'an') && previous === 'none' && next in SCALE_WORDS) {
      current = 1;
      previous = 'unit';
      index += 1;
      continue;
    }
    if (word in UNIT_WORDS) {
      const value = UNIT_WORDS[word] ?? 0;
      const isTeen = value >= 10;
      if (previous === 'unit' || previous === 'teen') break;
      if (previous === 'tens' && isTeen) break;
      current += value;
      previous = isTeen ? 'teen' : 'unit';
    } else if (word in TENS_WORDS) {
      if (previous === 'unit' || previous === 'teen' || previous === 'tens') break;
      current += TENS_WORDS[word] ?? 0;
      previous = 'tens';
    } else if (word === 'hundred') {
      if (previous === 'hundred') break;
      current = (current === 0 ? 1 : current) * 100;
      previous = 'hundred';
    } else if (word === 'thousand' || word === 'million') {
      if (previous === 'scale' && current === 0) break;
      total += (current === 0 ? 1 : current) * (SCALE_WORDS[word] ?? 1);
      current = 0;
      previous = 'scale';
    } else if (word === 'and' && used > 0) {
      // "one hundred and twenty", "two and a half": "and" joins only when a number part follows.
      if (next === 'a' && words[index + 2] === 'half') {
        current += 0.5;
        index += 3;
        used = index - start;
        break;
      }
      if (!isNumberWord(next) || previous === 'unit' || previous === 'teen' || previous === 'tens') break;
    } else if (word === 'point' && used > 0 && next in UNIT_WORDS) {
      // "nine point five": digits after the point, one word each.
      let decimals = '';
      let cursor = index + 1;
      while (cursor < words.length && (UNIT_WORDS[words[cursor] ?? ''] ?? 10) < 10) {
        decimals += String(UNIT_WORDS[words[cursor] ?? ''] ?? 0);
        cursor += 1;
      }
      current += Number(`0.${decimals}`);
      index = cursor;
      used = index - start;
      break;
    } else {
      break;
    }
    index += 1;
    used = index - start;
  }
  if (used === 0) return null;
  // A trailing "and" or "a" is not part of the number.
  let length = used;
  while (length > 0 && ['and', 'a', 'an'].includes(words[start + length - 1] ?? '')) length -= 1;
  if (length === 0) return null;
  return { value: total + current, length };
}

// ---- typos ---------------------------------------------------------------------------

/** True when a and b differ by at most one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/** Lower case, accents removed, curly quotes straightened. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘`´]/g, "'");
}
