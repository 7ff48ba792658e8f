/**
 * The response patterns of xAPI 1.0.3 interaction activities ("Interaction
 * Activities" in the specification's Data part): a learner's
 * `result.response` and an activity's `correctResponsesPattern` use the same
 * format, so one parser serves both. Items are delimited by `[,]`, the two
 * halves of a matching pair or a performance step by `[.]`, the ends of a
 * numeric range by `[:]`; fill-in texts may start with `{case_matters=…}`,
 * `{order_matters=…}` and `{lang=…}` parameters.
 *
 * Nothing here throws: the statement was validated for its shape only, and a
 * badly formatted response is still worth showing as sent.
 */

import { XAPI_INTERACTION_TYPES, type XapiInteractionType } from '@courselens/contracts';

export const INTERACTION_TYPES = XAPI_INTERACTION_TYPES;
export type InteractionType = XapiInteractionType;

/** An xAPI language map: RFC 5646 tag → text. */
export type LanguageMap = Readonly<Record<string, string>>;

export type InteractionComponent = { readonly id: string; readonly description?: LanguageMap };

/** The interaction component lists of an activity definition that name the ids of a response. */
export type InteractionDefinition = {
  readonly choices?: readonly InteractionComponent[];
  readonly scale?: readonly InteractionComponent[];
  readonly source?: readonly InteractionComponent[];
  readonly target?: readonly InteractionComponent[];
  readonly steps?: readonly InteractionComponent[];
};

const ITEM_DELIMITER = '[,]';
const PAIR_DELIMITER = '[.]';
const RANGE_DELIMITER = '[:]';

/**
 * The text of a language map for a person: en-US, then en, then the first
 * language given (tags compared without case, as RFC 5646 says); blank
 * values are skipped. Null when there is no text.
 */
export function preferredText(map: LanguageMap | undefined): string | null {
  if (!map) return null;
  const entries = Object.entries(map).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
  );
  const tagged = (tag: string) => entries.find(([key]) => key.toLowerCase() === tag)?.[1];
  return (tagged('en-us') ?? tagged('en') ?? entries[0]?.[1])?.trim() ?? null;
}

/** An unknown interactionType is read as `other`: its response has no known structure. */
function typeOf(interactionType: string): InteractionType {
  return (INTERACTION_TYPES as readonly string[]).includes(interactionType)
    ? (interactionType as InteractionType)
    : 'other';
}

/** The items of a delimited list; an empty string is an empty list (nothing selected). */
function itemsOf(text: string): string[] {
  return text === '' ? [] : text.split(ITEM_DELIMITER);
}

/**
 * Names component ids by their descriptions (the id itself where there is
 * none). One lookup table per list, so a long response costs no more than
 * its length.
 */
function labeler(components: readonly InteractionComponent[] | undefined): (id: string) => string {
  const descriptions = new Map<string, LanguageMap | undefined>();
  for (const component of components ?? []) {
    if (!descriptions.has(component.id)) descriptions.set(component.id, component.description);
  }
  return (id) => preferredText(descriptions.get(id)) ?? id;
}

type ListParameters = { caseMatters: boolean; orderMatters: boolean; body: string };

const LIST_PARAMETER = /^\{(case_matters|order_matters|lang)=([^}]*)\}/;
const LANG_PARAMETER = /^\{lang=[^}]*\}/;

/**
 * The characterstring parameters at the start of a fill-in or performance
 * list, and the list without them. `{lang=…}` there belongs to the first
 * item and is dropped with the others; a value other than true or false is
 * ignored (the specification leaves invalid ones to the reader's judgement).
 */
function readParameters(text: string): ListParameters {
  const parameters: ListParameters = { caseMatters: false, orderMatters: true, body: text };
  for (
    let match = LIST_PARAMETER.exec(parameters.body);
    match;
    match = LIST_PARAMETER.exec(parameters.body)
  ) {
    const [whole, name, value] = match;
    const flag = value === 'true' ? true : value === 'false' ? false : null;
    if (flag !== null && name === 'case_matters') parameters.caseMatters = flag;
    if (flag !== null && name === 'order_matters') parameters.orderMatters = flag;
    parameters.body = parameters.body.slice(whole.length);
  }
  return parameters;
}

/** A fill-in item as compared and shown: without its `{lang=…}` and surrounding whitespace. */
function plainItem(item: string): string {
  return item.replace(LANG_PARAMETER, '').trim();
}

/** A fill-in item as compared: NFC, and lower-cased unless case matters. */
function comparable(text: string, caseMatters: boolean): string {
  const normalized = text.normalize('NFC');
  return caseMatters ? normalized : normalized.toLowerCase();
}

function sameText(expected: string, actual: string, caseMatters: boolean): boolean {
  return comparable(expected, caseMatters) === comparable(actual, caseMatters);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** Inclusive; null is an open side. */
type NumericRange = { min: number | null; max: number | null };

/**
 * A numeric response or pattern as a range: `a[:]b`, `a[:]`, `[:]b`, or a
 * single number (a range of one value). Null when it is not numeric.
 */
function parseRange(text: string): NumericRange | null {
  if (!text.includes(RANGE_DELIMITER)) {
    const value = parseNumber(text);
    return value === null ? null : { min: value, max: value };
  }
  const sides = text.split(RANGE_DELIMITER);
  if (sides.length !== 2) return null;
  const [low = '', high = ''] = sides;
  const min = low.trim() === '' ? null : parseNumber(low);
  const max = high.trim() === '' ? null : parseNumber(high);
  if ((low.trim() !== '' && min === null) || (high.trim() !== '' && max === null)) return null;
  return { min, max };
}

/** Whether every number of `inner` lies in `outer`. */
function rangeContains(outer: NumericRange, inner: NumericRange): boolean {
  const aboveMin = outer.min === null || (inner.min !== null && inner.min >= outer.min);
  const belowMax = outer.max === null || (inner.max !== null && inner.max <= outer.max);
  return aboveMin && belowMax;
}

function formatRange(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.includes(RANGE_DELIMITER)) return trimmed;
  const [low = '', high = ''] = trimmed.split(RANGE_DELIMITER).map((side) => side.trim());
  if (low && high) return `${low} to ${high}`;
  if (low) return `at least ${low}`;
  if (high) return `at most ${high}`;
  return 'any number';
}

/**
 * The specification's own performance example writes ranges with a bare
 * colon (`1:`, `:10`), so a step value made only of numbers around one
 * colon is read as a range too.
 */
function stepRange(value: string): NumericRange | null {
  if (value.includes(RANGE_DELIMITER)) return parseRange(value);
  const sides = value.split(':');
  if (sides.length !== 2 || sides.every((side) => side.trim() === '')) return null;
  return parseRange(sides.join(RANGE_DELIMITER));
}

type Step = { id: string; value: string };

function stepsOf(body: string): Step[] {
  return itemsOf(body).map((item) => {
    const at = item.indexOf(PAIR_DELIMITER);
    return at < 0
      ? { id: item.trim(), value: '' }
      : { id: item.slice(0, at).trim(), value: plainItem(item.slice(at + PAIR_DELIMITER.length)) };
  });
}

function formatStepValue(value: string): string {
  const range = stepRange(value);
  if (!range) return value;
  return formatRange(value.includes(RANGE_DELIMITER) ? value : value.replace(':', RANGE_DELIMITER));
}

/**
 * A learner's response (or a correct response pattern) as text for a
 * person: component ids become their descriptions where the definition has
 * them, delimiters become punctuation, parameters are dropped.
 */
export function formatResponse(
  interactionType: string,
  response: string,
  definition?: InteractionDefinition,
): string {
  const type = typeOf(interactionType);
  switch (type) {
    case 'choice':
    case 'sequencing': {
      const choice = labeler(definition?.choices);
      const ids = itemsOf(response).map((id) => choice(id.trim()));
      return ids.join(type === 'sequencing' ? ' → ' : ', ');
    }
    case 'matching': {
      const source = labeler(definition?.source);
      const target = labeler(definition?.target);
      return itemsOf(response)
        .map((pair) => {
          const at = pair.indexOf(PAIR_DELIMITER);
          if (at < 0) return source(pair.trim());
          return `${source(pair.slice(0, at).trim())} → ${target(pair.slice(at + PAIR_DELIMITER.length).trim())}`;
        })
        .join(', ');
    }
    case 'likert':
      return labeler(definition?.scale)(response.trim());
    case 'true-false': {
      const value = response.trim().toLowerCase();
      return value === 'true' || value === 'false' ? value : response;
    }
    case 'numeric':
      return formatRange(response);
    case 'fill-in':
    case 'long-fill-in':
      return itemsOf(readParameters(response).body).map(plainItem).join(', ');
    case 'performance': {
      const label = labeler(definition?.steps);
      return stepsOf(readParameters(response).body)
        .map(({ id, value }) => {
          const step = label(id);
          return value === '' ? step : `${step}: ${formatStepValue(value)}`;
        })
        .join(', ');
    }
    case 'other':
      return response;
  }
}

/**
 * Steps beyond which an unordered performance response is not judged: the
 * pairing below grows with the square of the steps, and a statement is
 * sent by anyone holding a key. Real interactions have a handful.
 */
const MAX_UNORDERED_STEPS = 200;

/**
 * Whether each expected item can be paired with its own actual item
 * (a bipartite matching, so that a loose rule such as a numeric range
 * cannot take the item another expected one needed).
 */
function matchInAnyOrder<E, A>(
  expected: readonly E[],
  actual: readonly A[],
  matches: (expected: E, actual: A) => boolean,
): boolean {
  if (expected.length !== actual.length) return false;
  const edges = expected.map((e) => actual.map((a) => matches(e, a)));
  const owner: number[] = actual.map(() => -1);
  const assign = (e: number, seen: boolean[]): boolean => {
    const row = edges[e] ?? [];
    for (let a = 0; a < actual.length; a += 1) {
      if (!row[a] || seen[a]) continue;
      seen[a] = true;
      const previous = owner[a] ?? -1;
      if (previous < 0 || assign(previous, seen)) {
        owner[a] = e;
        return true;
      }
    }
    return false;
  };
  return expected.every((_, e) =>
    assign(
      e,
      actual.map(() => false),
    ),
  );
}

function matchInOrder<E, A>(
  expected: readonly E[],
  actual: readonly A[],
  matches: (expected: E, actual: A) => boolean,
): boolean {
  return (
    expected.length === actual.length &&
    expected.every((e, i) => i < actual.length && matches(e, actual[i] as A))
  );
}

/** Whether both lists hold the same items, each as many times. */
function sameMultiset(expected: readonly string[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  const counts = new Map<string, number>();
  for (const item of expected) counts.set(item, (counts.get(item) ?? 0) + 1);
  for (const item of actual) {
    const left = counts.get(item) ?? 0;
    if (left === 0) return false;
    counts.set(item, left - 1);
  }
  return true;
}

function sameSet(expected: readonly string[], actual: readonly string[]): boolean {
  const a = new Set(expected);
  const b = new Set(actual);
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function normalizedPair(pair: string): string {
  const at = pair.indexOf(PAIR_DELIMITER);
  if (at < 0) return pair.trim();
  return `${pair.slice(0, at).trim()}${PAIR_DELIMITER}${pair.slice(at + PAIR_DELIMITER.length).trim()}`;
}

function numericMatches(pattern: string, response: string): boolean {
  const expected = parseRange(pattern);
  const actual = parseRange(response);
  if (!expected || !actual) return pattern.trim() === response.trim();
  return rangeContains(expected, actual);
}

function stepValueMatches(expected: string, actual: string, caseMatters: boolean): boolean {
  // An empty value in the pattern (the specification's `lunch[.]`) asks only that the step was done.
  if (expected === '' || sameText(expected, actual, caseMatters)) return true;
  const range = stepRange(expected);
  if (range) {
    const given = parseRange(actual);
    return given !== null && rangeContains(range, given);
  }
  return sameText(expected, actual, caseMatters);
}

/** Null when the response cannot be judged (an unordered performance too long to pair). */
function matchesPattern(type: InteractionType, response: string, pattern: string): boolean | null {
  switch (type) {
    case 'true-false':
      return response.trim() === pattern.trim();
    case 'choice':
      return sameSet(
        itemsOf(pattern).map((id) => id.trim()),
        itemsOf(response).map((id) => id.trim()),
      );
    case 'sequencing':
      return matchInOrder(
        itemsOf(pattern).map((id) => id.trim()),
        itemsOf(response).map((id) => id.trim()),
        (e, a) => e === a,
      );
    case 'matching':
      return sameSet(itemsOf(pattern).map(normalizedPair), itemsOf(response).map(normalizedPair));
    case 'fill-in':
    case 'long-fill-in': {
      const { caseMatters, orderMatters, body } = readParameters(pattern);
      const expected = itemsOf(body).map((item) => comparable(plainItem(item), caseMatters));
      const actual = itemsOf(readParameters(response).body).map((item) =>
        comparable(plainItem(item), caseMatters),
      );
      return orderMatters
        ? matchInOrder(expected, actual, (e, a) => e === a)
        : sameMultiset(expected, actual);
    }
    case 'numeric':
      return numericMatches(pattern, response);
    case 'performance': {
      const { caseMatters, orderMatters, body } = readParameters(pattern);
      const expected = stepsOf(body);
      const actual = stepsOf(readParameters(response).body);
      const equal = (e: Step, a: Step) => e.id === a.id && stepValueMatches(e.value, a.value, caseMatters);
      if (orderMatters) return matchInOrder(expected, actual, equal);
      if (expected.length !== actual.length) return false;
      return expected.length > MAX_UNORDERED_STEPS ? null : matchInAnyOrder(expected, actual, equal);
    }
    case 'likert':
    case 'other':
      return response === pattern;
  }
}

/**
 * Whether `response` is correct: true when it matches any of the patterns.
 * Null when the activity gives no pattern (any answer is fine, e.g. a
 * survey), and for likert and other an empty list too, since a scale or a
 * free format has no wrong answer to judge; for the other types an empty
 * list means, as the specification says, that every answer is wrong.
 * Also null when the only way it could match is an unordered performance
 * of more than 200 steps, which is not judged.
 */
export function judgeResponse(
  interactionType: string,
  response: string,
  correctResponsesPattern: readonly string[] | undefined,
): boolean | null {
  if (!correctResponsesPattern) return null;
  const type = typeOf(interactionType);
  if (correctResponsesPattern.length === 0) return type === 'likert' || type === 'other' ? null : false;
  const verdicts = correctResponsesPattern.map((pattern) => matchesPattern(type, response, pattern));
  if (verdicts.includes(true)) return true;
  return verdicts.includes(null) ? null : false;
}

/** The first correct response pattern as text for a person (as `formatResponse` shows a response); null without one. */
export function describeCorrectResponse(
  interactionType: string,
  correctResponsesPattern: readonly string[] | undefined,
  definition?: InteractionDefinition,
): string | null {
  const first = correctResponsesPattern?.[0];
  return first === undefined ? null : formatResponse(interactionType, first, definition);
}
