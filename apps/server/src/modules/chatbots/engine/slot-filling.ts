import * as chrono from 'chrono-node';
import {
  ORDINAL_WORDS,
  STOP_WORDS,
  isNumberWord,
  porterStem,
  readNumberWords,
  withinOneEdit,
} from '../../../lib/language';
import type { CapturedValue, CapturedValues, ChatVariable, SlotProblem } from './types';

// Typed slot filling for the built-in engine: a learner's message becomes
// values for the agent's variables. Each kind of value is found where it
// stands in the message (e-mail addresses, dates through chrono-node, numbers
// in digits or words, yes/no, an option's name), then given to a variable:
// the one just asked about, or another one the message names ("I scored
// 64%", "no parking needed"). Values that fail validation are not kept; they
// come back as problems the engine asks about again. Pure and deterministic:
// relative dates read against the `now` it is given.

/** Messages are read up to this length. */
export const MAX_MESSAGE_CHARS = 2_000;

export type SlotInput = {
  variables: readonly ChatVariable[];
  captured: CapturedValues;
  /** The variable the previous reply asked for. */
  askedVariable: string | null;
  /** Variables the previous turn captured, so a bare correction knows where it goes. */
  lastCaptured: readonly string[];
  message: string;
  now: Date;
};

export type SlotResult = {
  /** Valid values this message gives, by variable name (new or corrected). */
  values: Record<string, CapturedValue>;
  /** Values given that fail validation, or an asked variable the message did not answer. */
  problems: SlotProblem[];
  /** The learner declined the asked (optional) variable. */
  skipped: boolean;
  /** The message asks something rather than answers. */
  isQuestion: boolean;
};

type Span = { start: number; end: number };
type Word = Span & { text: string; stem: string };

type NumberCandidate = Span & { value: number };
type DateCandidate = Span & { value: string; isDayCertain: boolean };
type ChoiceMatch = Span & { option: string; strength: number };

// ---- reading the message -------------------------------------------------------------

/** Lower case without accents, keeping every character's position (so spans index the original). */
function foldKeepingLength(text: string): string {
  let result = '';
  for (const character of text) {
    const lower = character.toLowerCase();
    const folded = lower.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    const straight = folded.replace(/[’‘`´]/g, "'");
    result +=
      straight.length === character.length ? straight : lower.length === character.length ? lower : character;
  }
  return result;
}

function wordsOf(folded: string): Word[] {
  const words: Word[] = [];
  for (const match of folded.matchAll(/[a-z0-9]+(?:'[a-z]+)?/g)) {
    const text = match[0];
    const start = match.index;
    words.push({ text, start, end: start + text.length, stem: porterStem(text.replace(/'/g, '')) });
  }
  return words;
}

function overlaps(span: Span, spans: readonly Span[]): boolean {
  return spans.some((other) => span.start < other.end && other.start < span.end);
}

/** Content stems of a phrase: what a learner would say when they talk about it. */
function cueStems(...phrases: string[]): Set<string> {
  const result = new Set<string>();
  for (const phrase of phrases) {
    for (const word of foldKeepingLength(phrase).split(/[^a-z0-9]+/)) {
      if (word && !STOP_WORDS.has(word)) result.add(porterStem(word));
    }
  }
  return result;
}

const QUESTION_START =
  /^\s*(what|what's|whats|where|when|why|how|who|which|can|could|do|does|did|is|are|should|may (?:i|we|you)|will|tell me|explain|i want to know|i'd like to know)\b/;
const CORRECTION =
  /\b(actually|sorry|i meant|i mean|correction|wait|make that|make it|change (?:it|that)|oops|instead)\b/;
const SKIP =
  /^\s*(skip|no|nope|nah|no thanks?|no,? thanks?|nothing(?: else)?|none|n\/?a|not really|that'?s all|that'?s it|i'?d rather not(?: say)?|rather not(?: say)?|pass)\b[\s,.!]*(?:thanks?|thank you)?[\s.!]*$/;
const UNCERTAIN = /\b(not sure|maybe|perhaps|don'?t know|dunno|no idea|not certain)\b/;
const NO_WORDS =
  /\b(no+|nope|nah|never|negative|not really|not at all|no way|i (?:do|did|have|was|am|would|will|could|can)(?:n'?t| not)|i'?m not|don'?t|didn'?t|haven'?t|wasn'?t|wouldn'?t|won'?t)\b/;
const YES_WORDS =
  /\b(yes+|yeah|yea|yep|yup|ya|sure|definitely|absolutely|certainly|of course|ok|okay|correct|right|indeed|totally|affirmative|please do|why not|y)\b|\bi (?:do|did|have|had|am|was|would|will|could|can)\b(?!\s*[a-z])/;
const NEGATION =
  /\b(not|no|never|nope|nah|without|don'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|isn'?t|haven'?t|hasn'?t)\b|n't\b/;

export function isQuestionMessage(message: string): boolean {
  const folded = foldKeepingLength(message.trim());
  return /\?\s*$/.test(folded) || QUESTION_START.test(folded);
}

function isEmailVariable(variable: ChatVariable): boolean {
  return (
    variable.type === 'text' &&
    (/e-?mail/i.test(`${variable.name} ${variable.title}`) ||
      (variable.validation?.pattern ?? '').includes('@'))
  );
}

function isNameVariable(variable: ChatVariable): boolean {
  return variable.type === 'text' && /\bname\b|_name\b|^name/i.test(`${variable.name} ${variable.title}`);
}

/** A text variable with a pattern other than an e-mail's, as a search expression; null when it has none or it is broken. */
function patternOf(variable: ChatVariable): RegExp | null {
  const pattern = variable.validation?.pattern;
  if (variable.type !== 'text' || !pattern || isEmailVariable(variable)) return null;
  try {
    const inner = pattern.replace(/^\^/, '').replace(/\$$/, '');
    return new RegExp(`(?<![A-Za-z0-9])(?:${inner})(?![A-Za-z0-9])`, 'i');
  } catch {
    return null;
  }
}

// ---- e-mail addresses ----------------------------------------------------------------

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/g;

function findEmails(folded: string): (Span & { value: string })[] {
  return [...folded.matchAll(EMAIL)].map((match) => ({
    value: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

// ---- dates ---------------------------------------------------------------------------

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Dates the message names, day-first for numeric dates ("03/06/2026" is 3
 * June: our customers write dates the European way). A month alone or a
 * time alone is no date; a weekday is ("last Friday"), unless the message
 * also names the day of the month ("Monday the 1st of June").
 */
function findDates(text: string, now: Date): DateCandidate[] {
  const reference = { instant: now, timezone: 0 };
  const candidates: DateCandidate[] = [];
  for (const found of chrono.en.parse(text, reference)) {
    // The British reading only for all-digit dates: it would read "June 15" as June 2015.
    const result = /^\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?$/.test(found.text)
      ? (chrono.en.GB.parse(found.text, reference)[0] ?? found)
      : found;
    const start = result.start;
    const isDayCertain = start.isCertain('day');
    if (!isDayCertain && !start.isCertain('weekday')) continue;
    const year = start.get('year');
    const month = start.get('month');
    const day = start.get('day');
    if (year === null || month === null || day === null) continue;
    candidates.push({
      value: isoDate(year, month, day),
      start: found.index,
      end: found.index + found.text.length,
      isDayCertain,
    });
  }
  return candidates.some((candidate) => candidate.isDayCertain)
    ? candidates.filter((candidate) => candidate.isDayCertain)
    : candidates;
}

// ---- numbers -------------------------------------------------------------------------

function parseDigits(raw: string): number {
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw)) return Number(raw.replace(/,/g, ''));
  // A lone comma is a decimal comma ("2,5").
  if (/^-?\d+,\d+$/.test(raw)) return Number(raw.replace(',', '.'));
  return Number(raw.replace(/,/g, ''));
}

/** After a number: "out of 10", "/10" (a scale, not a second number), "%", "percent", "k". */
function numberTail(folded: string, end: number): { end: number; factor: number } {
  const rest = folded.slice(end);
  const scale = /^\s*(?:\/\s*\d+|out of\s+(?:\d+|[a-z]+(?:[\s-][a-z]+)?))/.exec(rest);
  if (scale) {
    // "out of ten": only the number word belongs to the scale.
    const words = scale[0].trim().split(/[\s-]+/);
    const last = words[words.length - 1] ?? '';
    if (/\d/.test(last) || isNumberWord(last)) return { end: end + scale[0].length, factor: 1 };
    const shorter = /^\s*out of\s+[a-z]+/.exec(rest);
    if (shorter && isNumberWord(shorter[0].trim().split(/\s+/)[2] ?? ''))
      return { end: end + shorter[0].length, factor: 1 };
  }
  const percent = /^\s*(?:%|percent\b|per cent\b)/.exec(rest);
  if (percent) return { end: end + percent[0].length, factor: 1 };
  const thousands = /^k\b/.exec(rest);
  if (thousands) return { end: end + 1, factor: 1_000 };
  return { end, factor: 1 };
}

/** Words before "one" that make it a pronoun ("the second one", "no one"), not a number. */
const ONE_AS_PRONOUN = new Set([
  'the',
  'this',
  'that',
  'no',
  'any',
  'every',
  'each',
  'which',
  'another',
  'other',
  'last',
  'same',
  'right',
  'wrong',
  ...Object.keys(ORDINAL_WORDS),
]);

function findNumbers(folded: string, words: readonly Word[], used: readonly Span[]): NumberCandidate[] {
  const candidates: NumberCandidate[] = [];
  for (const match of folded.matchAll(/-?\d[\d,.]*\d|-?\d/g)) {
    const start = match.index;
    let end = start + match[0].length;
    const before = folded[start - 1] ?? ' ';
    const after = folded[end] ?? ' ';
    // Part of a word, an id ("E12345"), an ordinal ("15th"), a time or an address: not a quantity.
    if (/[a-z0-9@/:]/.test(before) || /[a-jl-z@:]/.test(after) || /^k[a-z]/.test(folded.slice(end))) continue;
    if (overlaps({ start, end }, used) || overlaps({ start, end }, candidates)) continue;
    const value = parseDigits(match[0]);
    if (!Number.isFinite(value)) continue;
    const tail = numberTail(folded, end);
    end = tail.end;
    candidates.push({ value: value * tail.factor, start, end });
  }

  const texts = words.map((word) => word.text);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (!word || overlaps(word, used) || overlaps(word, candidates)) continue;
    const starts =
      isNumberWord(word.text) ||
      ((word.text === 'a' || word.text === 'an') && isNumberWord(texts[index + 1] ?? ''));
    if (!starts) continue;
    const previous = texts[index - 1] ?? '';
    const isPronoun =
      ONE_AS_PRONOUN.has(previous) || /^\d+(?:st|nd|rd|th)$/.test(previous) || texts[index + 1] === 'of';
    if (word.text === 'one' && isPronoun) continue;
    const read = readNumberWords(texts, index);
    if (!read) continue;
    const last = words[index + read.length - 1] ?? word;
    const tail = numberTail(folded, last.end);
    candidates.push({ value: read.value * tail.factor, start: word.start, end: tail.end });
    index += read.length - 1;
  }
  return candidates.sort((a, b) => a.start - b.start);
}

// ---- choices -------------------------------------------------------------------------

function optionWords(option: string): string[] {
  return foldKeepingLength(option)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Where an option is named in the message, and how surely (3 exact … 1 a typo or a telling word). */
function matchOption(
  option: string,
  others: readonly string[],
  words: readonly Word[],
  isAsked: boolean,
): ChoiceMatch | null {
  const wanted = optionWords(option);
  if (wanted.length === 0) return null;
  let best: ChoiceMatch | null = null;
  const consider = (match: ChoiceMatch) => {
    const before = words.findLast((word) => word.end <= match.start);
    // "not engineering", "no vegan": the learner rules that option out.
    if (before && /^(not|no|never|nor|except|without)$/.test(before.text)) return;
    if (!best || match.strength > best.strength) best = match;
  };

  for (let index = 0; index + wanted.length <= words.length; index += 1) {
    const slice = words.slice(index, index + wanted.length);
    const first = slice[0];
    const last = slice[slice.length - 1];
    if (!first || !last) continue;
    const span = { start: first.start, end: last.end };
    if (slice.every((word, offset) => word.text === wanted[offset])) {
      consider({ ...span, option, strength: 3 });
    } else if (slice.every((word, offset) => word.stem === porterStem(wanted[offset] ?? ''))) {
      consider({ ...span, option, strength: 2.5 });
    } else if (
      isAsked &&
      slice.every((word, offset) => {
        const target = wanted[offset] ?? '';
        return (
          word.text === target ||
          (word.text.length >= 4 && target.length >= 4 && withinOneEdit(word.text, target))
        );
      })
    ) {
      consider({ ...span, option, strength: 1.5 });
    }
  }
  // Initials of a longer name: "HR" for "Human Resources".
  if (wanted.length >= 2) {
    const initials = wanted.map((word) => word[0]).join('');
    for (const word of words) if (word.text === initials) consider({ ...word, option, strength: 2 });
  }
  // One telling word of the option, when the question is about it: "support" for "Customer Support".
  if (isAsked && wanted.length >= 2) {
    const otherWords = new Set(others.filter((other) => other !== option).flatMap(optionWords));
    for (const target of wanted) {
      if (target.length < 4 || STOP_WORDS.has(target) || otherWords.has(target) || target in ORDINAL_WORDS)
        continue;
      for (const word of words) if (word.text === target) consider({ ...word, option, strength: 1 });
    }
  }
  return best;
}

/** "the second one", "option 2", "the last one", or a bare "2", when the options are listed. */
function pickByPosition(folded: string, options: readonly string[]): string | null {
  const ordinal =
    /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|1st|2nd|3rd|[4-9]th)\s+(?:one|option|choice|answer)\b/.exec(
      folded,
    );
  const numbered =
    /\b(?:option|number|choice|no\.?)\s*(\d{1,2})\b/.exec(folded) ?? /^\s*(\d{1,2})\s*[.!]?\s*$/.exec(folded);
  let position: number | null = null;
  if (ordinal) {
    const word = ordinal[1] ?? '';
    position = word === 'last' ? options.length : (ORDINAL_WORDS[word] ?? Number.parseInt(word, 10));
  } else if (numbered && !options.some((option) => /\d/.test(option))) {
    position = Number(numbered[1]);
  }
  if (position === null || position < 1 || position > options.length) return null;
  return options[position - 1] ?? null;
}

// ---- validation ----------------------------------------------------------------------

function formatDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  return `${day ?? ''} ${months[(month ?? 1) - 1] ?? ''} ${year ?? ''}`;
}

function listOptions(options: readonly string[]): string {
  if (options.length <= 1) return options.join('');
  return `${options.slice(0, -1).join(', ')} or ${options[options.length - 1] ?? ''}`;
}

function numberRange(variable: ChatVariable): string {
  const { min, max } = variable.validation ?? {};
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function dateRange(variable: ChatVariable): string {
  const { minDate, maxDate } = variable.validation ?? {};
  if (minDate && maxDate) return ` between ${formatDate(minDate)} and ${formatDate(maxDate)}`;
  if (minDate) return ` on or after ${formatDate(minDate)}`;
  if (maxDate) return ` on or before ${formatDate(maxDate)}`;
  return '';
}

/** What to tell a learner whose answer for `variable` could not be read at all. */
export function missingValueMessage(variable: ChatVariable): string {
  switch (variable.type) {
    case 'number':
      return `Please give a number${numberRange(variable)}.`;
    case 'date':
      return `Please give a date${dateRange(variable)}, for example ${formatDate(variable.validation?.minDate ?? '2026-06-12')}.`;
    case 'boolean':
      return 'Please answer yes or no.';
    case 'choice':
      return `Please choose one of: ${listOptions(variable.options ?? [])}.`;
    case 'text':
      if (isEmailVariable(variable))
        return "That doesn't look like an e-mail address; please type it like name@example.com.";
      if (patternOf(variable)) return `That doesn't look like a valid ${variable.title}.`;
      return `Please tell me your ${variable.title.toLowerCase()}.`;
  }
}

/** Why a value cannot be kept for a variable, or null when it can. */
export function validateValue(variable: ChatVariable, value: CapturedValue): string | null {
  const rules = variable.validation ?? {};
  switch (variable.type) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return missingValueMessage(variable);
      const outside =
        (rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max);
      return outside ? `Please give a number${numberRange(variable)}.` : null;
    }
    case 'date': {
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
        return missingValueMessage(variable);
      const outside = (rules.minDate && value < rules.minDate) || (rules.maxDate && value > rules.maxDate);
      return outside ? `Please give a date${dateRange(variable)}.` : null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : missingValueMessage(variable);
    case 'choice':
      return typeof value === 'string' && (variable.options ?? []).includes(value)
        ? null
        : missingValueMessage(variable);
    case 'text': {
      if (typeof value !== 'string' || value.trim() === '') return missingValueMessage(variable);
      if (rules.maxLength !== undefined && value.length > rules.maxLength) {
        return `Please keep it under ${rules.maxLength} characters.`;
      }
      if (
        isEmailVariable(variable) &&
        !/^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(value)
      ) {
        return missingValueMessage(variable);
      }
      if (rules.pattern) {
        try {
          if (!new RegExp(rules.pattern, 'i').test(value))
            return `That doesn't look like a valid ${variable.title}.`;
        } catch {
          // A broken pattern is the author's mistake, not the learner's: accept the answer.
        }
      }
      return null;
    }
  }
}

// ---- free text -----------------------------------------------------------------------

const GREETING = /^\s*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b[\s,!.]*/i;
const NAME_LEAD_IN =
  /^\s*(?:(?:my (?:full |first |last )?name is|my name's|i am|i'm|im|this is|call me|it's|it is)\b|name\s*[:=-])\s*/i;
const CLAUSE_END = /\s*(?:[,;!?]|\.(?:\s|$)|\s(?:and|but)\s)/i;

/** The start of the clause a span sits in: after the last comma, semicolon or "and"/"but" before it. */
function clauseStart(text: string, position: number): number {
  const before = text.slice(0, position);
  let start = 0;
  for (const match of before.matchAll(/[,;]\s*|\s(?:and|but)\s+/gi)) start = match.index + match[0].length;
  return start;
}

/** The learner's answer to a free-text question, without greetings and lead-ins, cut before values of other variables. */
function freeTextAnswer(text: string, variable: ChatVariable, otherSpans: readonly Span[]): string {
  let answer = text;
  const first = [...otherSpans].sort((a, b) => a.start - b.start)[0];
  if (first) {
    const start = clauseStart(text, first.start);
    // The clause before the other value, with its separator dropped.
    answer = text.slice(0, start).replace(/(?:[,;]|\s(?:and|but))\s*$/i, '');
    if (!answer.trim()) answer = text.slice(0, first.start);
  }
  const colon = answer.lastIndexOf(':');
  if (colon >= 0 && colon < answer.length - 1) answer = answer.slice(colon + 1);
  answer = answer.replace(GREETING, '');
  if (isNameVariable(variable)) answer = answer.replace(NAME_LEAD_IN, '');
  const title = foldKeepingLength(variable.title).replace(/[^a-z0-9]+/g, '[\\s_-]*');
  answer = answer.replace(new RegExp(`^\\s*(?:my|the)\\s+${title}\\s+(?:is|=|:)\\s*`, 'i'), '');
  answer = answer.trim().replace(/[\s,;:]+$/, '');
  // A short answer is a label ("Anna Schmidt."), a longer one a sentence that keeps its full stop.
  if (answer.split(/\s+/).length <= 4) answer = answer.replace(/[.!]+$/, '');
  return answer.trim();
}

/** A text variable's value named outright in a message about something else: "my name is …", "employee ID: …". */
function cuedText(text: string, variable: ChatVariable): (Span & { value: string }) | null {
  const title = foldKeepingLength(variable.title).replace(/[^a-z0-9]+/g, '[\\s_-]*');
  const leads = [`\\bmy\\s+${title}\\s+is\\s+`, `\\b${title}\\s*[:=]\\s*`];
  if (isNameVariable(variable)) leads.push('\\bmy name is\\s+', "\\bmy name's\\s+", '\\bcall me\\s+');
  for (const lead of leads) {
    const match = new RegExp(lead, 'i').exec(text);
    if (!match) continue;
    const start = match.index + match[0].length;
    const rest = text.slice(start);
    const end = CLAUSE_END.exec(rest);
    const value = rest.slice(0, end ? end.index : rest.length).trim();
    if (value) return { value, start: match.index, end: start + value.length };
  }
  // "I'm Tom Baker": only with a capital, so "I'm vegetarian" names no one.
  if (isNameVariable(variable)) {
    const match =
      /\b(?:i'm|i am)\s+((?:[A-Z][\w'-]*)(?:\s+(?:[A-Z][\w'-]*|de|van|von|da|di|del|der|le|la|bin|al))*)/.exec(
        text,
      );
    if (match?.[1]) return { value: match[1], start: match.index, end: match.index + match[0].length };
  }
  return null;
}

// ---- booleans ------------------------------------------------------------------------

function firstYesNo(folded: string): boolean | null {
  const no = NO_WORDS.exec(folded);
  const yes = YES_WORDS.exec(folded);
  if (no && (!yes || no.index <= yes.index)) return false;
  if (yes) return true;
  return null;
}

/** The clause (between commas, "and", "but") that holds a position. */
function clauseAround(folded: string, position: number): string {
  const start = clauseStart(folded, position);
  const rest = folded.slice(position);
  const end = /[,;.!?]|\s(?:and|but)\s/.exec(rest);
  return folded.slice(start, end ? position + end.index : folded.length);
}

// ---- putting it together -------------------------------------------------------------

/**
 * Reads one learner message into values for the agent's variables. Values go
 * to the variable just asked about, or to another one the message names; a
 * variable captured earlier changes only when the learner corrects it
 * ("actually", "sorry, I meant") or it is the one asked about.
 */
export function fillSlots(input: SlotInput): SlotResult {
  const text = input.message.slice(0, MAX_MESSAGE_CHARS);
  const folded = foldKeepingLength(text);
  const words = wordsOf(folded);
  const variables = input.variables;
  const asked = variables.find((variable) => variable.name === input.askedVariable) ?? null;
  const isQuestion = isQuestionMessage(text);
  const isCorrection = CORRECTION.test(folded);

  const values: Record<string, CapturedValue> = {};
  const problems: SlotProblem[] = [];
  const used: Span[] = [];
  /** Spans that became values of variables other than a free-text one being asked. */
  const valueSpans: Span[] = [];

  const isOpen = (variable: ChatVariable) =>
    !(variable.name in values) &&
    !problems.some((problem) => problem.variable === variable.name) &&
    (variable === asked || !(variable.name in input.captured) || isCorrection);
  const give = (variable: ChatVariable, value: CapturedValue, span: Span | null) => {
    if (span) {
      used.push(span);
      valueSpans.push(span);
    }
    const problem = validateValue(variable, value);
    if (problem) problems.push({ variable: variable.name, kind: 'invalid', message: problem });
    else values[variable.name] = value;
  };

  if (asked && !asked.required && SKIP.test(folded)) {
    return { values, problems, skipped: true, isQuestion: false };
  }

  // Identifiers with a pattern and e-mail addresses are unmistakable, even in a question.
  for (const variable of variables) {
    const pattern = patternOf(variable);
    if (!pattern || !isOpen(variable)) continue;
    const match = pattern.exec(text);
    if (match) give(variable, match[0], { start: match.index, end: match.index + match[0].length });
  }
  const emails = findEmails(folded);
  for (const email of emails) {
    const target =
      (asked && isEmailVariable(asked) && isOpen(asked) ? asked : null) ??
      variables.find((variable) => isEmailVariable(variable) && isOpen(variable));
    if (target) give(target, email.value, email);
    else used.push(email);
  }
  for (const variable of variables) {
    if (variable.type !== 'text' || variable === asked || patternOf(variable) || isEmailVariable(variable))
      continue;
    if (!isOpen(variable)) continue;
    const cued = cuedText(text, variable);
    if (cued && !overlaps(cued, used)) give(variable, cued.value.slice(0, MAX_MESSAGE_CHARS), cued);
  }

  // A question is answered from the knowledge; only the unmistakable values above count.
  if (!isQuestion) {
    readTypedValues();
    readAskedText();
  }

  // The asked variable got nothing: say what was expected, unless the
  // message did something else (gave other values, asked a question).
  if (
    asked &&
    !isQuestion &&
    !(asked.name in values) &&
    !problems.some((problem) => problem.variable === asked.name) &&
    Object.keys(values).length === 0
  ) {
    problems.push({ variable: asked.name, kind: 'missing', message: missingValueMessage(asked) });
  }
  return { values, problems, skipped: false, isQuestion };

  function readTypedValues() {
    // Choices: an option's name is its own cue.
    for (const variable of variables) {
      if (variable.type !== 'choice' || !isOpen(variable)) continue;
      const options = variable.options ?? [];
      const isAsked = variable === asked;
      const byPosition = isAsked ? pickByPosition(folded, options) : null;
      if (byPosition) {
        give(variable, byPosition, null);
        continue;
      }
      const matches = options
        .map((option) => matchOption(option, options, words, isAsked))
        .filter((match): match is ChoiceMatch => match !== null && !overlaps(match, used))
        .filter((match) => isAsked || match.strength >= 2);
      // "extra large" names "Extra large", not also "Large".
      const outer = matches.filter(
        (match) =>
          !matches.some(
            (other) =>
              other !== match &&
              other.strength >= match.strength &&
              other.start <= match.start &&
              other.end >= match.end &&
              other.end - other.start > match.end - match.start,
          ),
      );
      matches.splice(0, matches.length, ...outer);
      const top = Math.max(...matches.map((match) => match.strength));
      const best = matches.filter((match) => match.strength === top);
      const [only] = best;
      if (best.length === 1 && only) give(variable, only.option, only);
      else if (best.length > 1 && isAsked) {
        problems.push({
          variable: variable.name,
          kind: 'ambiguous',
          message: `Did you mean ${listOptions(best.map((m) => m.option))}?`,
        });
      }
    }

    const cuesOf = (variable: ChatVariable) => cueStems(variable.title, variable.name.replace(/_/g, ' '));
    /** True when a cue word of the variable stands just before or after the span. */
    const isCued = (variable: ChatVariable, span: Span) => {
      const cues = cuesOf(variable);
      const index = words.findIndex((word) => word.start >= span.end);
      const after = (index === -1 ? [] : words.slice(index, index + 2)).filter(
        (word) => !overlaps(word, used),
      );
      const beforeWords = words.filter((word) => word.end <= span.start).slice(-3);
      return [...beforeWords, ...after].some((word) => cues.has(word.stem));
    };
    /** A value no variable names: the asked variable takes it, or, in a correction, the one just captured. */
    const fallback = (type: ChatVariable['type']) => {
      if (asked && asked.type === type && isOpen(asked)) return asked;
      if (!isCorrection) return null;
      return (
        variables.find(
          (variable) =>
            variable.type === type && input.lastCaptured.includes(variable.name) && isOpen(variable),
        ) ?? null
      );
    };

    const dateVariables = variables.filter((variable) => variable.type === 'date');
    if (dateVariables.length > 0) {
      const dates = findDates(text, input.now).filter((date) => !overlaps(date, used));
      for (const date of dates) used.push(date);
      for (const date of dates) {
        const open = dateVariables.filter(isOpen);
        // With one date to ask for, a date anywhere in the message is that one.
        const target =
          open.find((variable) => isCued(variable, date)) ??
          fallback('date') ??
          (dateVariables.length === 1 ? open[0] : undefined);
        if (target) give(target, date.value, date);
      }
    }

    const numberVariables = variables.filter((variable) => variable.type === 'number');
    if (numberVariables.length > 0) {
      const numbers = findNumbers(folded, words, used);
      for (const number of numbers) {
        const cued = numberVariables.find((variable) => isOpen(variable) && isCued(variable, number));
        if (cued) give(cued, number.value, number);
      }
      for (const number of numbers) {
        if (overlaps(number, used)) continue;
        const target = fallback('number');
        if (target) give(target, number.value, number);
      }
      // "none" answers "how many".
      if (
        asked?.type === 'number' &&
        isOpen(asked) &&
        numbers.length === 0 &&
        /\b(none|zero|nothing)\b/.test(folded)
      ) {
        give(asked, 0, null);
      }
    }

    for (const variable of variables) {
      if (variable.type !== 'boolean' || !isOpen(variable)) continue;
      if (variable === asked) {
        if (UNCERTAIN.test(folded)) continue;
        const said = firstYesNo(folded);
        if (said !== null) {
          give(variable, said, null);
          continue;
        }
      }
      // "no parking needed", "would recommend it", "passed first time": the
      // variable's own words, negated or not in their clause.
      const cues = cueStems(variable.title, variable === asked ? variable.question : '');
      const found = words.filter((word) => cues.has(word.stem) && !overlaps(word, used));
      const titleCues = cueStems(variable.title);
      const titleFound = new Set(found.filter((word) => titleCues.has(word.stem)).map((word) => word.stem));
      const enough =
        variable === asked ? found.length > 0 : titleFound.size >= Math.max(1, titleCues.size / 2);
      const [first] = found;
      if (enough && first) give(variable, !NEGATION.test(clauseAround(folded, first.start)), null);
    }
  }

  function readAskedText() {
    if (!asked || asked.type !== 'text' || !isOpen(asked) || patternOf(asked) || isEmailVariable(asked))
      return;
    const answer = freeTextAnswer(text, asked, valueSpans);
    if (answer) give(asked, answer, null);
  }
}
