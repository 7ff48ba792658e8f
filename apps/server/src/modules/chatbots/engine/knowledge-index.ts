import MiniSearch from 'minisearch';
import { STOP_WORDS, foldText, porterStem } from '../../../lib/language';
import type { Citation, KnowledgeDocument } from './types';

// The built-in engine's knowledge: documents cut into passages under their
// headings, indexed with BM25 (minisearch) over Porter stems, and searched
// with the learner's question. The engine only ever quotes one retrieved
// passage, cut to a bounded length, so no question can make it recite the
// knowledge wholesale.

/** Knowledge beyond this many characters (all documents together) is not indexed. */
export const MAX_KNOWLEDGE_CHARS = 200_000;
/** Passages are cut to about this size so a quote stays short and BM25 compares like with like. */
export const MAX_PASSAGE_CHARS = 1_200;
/** The longest quote a reply contains. */
export const MAX_QUOTE_CHARS = 600;
/** Questions are read up to this length. */
export const MAX_QUESTION_CHARS = 2_000;
/**
 * The share of the question's weight (its terms by inverse document
 * frequency) the best passage must contain to count as an answer. Below it,
 * the passage shares only common words with the question ("work", "office")
 * while the question's rare, telling words ("pension", "wifi") are nowhere.
 */
export const MIN_COVERAGE = 0.5;

export type Passage = {
  id: number;
  document: string;
  /** The nearest heading above the passage, or the document's title. */
  title: string;
  text: string;
};

export type KnowledgeHit = { passage: Passage; score: number; coverage: number };

export type KnowledgeAnswer = { kind: 'answer'; hit: KnowledgeHit; citation: Citation } | { kind: 'none' };

export type KnowledgeIndex = {
  passages: readonly Passage[];
  /** Passages ranked by BM25, best first, with the share of the question they cover. */
  search(question: string, limit?: number): KnowledgeHit[];
  /** The best passage when it covers enough of the question, else `none`. */
  answer(question: string): KnowledgeAnswer;
};

// ---- words ---------------------------------------------------------------------------

/**
 * Words of a text, lower case without accents. A hyphenated word also counts
 * joined ("e-mail" is "e", "mail" and "email"), so either spelling meets the other.
 */
export function tokenizeText(text: string): string[] {
  const folded = foldText(text);
  const words = folded.match(/[a-z0-9]+(?:-[a-z0-9]+)*/g) ?? [];
  const result: string[] = [];
  for (const word of words) {
    if (word.includes('-')) {
      result.push(...word.split('-'), word.replace(/-/g, ''));
    } else {
      result.push(word);
    }
  }
  return result;
}

/** A word as the index stores it: stop words dropped, the rest stemmed. */
export function processTerm(term: string): string | null {
  if (STOP_WORDS.has(term)) return null;
  return porterStem(term);
}

function terms(text: string): string[] {
  const result: string[] = [];
  for (const word of tokenizeText(text)) {
    const term = processTerm(word);
    if (term) result.push(term);
  }
  return result;
}

/**
 * The topic of a question: "how long", "how many", "how often" ask for a
 * kind of answer (a duration, a count), so the word after "how" says nothing
 * about the subject and should not have to appear in the passage.
 */
export function questionTopic(question: string): string {
  return question.slice(0, MAX_QUESTION_CHARS).replace(/\bhow\s+[a-z]+/gi, ' ');
}

// ---- chunking ------------------------------------------------------------------------

/** Markdown formatting that means nothing to a reader of a quote. */
function plainMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_]([^*_\n]+)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '• ')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, '')
    .replace(/\|/g, ' ');
}

/**
 * A plain-text heading: a short line standing alone between blank lines,
 * without the punctuation that ends a sentence or a list item.
 */
function isPlainHeading(line: string, before: string | undefined, after: string | undefined): boolean {
  const trimmed = line.trim();
  return (
    trimmed.length > 0 &&
    trimmed.length <= 80 &&
    !/[.!?:;,]$/.test(trimmed) &&
    !/^([-*•]|\d+[.)])\s/.test(trimmed) &&
    (before === undefined || before.trim() === '') &&
    (after === undefined || after.trim() === '')
  );
}

type Section = { title: string; paragraphs: string[] };

function sections(document: KnowledgeDocument): Section[] {
  const lines = document.text.replace(/\r\n?/g, '\n').split('\n');
  const result: Section[] = [];
  let current: Section = { title: document.title, paragraphs: [] };
  let paragraph: string[] = [];
  let inCode = false;

  const endParagraph = () => {
    const text = paragraph.join('\n').trim();
    if (text) current.paragraphs.push(text);
    paragraph = [];
  };
  const startSection = (title: string) => {
    endParagraph();
    if (current.paragraphs.length > 0) result.push(current);
    current = { title: title.trim() || document.title, paragraphs: [] };
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (document.format === 'markdown') {
      if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
      const atx = inCode ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (atx) {
        startSection(plainMarkdown(atx[1] ?? ''));
        continue;
      }
      const underline = lines[index + 1] ?? '';
      if (!inCode && line.trim() && /^\s{0,3}(=+|-+)\s*$/.test(underline) && paragraph.length === 0) {
        startSection(plainMarkdown(line));
        index += 1;
        continue;
      }
    } else if (isPlainHeading(line, lines[index - 1], lines[index + 1])) {
      startSection(line);
      continue;
    }
    if (line.trim() === '') endParagraph();
    else paragraph.push(document.format === 'markdown' ? plainMarkdown(line) : line);
  }
  startSection('');
  return result;
}

/** Sentences of a paragraph, each with its closing punctuation. */
export function sentences(text: string): string[] {
  return (text.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)|[^\s][^.!?]*[.!?]+/g) ?? [text])
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** Cuts a text longer than `limit` at sentence ends (or, for one huge sentence, at a space). */
function splitLong(text: string, limit: number): string[] {
  if (text.length <= limit) return [text];
  const parts: string[] = [];
  let current = '';
  for (const sentence of sentences(text)) {
    let rest = sentence;
    while (rest.length > limit) {
      const cut = rest.lastIndexOf(' ', limit);
      const at = cut > limit / 2 ? cut : limit;
      if (current) {
        parts.push(current);
        current = '';
      }
      parts.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (current && current.length + rest.length + 1 > limit) {
      parts.push(current);
      current = '';
    }
    current = current ? `${current} ${rest}` : rest;
  }
  if (current) parts.push(current);
  return parts;
}

/** The passages of some documents: a section's paragraphs grouped up to the size limit. */
export function chunkDocuments(documents: readonly KnowledgeDocument[]): Passage[] {
  const passages: Passage[] = [];
  let budget = MAX_KNOWLEDGE_CHARS;
  for (const document of documents) {
    if (budget <= 0) break;
    const text = document.text.slice(0, budget);
    budget -= text.length;
    for (const section of sections({ ...document, text })) {
      let current = '';
      const flush = () => {
        if (current)
          passages.push({
            id: passages.length,
            document: document.title,
            title: section.title,
            text: current,
          });
        current = '';
      };
      for (const paragraph of section.paragraphs.flatMap((p) => splitLong(p, MAX_PASSAGE_CHARS))) {
        if (current && current.length + paragraph.length + 2 > MAX_PASSAGE_CHARS) flush();
        current = current ? `${current}\n\n${paragraph}` : paragraph;
      }
      flush();
    }
  }
  return passages;
}

// ---- quoting -------------------------------------------------------------------------

/**
 * The part of a passage to quote: all of it when short, else the sentence
 * that shares most with the question and its neighbours, up to the limit.
 */
export function quotePassage(
  passage: Passage,
  questionTerms: ReadonlySet<string>,
  limit = MAX_QUOTE_CHARS,
): string {
  const flat = passage.text.replace(/\s*\n\s*/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const list = sentences(flat);
  let best = 0;
  let bestScore = -1;
  list.forEach((sentence, index) => {
    const score = terms(sentence).filter((term) => questionTerms.has(term)).length;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  let first = best;
  let last = best;
  let length = (list[best] ?? '').length;
  // Grow forward first (what follows usually explains), then backward.
  for (;;) {
    const next = list[last + 1];
    if (next !== undefined && length + next.length + 1 <= limit) {
      last += 1;
      length += next.length + 1;
      continue;
    }
    const previous = list[first - 1];
    if (previous !== undefined && length + previous.length + 1 <= limit) {
      first -= 1;
      length += previous.length + 1;
      continue;
    }
    break;
  }
  const quote = list.slice(first, last + 1).join(' ');
  if (quote.length <= limit) return quote;
  const cut = quote.lastIndexOf(' ', limit - 1);
  return `${quote.slice(0, cut > 0 ? cut : limit - 1)}…`;
}

// ---- the index -----------------------------------------------------------------------

/** Builds the searchable index of an agent's documents (once per agent version; cheap to rebuild). */
export function buildKnowledgeIndex(documents: readonly KnowledgeDocument[]): KnowledgeIndex {
  const passages = chunkDocuments(documents);
  const search = new MiniSearch<Passage>({
    fields: ['title', 'text'],
    storeFields: [],
    tokenize: tokenizeText,
    processTerm,
    searchOptions: {
      boost: { title: 2 },
      // Typos in longer words only: a one-letter slip in "extinguisher"
      // still finds it, while short words stay exact.
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      prefix: false,
      combineWith: 'OR',
    },
  });
  search.addAll(passages);

  // Document frequencies of stems, to weigh which of the question's words a passage covers.
  const documentFrequency = new Map<string, number>();
  for (const passage of passages) {
    for (const term of new Set(terms(`${passage.title} ${passage.text}`))) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const count = passages.length;
  const idf = (term: string) => {
    const frequency = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
  };

  const searchPassages = (question: string, limit = 5): KnowledgeHit[] => {
    const text = questionTopic(question);
    const questionTerms = [...new Set(terms(text))];
    if (questionTerms.length === 0 || passages.length === 0) return [];
    const totalWeight = questionTerms.reduce((sum, term) => sum + idf(term), 0);
    return search
      .search(text)
      .slice(0, limit)
      .flatMap((result) => {
        const passage = passages[Number(result.id)];
        if (!passage) return [];
        const matched = new Set(result.queryTerms);
        const weight = questionTerms
          .filter((term) => matched.has(term))
          .reduce((sum, term) => sum + idf(term), 0);
        return [{ passage, score: result.score, coverage: totalWeight > 0 ? weight / totalWeight : 0 }];
      });
  };

  return {
    passages,
    search: searchPassages,
    answer(question) {
      const [best] = searchPassages(question, 1);
      if (!best || best.coverage < MIN_COVERAGE) return { kind: 'none' };
      const quote = quotePassage(best.passage, new Set(terms(questionTopic(question))));
      return {
        kind: 'answer',
        hit: best,
        citation: { document: best.passage.document, title: best.passage.title, quote },
      };
    },
  };
}
