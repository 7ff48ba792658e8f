import { GENERIC_NAME_WORDS, GENERIC_TITLE_WORDS, JOINERS } from './lexicon';
import { stems, type Token } from './text';
import type { CatalogCourse, CatalogVariable, GeneratorCatalog } from './types';

// Names as names: a course, a variable or a value is mentioned when the words
// of its name appear together in the sentence, not when one of them appears
// somewhere. A course is named by any word that tells it from the others
// ("safety", "gdpr", "new hire"); a variable by all the significant words of
// its name or title ("time spent", "safety check", "nps"), so "complete" in
// "how many completed" is not "IT setup complete". Where two names claim the
// same words, the one that covers more of them wins ("fire safety" is the
// Fire Safety course, "new managers" the course for new managers).

export type CourseMention = {
  kind: 'course';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** Every course that matches as well as the best one (more than one: ask back). */
  courses: CatalogCourse[];
};

export type VariableMention = {
  kind: 'variable';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** Variables by name: each name's variables across courses (several names: ask back). */
  names: { name: string; variables: CatalogVariable[] }[];
};

export type ValueMention = {
  kind: 'value';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** The variable names that have this value, and the value as stored. */
  values: { variableName: string; value: string }[];
};

export type Mention = CourseMention | VariableMention | ValueMention;

/** A name's words; `required` must all appear, or (courses) any one of them. */
type Phrasing = { words: readonly string[]; required: readonly string[]; needsAll: boolean };

type Candidate =
  | { kind: 'course'; course: CatalogCourse; phrasing: Phrasing }
  | { kind: 'variable'; variable: CatalogVariable; phrasing: Phrasing }
  | { kind: 'value'; variableName: string; value: string; phrasing: Phrasing };

function nameWords(text: string): string[] {
  return [...new Set(stems(text.replace(/\(.*?\)/g, ' ').replace(/_/g, ' ')))].filter(
    (word) => !JOINERS.has(word) && !/^\d+$/.test(word),
  );
}

function coursePhrasing(title: string): Phrasing {
  const titleWords = nameWords(title);
  // People name a course by any word that tells it apart: "safety", "gdpr", "new hire".
  return {
    words: titleWords,
    required: titleWords.filter((word) => !GENERIC_TITLE_WORDS.has(word)),
    needsAll: false,
  };
}

function variablePhrasing(text: string): Phrasing | null {
  const all = nameWords(text).filter((word) => word !== 'it' && word !== 'would');
  if (all.length === 0) return null;
  const significant = all.filter((word) => !GENERIC_NAME_WORDS.has(word));
  return { words: all, required: significant.length > 0 ? significant : all, needsAll: true };
}

export type CatalogIndex = {
  candidates: Candidate[];
  /** Every word of every name, for typo correction. */
  vocabulary: Set<string>;
};

export function indexCatalog(catalog: GeneratorCatalog): CatalogIndex {
  const candidates: Candidate[] = [];
  const vocabulary = new Set<string>();
  for (const course of catalog.courses) {
    const phrasing = coursePhrasing(course.courseTitle);
    phrasing.words.forEach((word) => vocabulary.add(word));
    if (phrasing.required.length > 0) candidates.push({ kind: 'course', course, phrasing });
  }
  for (const variable of catalog.variables) {
    for (const text of new Set([variable.name, variable.title ?? ''])) {
      const phrasing = variablePhrasing(text);
      if (!phrasing) continue;
      phrasing.words.forEach((word) => vocabulary.add(word));
      candidates.push({ kind: 'variable', variable, phrasing });
    }
  }
  for (const { variableName, values } of catalog.values ?? []) {
    for (const value of values) {
      const valueWords = nameWords(value);
      // One- and two-letter values ("IT", "x") are too easily words of the sentence.
      if (valueWords.length === 0 || value.trim().length < 3) continue;
      valueWords.forEach((word) => vocabulary.add(word));
      candidates.push({
        kind: 'value',
        variableName,
        value,
        phrasing: { words: valueWords, required: valueWords, needsAll: true },
      });
    }
  }
  for (const question of catalog.questions) {
    stems(question.questionText ?? '').forEach((word) => vocabulary.add(word));
  }
  return { candidates, vocabulary };
}

type Found = { candidate: Candidate; start: number; end: number; coverage: number };

/** Runs of the sentence made of the name's words (joiners allowed inside) that hold every required word. */
function findRuns(tokens: readonly Token[], phrasing: Phrasing, isFree: (index: number) => boolean) {
  const runs: { start: number; end: number; coverage: number }[] = [];
  const nameSet = new Set(phrasing.words);
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token || !isFree(i) || !nameSet.has(token.stem)) {
      i += 1;
      continue;
    }
    let end = i + 1;
    let lastName = i;
    while (end < tokens.length && isFree(end)) {
      const stem = tokens[end]?.stem ?? '';
      if (nameSet.has(stem)) lastName = end;
      else if (!JOINERS.has(stem)) break;
      end += 1;
    }
    const covered = new Set(tokens.slice(i, lastName + 1).map((item) => item.stem));
    const isNamed = phrasing.needsAll
      ? phrasing.required.every((word) => covered.has(word))
      : phrasing.required.some((word) => covered.has(word));
    if (isNamed) {
      runs.push({
        start: i,
        end: lastName + 1,
        coverage: [...covered].filter((word) => nameSet.has(word)).length,
      });
    }
    i = lastName + 1;
  }
  return runs;
}

const KIND_ORDER: Record<Mention['kind'], number> = { variable: 0, course: 1, value: 2 };

/**
 * The mentions of names in the sentence, longest first, none overlapping.
 * Names that match the same words equally well stay together in one mention.
 */
export function findMentions(
  tokens: readonly Token[],
  index: CatalogIndex,
  isFree: (index: number) => boolean,
): Mention[] {
  const found: Found[] = [];
  for (const candidate of index.candidates) {
    for (const run of findRuns(tokens, candidate.phrasing, isFree)) found.push({ candidate, ...run });
  }
  found.sort(
    (a, b) =>
      b.coverage - a.coverage ||
      b.end - b.start - (a.end - a.start) ||
      KIND_ORDER[a.candidate.kind] - KIND_ORDER[b.candidate.kind] ||
      a.start - b.start,
  );
  const mentions: Mention[] = [];
  const taken = new Set<number>();
  for (const entry of found) {
    const span = range(entry.start, entry.end);
    const same = mentions.find(
      (mention) =>
        mention.start === entry.start &&
        mention.end === entry.end &&
        mention.coverage === entry.coverage &&
        mention.kind === entry.candidate.kind,
    );
    if (same) {
      addTo(same, entry.candidate);
      continue;
    }
    if (span.some((position) => taken.has(position))) continue;
    span.forEach((position) => taken.add(position));
    const phrase = tokens
      .slice(entry.start, entry.end)
      .map((token) => token.surface)
      .join(' ');
    const base = { start: entry.start, end: entry.end, coverage: entry.coverage, phrase };
    const mention: Mention =
      entry.candidate.kind === 'course'
        ? { kind: 'course', ...base, courses: [] }
        : entry.candidate.kind === 'variable'
          ? { kind: 'variable', ...base, names: [] }
          : { kind: 'value', ...base, values: [] };
    addTo(mention, entry.candidate);
    mentions.push(mention);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

function addTo(mention: Mention, candidate: Candidate): void {
  if (mention.kind === 'course' && candidate.kind === 'course') {
    if (!mention.courses.some((course) => course.id === candidate.course.id))
      mention.courses.push(candidate.course);
  } else if (mention.kind === 'variable' && candidate.kind === 'variable') {
    const name = mention.names.find((entry) => entry.name === candidate.variable.name);
    if (!name) mention.names.push({ name: candidate.variable.name, variables: [candidate.variable] });
    else if (!name.variables.some((variable) => variable.id === candidate.variable.id)) {
      name.variables.push(candidate.variable);
    }
  } else if (mention.kind === 'value' && candidate.kind === 'value') {
    if (
      !mention.values.some(
        (entry) => entry.variableName === candidate.variableName && entry.value === candidate.value,
      )
    ) {
      mention.values.push({ variableName: candidate.variableName, value: candidate.value });
    }
  }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
