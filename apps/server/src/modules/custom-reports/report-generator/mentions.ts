import { AGENT_NOUNS, GENERIC_NAME_WORDS, GENERIC_TITLE_WORDS, JOINERS } from './lexicon';
import { stems, type Token } from './text';
import type { CatalogChatbotVariable, CatalogCourse, CatalogVariable, GeneratorCatalog } from './types';

// Names as names: a course, a variable or a value is mentioned when the words
// of its name appear together in the sentence, not when one of them appears
// somewhere. A course is named by any word that tells it from the others
// ("safety", "gdpr", "new hire"); a variable by all the significant words of
// its name or title ("time spent", "safety check", "nps"), so "complete" in
// "how many completed" is not "IT setup complete". Where two names claim the
// same words, the one that covers more of them wins ("fire safety" is the
// Fire Safety course, "new managers" the course for new managers).
//
// A custom AI agent is named like a course, and the variables it captures
// like a course's variables: one rule each, whatever owns the name. A course
// variable and an agent variable that match the same words stay in one
// mention, so the engine can tell them apart from the rest of the sentence
// or ask back.

export type CourseMention = {
  kind: 'course';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** Every course that matches as well as the best one (more than one: ask back). */
  courses: CatalogCourse[];
};

/** A custom AI agent, as the catalog knows it: through the variables it captures. */
export type CatalogAgent = { id: string; name: string };

export type AgentMention = {
  kind: 'agent';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** Every agent that matches as well as the best one. */
  agents: CatalogAgent[];
};

/** The variables of one name, across the courses (or the agents) that have it. */
export type NamedVariables<T> = { name: string; variables: T[] };

export type VariableMention = {
  kind: 'variable';
  start: number;
  end: number;
  coverage: number;
  phrase: string;
  /** Course variables by name: each name's variables across courses (several names: ask back). */
  names: NamedVariables<CatalogVariable>[];
  /** Agent variables by name, across agents. */
  chatbotNames: NamedVariables<CatalogChatbotVariable>[];
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

export type Mention = CourseMention | AgentMention | VariableMention | ValueMention;

/** A name's words; `required` must all appear, or (courses) any one of them. */
type Phrasing = { words: readonly string[]; required: readonly string[]; needsAll: boolean };

type Candidate =
  | { kind: 'course'; course: CatalogCourse; phrasing: Phrasing }
  | { kind: 'agent'; agent: CatalogAgent; phrasing: Phrasing }
  | { kind: 'variable'; variable: CatalogVariable; phrasing: Phrasing }
  | { kind: 'chatbot_variable'; variable: CatalogChatbotVariable; phrasing: Phrasing }
  | { kind: 'value'; variableName: string; value: string; phrasing: Phrasing };

/** Course and agent variables make one kind of mention. */
function mentionKind(candidate: Candidate): Mention['kind'] {
  return candidate.kind === 'chatbot_variable' ? 'variable' : candidate.kind;
}

function nameWords(text: string): string[] {
  return [...new Set(stems(text.replace(/\(.*?\)/g, ' ').replace(/_/g, ' ')))].filter(
    (word) => !JOINERS.has(word) && !/^\d+$/.test(word),
  );
}

/**
 * People name a course or an agent by any word that tells it apart:
 * "safety", "gdpr", "new hire", "coach". `nouns` (for agents, "agent",
 * "bot") belong to the mention beside the name but never name it alone.
 */
function titlePhrasing(title: string, nouns: ReadonlySet<string> = new Set()): Phrasing {
  const titleWords = nameWords(title);
  return {
    words: [...new Set([...titleWords, ...nouns])],
    required: titleWords.filter((word) => !GENERIC_TITLE_WORDS.has(word) && !nouns.has(word)),
    needsAll: false,
  };
}

function variablePhrasing(text: string): Phrasing | null {
  const all = nameWords(text).filter((word) => word !== 'it' && word !== 'would');
  if (all.length === 0) return null;
  const significant = all.filter((word) => !GENERIC_NAME_WORDS.has(word));
  return { words: all, required: significant.length > 0 ? significant : all, needsAll: true };
}

/** A variable is named by its name or by its title. */
function variablePhrasings(variable: { name: string; title: string | null }): Phrasing[] {
  return [...new Set([variable.name, variable.title ?? ''])].flatMap((text) => variablePhrasing(text) ?? []);
}

/** The agents of the catalog, from the variables they capture. */
function agentsOf(catalog: GeneratorCatalog): CatalogAgent[] {
  const agents = new Map<string, CatalogAgent>();
  for (const variable of catalog.chatbotVariables) {
    agents.set(variable.chatbotId, { id: variable.chatbotId, name: variable.chatbotName });
  }
  return [...agents.values()];
}

export type CatalogIndex = {
  candidates: Candidate[];
  /** Every word of every name, for typo correction. */
  vocabulary: Set<string>;
};

export function indexCatalog(catalog: GeneratorCatalog): CatalogIndex {
  const candidates: Candidate[] = [];
  const vocabulary = new Set<string>();
  const add = (candidate: Candidate) => {
    candidate.phrasing.words.forEach((word) => vocabulary.add(word));
    if (candidate.phrasing.required.length > 0) candidates.push(candidate);
  };
  for (const course of catalog.courses) {
    add({ kind: 'course', course, phrasing: titlePhrasing(course.courseTitle) });
  }
  for (const agent of agentsOf(catalog)) {
    add({ kind: 'agent', agent, phrasing: titlePhrasing(agent.name, AGENT_NOUNS) });
  }
  for (const variable of catalog.variables) {
    for (const phrasing of variablePhrasings(variable)) add({ kind: 'variable', variable, phrasing });
  }
  for (const variable of catalog.chatbotVariables) {
    for (const phrasing of variablePhrasings(variable)) add({ kind: 'chatbot_variable', variable, phrasing });
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

// On a tie a course wins over an agent: "onboarding" alone stays the course,
// "the onboarding agent" covers one more word of the agent's.
const KIND_ORDER: Record<Mention['kind'], number> = { variable: 0, course: 1, agent: 2, value: 3 };

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
      KIND_ORDER[mentionKind(a.candidate)] - KIND_ORDER[mentionKind(b.candidate)] ||
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
        mention.kind === mentionKind(entry.candidate),
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
    const kind = mentionKind(entry.candidate);
    const mention: Mention =
      kind === 'course'
        ? { kind, ...base, courses: [] }
        : kind === 'agent'
          ? { kind, ...base, agents: [] }
          : kind === 'variable'
            ? { kind, ...base, names: [], chatbotNames: [] }
            : { kind, ...base, values: [] };
    addTo(mention, entry.candidate);
    mentions.push(mention);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

function addTo(mention: Mention, candidate: Candidate): void {
  if (mention.kind === 'course' && candidate.kind === 'course') {
    if (!mention.courses.some((course) => course.id === candidate.course.id))
      mention.courses.push(candidate.course);
  } else if (mention.kind === 'agent' && candidate.kind === 'agent') {
    if (!mention.agents.some((agent) => agent.id === candidate.agent.id))
      mention.agents.push(candidate.agent);
  } else if (mention.kind === 'variable' && candidate.kind === 'variable') {
    addByName(mention.names, candidate.variable);
  } else if (mention.kind === 'variable' && candidate.kind === 'chatbot_variable') {
    addByName(mention.chatbotNames, candidate.variable);
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

function addByName<T extends { id: string; name: string }>(names: NamedVariables<T>[], variable: T): void {
  const entry = names.find((known) => known.name === variable.name);
  if (!entry) names.push({ name: variable.name, variables: [variable] });
  else if (!entry.variables.some((known) => known.id === variable.id)) entry.variables.push(variable);
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
