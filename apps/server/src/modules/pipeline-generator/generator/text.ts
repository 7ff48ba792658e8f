// The first step of the built-in engine: a sentence becomes words that can be
// compared with names. Things that are not words (web addresses, e-mail
// addresses, domains, quoted messages) are taken out first and stand in the
// sentence as one marker word each, so "https://hr.example.com/hooks/training"
// is never the word "training" and "'Welcome aboard!'" never the word
// "welcome". Then lower case, accents gone, contractions spelled out, and each
// word reduced to a light stem so "completes", "completed" and "completing"
// meet. Identifiers keep their underscores: "onboarding_done" is one word,
// not the course "onboarding".

import { stem } from '../../../lib/language';

export type Token = {
  index: number;
  /** The word as typed, lower case without accents. */
  surface: string;
  /** The light stem ("completes" → "complet"). */
  stem: string;
  /** Digits and number words ("three"), else null. */
  number: number | null;
};

/** What was taken out of the sentence before reading its words, by marker word. */
export type Extracted = {
  urls: string[];
  addresses: string[];
  domains: string[];
  quotes: string[];
};

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  a: 1,
  an: 1,
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
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

/** The marker word that stands for the n-th extracted thing of a kind. */
export const MARKERS = { url: 'zzurl', address: 'zzaddr', domain: 'zzdom', quote: 'zzquote' } as const;
export type MarkerKind = keyof typeof MARKERS;

export function markerOf(surface: string): { kind: MarkerKind; index: number } | null {
  const match = /^(zzurl|zzaddr|zzdom|zzquote)(\d+)$/.exec(surface);
  if (!match) return null;
  const kind = (Object.keys(MARKERS) as MarkerKind[]).find((key) => MARKERS[key] === match[1]);
  return kind ? { kind, index: Number(match[2]) } : null;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>]+/gi;
const ADDRESS_PATTERN = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi;
const DOMAIN_PATTERN =
  /(?<![\w.@-])@?((?:[a-z0-9-]+\.)+(?:com|org|net|edu|gov|io|co|uk|de|fr|es|it|nl|be|ch|eu|info|biz|ai|app|dev|us|ca|au))\b(?![.@-]\w)/gi;
// A quote opens after a space or the start and closes before punctuation or the end,
// so the apostrophe of "learner's" never opens one.
const QUOTE_PATTERN =
  /(^|[\s(:,])(?:"([^"]{1,500})"|“([^”]{1,500})”|'([^']{1,500})'|‘([^’]{1,500})’)(?=$|[\s,.;:!?)])/g;

/** Takes web addresses, e-mail addresses, domains and quotes out of the sentence. */
export function extract(prompt: string): { text: string; extracted: Extracted } {
  const extracted: Extracted = { urls: [], addresses: [], domains: [], quotes: [] };
  let text = prompt.replace(
    QUOTE_PATTERN,
    (_, before: string, a?: string, b?: string, c?: string, d?: string) => {
      extracted.quotes.push((a ?? b ?? c ?? d ?? '').trim());
      return `${before} ${MARKERS.quote}${extracted.quotes.length - 1} `;
    },
  );
  text = text.replace(URL_PATTERN, (url) => {
    // A sentence's own full stop or comma is not part of the address.
    const clean = url.replace(/[.,;:!?)]+$/, '');
    extracted.urls.push(clean);
    return ` ${MARKERS.url}${extracted.urls.length - 1} ${url.slice(clean.length)}`;
  });
  text = text.replace(ADDRESS_PATTERN, (address) => {
    extracted.addresses.push(address.toLowerCase());
    return ` ${MARKERS.address}${extracted.addresses.length - 1} `;
  });
  text = text.replace(DOMAIN_PATTERN, (_, domain: string) => {
    extracted.domains.push(domain.toLowerCase());
    return ` ${MARKERS.domain}${extracted.domains.length - 1} `;
  });
  return { text, extracted };
}

/** Lower case without accents, with contractions and symbols spelled out as words. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘`´]/g, "'")
    .replace(/\be-?mail/g, 'email')
    .replace(/\bcan'?t\b/g, 'can not')
    .replace(/\bwon'?t\b/g, 'will not')
    .replace(/\b(has|have|had|did|do|does|is|are|was|were|would|should|could)n'?t\b/g, '$1 not')
    .replace(/'s\b/g, '')
    .replace(/%/g, ' percent ')
    .replace(/&/g, ' and ')
    .replace(/\b(\d{1,2})\.(\d{2})\s*(am|pm)\b/g, '$1:$2$3')
    .replace(/\b(a|p)\.m\./g, '$1m');
}

// The light stemmer lives in lib/language, shared with the other built-in
// engines; re-exported so this generator's modules keep importing it from here.
export { stem };

/**
 * The words of a text, unstemmed: identifiers with underscores and times
 * ("9:00", "8am") stay whole; commas and full stops are words of their own,
 * as they end a clause.
 */
export function words(text: string): string[] {
  return normalizeText(text).match(/\d{1,2}:\d{2}(?:am|pm)?|[a-z0-9_]+|[,;.!?]/g) ?? [];
}

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

/** The casing a word had in the person's sentence ("sales" → "Sales"), or the word itself. */
export function originalCasing(prompt: string, word: string): string {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?<![\\w])${escaped}(?![\\w])`, 'i').exec(prompt);
  return match ? match[0] : word;
}
