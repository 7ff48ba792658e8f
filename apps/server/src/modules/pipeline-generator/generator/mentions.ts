import {
  COURSE_NOUNS,
  GENERIC_ACTION_WORDS,
  GENERIC_NAME_WORDS,
  GENERIC_TITLE_WORDS,
  JOINERS,
  POSSESSIVES,
} from './lexicon';
import { normalizeText, stems, type Token } from './text';
import type { CatalogAction, CatalogCourse, CatalogVariable, PipelineGeneratorCatalog } from './types';

// Names as names: a course, a variable or an action is mentioned when words
// of its name stand together in the sentence, not when one of them appears
// somewhere. A course is named by any word that tells it from the others
// ("safety", "gdpr", "onboarding"); a variable by all the significant words
// of its name or title ("final score", "time spent"); an action by a word
// that tells it apart ("LMS", "Slack", "welcome") or, when its name is made
// of everyday words ("Alert training team"), by all of them. Where two names
// claim the same words, the one that covers more of them wins ("fire safety"
// is the Fire Safety course); names that match equally are asked back.

export type MentionKind = 'course' | 'variable' | 'action';

export type Mention = {
  kind: MentionKind;
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  courses: CatalogCourse[];
  /** Variables by name: a name's variables across courses. */
  variables: { name: string; variables: CatalogVariable[] }[];
  actions: CatalogAction[];
};

type Phrasing = { words: readonly string[]; required: readonly string[]; needsAll: boolean };

type Candidate =
  | { kind: 'course'; course: CatalogCourse; phrasing: Phrasing }
  | { kind: 'variable'; variable: CatalogVariable; phrasing: Phrasing }
  | { kind: 'action'; action: CatalogAction; phrasing: Phrasing };

function nameWords(text: string): string[] {
  const plain = normalizeText(text)
    .replace(/\(.*?\)/g, ' ')
    .replace(/[_#-]/g, ' ');
  return [...new Set(stems(plain))].filter((word) => !JOINERS.has(word) && !/^\d+$/.test(word));
}

function coursePhrasing(title: string): Phrasing {
  const all = nameWords(title);
  return { words: all, required: all.filter((word) => !GENERIC_TITLE_WORDS.has(word)), needsAll: false };
}

function variablePhrasing(text: string): Phrasing | null {
  const all = nameWords(text);
  if (all.length === 0) return null;
  // "Passed assessment" is not named by "the GDPR assessment": course nouns are generic here.
  const significant = all.filter((word) => !GENERIC_NAME_WORDS.has(word) && !COURSE_NOUNS.has(word));
  return { words: all, required: significant.length > 0 ? significant : all, needsAll: true };
}

function actionPhrasing(name: string): Phrasing | null {
  const all = nameWords(name);
  if (all.length === 0) return null;
  const distinctive = all.filter((word) => !GENERIC_ACTION_WORDS.has(word));
  return distinctive.length > 0
    ? { words: all, required: distinctive, needsAll: false }
    : { words: all, required: all, needsAll: true };
}

export type CatalogIndex = { candidates: Candidate[] };

export function indexCatalog(catalog: PipelineGeneratorCatalog): CatalogIndex {
  const candidates: Candidate[] = [];
  for (const course of catalog.courses) {
    const phrasing = coursePhrasing(course.title);
    if (phrasing.required.length > 0) candidates.push({ kind: 'course', course, phrasing });
  }
  for (const variable of catalog.variables) {
    for (const text of new Set([variable.name, variable.title ?? ''])) {
      const phrasing = variablePhrasing(text);
      if (phrasing) candidates.push({ kind: 'variable', variable, phrasing });
    }
  }
  for (const action of catalog.actions) {
    const phrasing = actionPhrasing(action.name);
    if (phrasing) candidates.push({ kind: 'action', action, phrasing });
  }
  return { candidates };
}

type Run = { start: number; end: number; coverage: number };

/** Runs of the sentence made of the name's words (joiners allowed inside) that hold its required words. */
function findRuns(tokens: readonly Token[], phrasing: Phrasing, isFree: (index: number) => boolean): Run[] {
  const runs: Run[] = [];
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

/**
 * A course's word right after "their", "his" or "her" is a person or a thing
 * of theirs ("their manager"), unless a course noun follows ("their safety
 * course").
 */
function isPossessed(tokens: readonly Token[], run: Run): boolean {
  const before = tokens[run.start - 1]?.stem;
  const after = tokens[run.end]?.stem;
  return before !== undefined && POSSESSIVES.has(before) && !(after !== undefined && COURSE_NOUNS.has(after));
}

const KIND_ORDER: Record<MentionKind, number> = { action: 0, variable: 1, course: 2 };

/**
 * The mentions of names in the sentence, best first then in sentence order,
 * none overlapping. Names that match the same words equally well stay
 * together in one mention (several courses: the generator asks back).
 */
export function findMentions(
  tokens: readonly Token[],
  index: CatalogIndex,
  isFree: (index: number) => boolean,
): Mention[] {
  const found: { candidate: Candidate; run: Run }[] = [];
  for (const candidate of index.candidates) {
    for (const run of findRuns(tokens, candidate.phrasing, isFree)) {
      if (candidate.kind === 'course' && isPossessed(tokens, run)) continue;
      found.push({ candidate, run });
    }
  }
  found.sort(
    (a, b) =>
      b.run.coverage - a.run.coverage ||
      b.run.end - b.run.start - (a.run.end - a.run.start) ||
      KIND_ORDER[a.candidate.kind] - KIND_ORDER[b.candidate.kind] ||
      a.run.start - b.run.start,
  );
  const mentions: Mention[] = [];
  const taken = new Set<number>();
  for (const { candidate, run } of found) {
    const same = mentions.find(
      (mention) =>
        mention.start === run.start &&
        mention.end === run.end &&
        mention.coverage === run.coverage &&
        mention.kind === candidate.kind,
    );
    if (same) {
      addTo(same, candidate);
      continue;
    }
    const span = Array.from({ length: run.end - run.start }, (_, offset) => run.start + offset);
    if (span.some((position) => taken.has(position))) continue;
    span.forEach((position) => taken.add(position));
    const mention: Mention = {
      kind: candidate.kind,
      ...run,
      phrase: tokens
        .slice(run.start, run.end)
        .map((token) => token.surface)
        .join(' '),
      courses: [],
      variables: [],
      actions: [],
    };
    addTo(mention, candidate);
    mentions.push(mention);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

function addTo(mention: Mention, candidate: Candidate): void {
  if (candidate.kind === 'course') {
    if (!mention.courses.some((course) => course.id === candidate.course.id))
      mention.courses.push(candidate.course);
  } else if (candidate.kind === 'variable') {
    const entry = mention.variables.find((item) => item.name === candidate.variable.name);
    if (!entry) mention.variables.push({ name: candidate.variable.name, variables: [candidate.variable] });
    else if (!entry.variables.some((variable) => variable.id === candidate.variable.id)) {
      entry.variables.push(candidate.variable);
    }
  } else if (!mention.actions.some((action) => action.id === candidate.action.id)) {
    mention.actions.push(candidate.action);
  }
}
