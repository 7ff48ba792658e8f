// The first step of the built-in engine: a sentence becomes words that can be
// compared with names. Lower case, accents and punctuation gone, contractions
// spelled out ("hasn't" is "has not"), number words as numbers, and each word
// reduced to a light stem so "completed", "scores" and "departments" meet
// "complete", "score" and "department". The same stemming is applied to the
// catalog's names, so both sides always agree.

export type Token = {
  index: number;
  /** The word as typed (lower case, accents removed), for messages. */
  surface: string;
  /** The light stem, corrected to a known word when the person made a typo. */
  stem: string;
  /** Digits and number words ("three"), else null. */
  number: number | null;
};

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
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
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  hundred: 100,
};

/** Lower case without accents, with contractions and symbols spelled out as words. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘`´]/g, "'")
    .replace(/\bcan'?t\b/g, 'can not')
    .replace(/\bwon'?t\b/g, 'will not')
    .replace(/\b(has|have|had|did|do|does|is|are|was|were|would|should|could)n'?t\b/g, '$1 not')
    .replace(/'s\b/g, '')
    .replace(/%/g, ' percent ')
    .replace(/&/g, ' and ')
    .replace(/#/g, ' number ')
    .replace(/≥|>=/g, ' at least ')
    .replace(/≤|<=/g, ' at most ');
}

/**
 * A light stemmer: plurals, then -ing, -ed and a final -e. Crude on purpose:
 * it only has to map the forms of one word to the same key on both sides.
 */
export function stem(word: string): string {
  if (/\d/.test(word) || word.length <= 3) return word;
  let result = word;
  if (result.endsWith('ies') && result.length > 4) result = `${result.slice(0, -3)}y`;
  else if (result.endsWith('sses')) result = result.slice(0, -2);
  else if (result.endsWith('s') && !/(ss|us|is)$/.test(result)) result = result.slice(0, -1);
  if (result.endsWith('ing') && result.length > 5) result = result.slice(0, -3);
  else if (result.endsWith('ed') && result.length > 4) result = result.slice(0, -2);
  if (result.endsWith('e') && result.length > 4) result = result.slice(0, -1);
  return result;
}

/** The words of a text, unstemmed (dates as one word). */
export function words(text: string): string[] {
  return normalizeText(text).match(/\d{4}-\d{2}-\d{2}|[a-z0-9]+/g) ?? [];
}

/** The stems of a text's words. */
export function stems(text: string): string[] {
  return words(text).map(stem);
}

export function tokenize(text: string): Token[] {
  return words(text).map((surface, index) => ({
    index,
    surface,
    stem: stem(surface),
    number: /^\d+$/.test(surface) ? Number(surface) : (NUMBER_WORDS[surface] ?? null),
  }));
}

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
  // Two neighbours swapped ("avergae").
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/**
 * Typos: a word of five letters or more that is no known word is read as the
 * known word one edit away ("satisfacton", "departmnet", "questons").
 */
export function correctTypos(tokens: Token[], vocabulary: ReadonlySet<string>): Token[] {
  const known = [...vocabulary].filter((word) => word.length >= 4);
  return tokens.map((token) => {
    if (token.surface.length < 5 || token.number !== null || vocabulary.has(token.stem)) return token;
    // A typo rarely changes the first letter: prefer words that keep it.
    const matches = known.filter(
      (word) => withinOneEdit(word, token.stem) || withinOneEdit(word, token.surface),
    );
    const match = matches.find((word) => word[0] === token.surface[0]) ?? matches[0];
    return match ? { ...token, stem: match } : token;
  });
}
