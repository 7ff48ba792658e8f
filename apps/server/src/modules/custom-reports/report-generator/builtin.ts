import {
  BREAKDOWN_LABELS,
  MAX_QUERY_ROWS,
  MAX_REPORT_ITEMS,
  MEASURE_LABELS,
  REPORT_CHART_LABELS,
  SUBJECT_BREAKDOWNS,
  SUBJECT_LABELS,
  SUBJECT_MEASURES,
  TIME_BREAKDOWNS,
  VARIABLE_SUBJECTS,
  customReportDraftSchema,
  reportQuerySchema,
  type ActivityCondition,
  type ActivityEvent,
  type BreakdownKind,
  type CustomReportType,
  type MeasureFn,
  type ReportChart,
  type ReportQuery,
  type ReportQueryInput,
  type ReportSort,
  type ReportSubject,
  type ValueCondition,
  type ValueOperator,
  VALUE_OPERATOR_LABELS,
} from '@courselens/contracts';
import * as words from './lexicon';
import {
  findMentions,
  indexCatalog,
  type AgentMention,
  type CatalogAgent,
  type CourseMention,
  type Mention,
  type NamedVariables,
  type VariableMention,
} from './mentions';
import { readPeriod } from './periods';
import { correctTypos, normalizeText, stems, tokenize, type Token } from './text';
import type {
  Ambiguity,
  AmbiguityOption,
  CatalogChatbotVariable,
  CatalogCourse,
  CatalogQuestion,
  CatalogVariable,
  DraftItem,
  GeneratedReport,
  GeneratorCatalog,
  GeneratorChoice,
  ReportDraft,
} from './types';

// The built-in engine: a small pipeline that reads a manager's sentence
// against the organization's own names. Words become stems (text.ts), names
// are found as whole phrases (mentions.ts), periods are read (periods.ts),
// then the intents: what to measure, how to break it down, which learners to
// keep, in which order, how many, and which chart. Whatever it cannot place
// is said, and a name that fits two things is asked back rather than guessed.

export type BuiltinOptions = {
  /** Answers to earlier questions back. */
  choices?: readonly GeneratorChoice[];
  /** The day periods are read on ("since March"); now by default. */
  now?: Date;
};

type Sort = ReportSort;

/** What a mention is used for once the intents are read. */
type Role = 'subject' | 'breakdown' | 'activity' | 'value';

type QuestionRef = { slideNumber: number | null; questionNumber: number | null; used: number[] };

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function questionLabel(
  question: Pick<CatalogQuestion, 'slideNumber' | 'questionNumber' | 'questionText'>,
) {
  const where = [
    question.slideNumber !== null ? `Slide ${question.slideNumber}` : null,
    question.questionNumber !== null ? `Question ${question.questionNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const text = question.questionText?.trim();
  if (where && text) return `${where}: ${text}`;
  return where || text || 'Question';
}

const variableLabel = (variable: { name: string; title: string | null }) =>
  variable.title?.trim() || variable.name;

/** "a variable", "an agent variable". */
function aSubject(kind: ReportSubject['kind']): string {
  const label = SUBJECT_LABELS[kind];
  return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}`;
}

/** What a variable mention reads once one name of one kind is picked. */
type PickedVariables =
  | ({ kind: 'variable' } & NamedVariables<CatalogVariable>)
  | ({ kind: 'chatbot_variable' } & NamedVariables<CatalogChatbotVariable>);

function reportName(prompt: string): string {
  const clean = prompt
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const first = clean.charAt(0).toUpperCase() + clean.slice(1);
  return first.length <= 120 ? first : `${first.slice(0, 119).trimEnd()}…`;
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Quoted phrases ("…") are question texts; the rest of the sentence is read word by word. */
function splitQuotes(prompt: string): { rest: string; quotes: string[] } {
  const quotes: string[] = [];
  const rest = prompt.replace(/["“”«»]([^"“”«»]{3,300})["“”«»]/g, (_, quote: string) => {
    quotes.push(quote.trim());
    return ' ';
  });
  return { rest, quotes };
}

export function generateBuiltin(
  prompt: string,
  catalog: GeneratorCatalog,
  options: BuiltinOptions = {},
): GeneratedReport {
  return new Reading(prompt, catalog, options).run();
}

class Reading {
  private readonly tokens: Token[];
  private readonly claims: (string | null)[];
  private readonly understood: string[] = [];
  private readonly notFound: string[] = [];
  private readonly ambiguities: Ambiguity[] = [];
  private readonly quotes: string[];
  private readonly now: Date;
  private readonly choices: readonly GeneratorChoice[];
  private readonly roles = new Map<Mention, Role>();
  private readonly index: ReturnType<typeof indexCatalog>;
  private mentions: Mention[] = [];

  // What the intents say.
  private period: ReportQuery['filters']['period'] = null;
  private breakdown: BreakdownKind | null = null;
  private breakdownVariable: VariableMention | null = null;
  private timeDefault: BreakdownKind | null = null;
  private sort: Sort | null = null;
  private limit: number | null = null;
  private chart: ReportChart = 'auto';
  private isCompare = false;
  private isRanking = false;
  private isLearnerList = false;
  private sortWord: 'asc' | 'desc' | null = null;
  /** The measures named, in order ("average score, pass rate and completion rate": one item each). */
  private readonly measures: MeasureFn[] = [];
  private difficulty: 'asc' | 'desc' | null = null;
  private isCount = false;
  private isRate = false;
  private isMostCommon = false;
  private hasCompleteVerb = false;
  private hasCompletionsNoun = false;
  private passEvent: ActivityEvent | null = null;
  private hasStartVerb = false;
  private hasScoreWord = false;
  private hasLearnerNoun = false;
  private hasQuestionsNoun = false;
  private hasResponsesWord = false;
  private hasUnfoundQuestion = false;
  private comparison: { op: ValueOperator; value: number; text: string } | null = null;
  private readonly activity: { condition: ActivityCondition; mention: CourseMention | null }[] = [];
  private readonly questionRefs: QuestionRef[] = [];
  private readonly questionMatches: CatalogQuestion[] = [];
  /** Items cannot be drafted until a question back is answered. */
  private isBlocked = false;

  constructor(
    private readonly prompt: string,
    private readonly catalog: GeneratorCatalog,
    options: BuiltinOptions,
  ) {
    const { rest, quotes } = splitQuotes(prompt);
    this.quotes = quotes;
    this.now = options.now ?? new Date();
    this.choices = options.choices ?? [];
    const index = indexCatalog(catalog);
    this.index = index;
    this.tokens = correctTypos(tokenize(rest), new Set([...index.vocabulary, ...words.KNOWN_WORDS]));
    this.claims = this.tokens.map(() => null);
  }

  private get measure(): MeasureFn | null {
    return this.measures[0] ?? null;
  }

  // ---- token helpers --------------------------------------------------------------

  private isFree = (position: number) => this.claims[position] === null;

  private claim(positions: readonly number[], what: string) {
    for (const position of positions) {
      if (position >= 0 && position < this.tokens.length && this.claims[position] === null) {
        this.claims[position] = what;
      }
    }
  }

  private stemAt(position: number): string {
    return this.tokens[position]?.stem ?? '';
  }

  private surfaceAt(position: number): string {
    return this.tokens[position]?.surface ?? '';
  }

  private freeIn(set: ReadonlySet<string>, position: number): boolean {
    return this.isFree(position) && set.has(this.stemAt(position));
  }

  /** The next position at or after `position` that is not a joiner ("the", "of"). */
  private skipJoiners(position: number): number {
    let next = position;
    while (next < this.tokens.length && words.JOINERS.has(this.stemAt(next))) next += 1;
    return next;
  }

  private mentionAt(position: number): Mention | undefined {
    return this.mentions.find((mention) => mention.start === position && !this.roles.has(mention));
  }

  private useMention(mention: Mention, role: Role) {
    this.roles.set(mention, role);
    this.claim(range(mention.start, mention.end), role);
  }

  private choiceFor(phrase: string, ids: readonly string[]): string | null {
    const normalized = normalizeText(phrase).trim();
    const byPhrase = this.choices.find(
      (choice) => normalizeText(choice.phrase).trim() === normalized && ids.includes(choice.id),
    );
    return (byPhrase ?? this.choices.find((choice) => ids.includes(choice.id)))?.id ?? null;
  }

  // ---- the pipeline -----------------------------------------------------------------

  run(): GeneratedReport {
    this.readPeriod();
    this.readQuestionRefs();
    this.mentions = findMentions(this.tokens, this.index, this.isFree);
    this.readTopN();
    this.readActivity();
    this.readLearnerList();
    this.readBreakdowns();
    this.readMeasures();
    this.readOrderAndChart();
    this.readValues();
    this.readQuestionTexts();
    const items = this.buildItems();
    this.reportLeftovers();
    return this.answer(items);
  }

  private readPeriod() {
    const found = readPeriod(this.tokens, this.isFree, this.now);
    if (!found) return;
    this.period = found.period;
    this.claim(found.used, 'period');
    this.understood.push(`Period: ${found.label}`);
  }

  /** "question 3", "q 3", "question number 3", "slide 6". */
  private readQuestionRefs() {
    let slide: { number: number; used: number[] } | null = null;
    const questions: { number: number; used: number[] }[] = [];
    for (let i = 0; i < this.tokens.length; i += 1) {
      const surface = this.surfaceAt(i);
      const isSlide = surface === 'slide' || surface === 'slides';
      if (!isSlide && !['question', 'questions', 'q'].includes(surface)) continue;
      let next = i + 1;
      if (this.surfaceAt(next) === 'number' || this.surfaceAt(next) === 'no') next += 1;
      const value = this.tokens[next]?.number ?? null;
      if (value === null || !this.isFree(next)) continue;
      if (isSlide) slide = { number: value, used: range(i, next + 1) };
      else questions.push({ number: value, used: range(i, next + 1) });
    }
    if (questions.length === 0 && slide) {
      this.questionRefs.push({ slideNumber: slide.number, questionNumber: null, used: slide.used });
    }
    for (const question of questions) {
      this.questionRefs.push({
        slideNumber: slide?.number ?? null,
        questionNumber: question.number,
        used: [...question.used, ...(slide?.used ?? [])],
      });
    }
    for (const ref of this.questionRefs) this.claim(ref.used, 'question');
  }

  /** "top 10", "worst three", "bottom 5 regions", "the 5 hardest questions", "hardest 5 questions". */
  private readTopN() {
    for (let i = 0; i < this.tokens.length; i += 1) {
      const isTop = this.freeIn(words.TOP_WORDS, i);
      const isBottom = this.freeIn(words.BOTTOM_WORDS, i);
      // "Hardest" and "easiest" order by the correct rate; the measure words read them.
      const isDifficulty = this.freeIn(words.DIFFICULTY_SUPERLATIVES, i);
      if (!isTop && !isBottom && !isDifficulty) continue;
      const after = this.tokens[i + 1]?.number ?? null;
      const before = this.tokens[i - 1]?.number ?? null;
      const amountAt =
        after !== null && this.isFree(i + 1) ? i + 1 : before !== null && this.isFree(i - 1) ? i - 1 : null;
      const amount = amountAt === null ? null : (this.tokens[amountAt]?.number ?? null);
      if (amountAt !== null && amount !== null) {
        this.limit = Math.min(Math.max(amount, 1), MAX_QUERY_ROWS);
        this.isRanking = true;
        if (isDifficulty) this.claim([amountAt], 'limit');
        else {
          this.sort = { by: 'measure', order: isTop ? 'desc' : 'asc' };
          this.claim([i, amountAt], 'limit');
        }
        this.understood.push(`${isBottom ? 'Bottom' : 'Top'} ${this.limit}`);
        this.readGroupNoun(this.skipJoiners(Math.max(i, amountAt) + 1));
        return;
      }
      // "top learners", "best performers": a ranking of learners.
      const next = this.skipJoiners(i + 1);
      if (!isDifficulty && this.freeIn(words.LEARNER_NOUNS, next)) {
        this.sort = { by: 'measure', order: isTop ? 'desc' : 'asc' };
        this.isRanking = true;
        this.claim([i], 'limit');
        this.readGroupNoun(next);
        return;
      }
    }
  }

  /**
   * The noun after "by", "per", "each", "which" or "top 5": the groups. Returns
   * true when it named a breakdown.
   */
  private readGroupNoun(position: number): boolean {
    const stem = this.stemAt(position);
    const take = (kind: BreakdownKind) => {
      this.setBreakdown(kind);
      this.claim([position], 'breakdown');
      return true;
    };
    const mention = this.mentionAt(position);
    if (mention?.kind === 'variable') return this.offerBreakdownVariable(mention);
    if (!this.isFree(position)) return false;
    if (words.DAY_WORDS.has(stem)) return take('day');
    if (words.WEEK_WORDS.has(stem)) return take('week');
    if (words.MONTH_WORDS.has(stem)) return take('month');
    if (words.COURSE_NOUNS.has(stem)) return take('course');
    if (words.AGENT_NOUNS.has(stem)) return take('agent');
    if (words.LEARNER_NOUNS.has(stem)) return take('learner');
    if (words.QUESTION_NOUNS.has(stem)) {
      this.hasQuestionsNoun = true;
      return take('question');
    }
    if (words.ANSWER_NOUNS.has(stem)) return take('answer');
    return false;
  }

  /**
   * A variable after "by" groups the learners when it holds categories (a
   * department, true/false); a number variable after "by" is what to measure
   * ("top 10 learners by final score") unless another variable is measured.
   * Only course variables group learners (the report model reads a learner's
   * latest value of a course variable by name): an agent's variable after
   * "by" is what to measure, or, beside another subject, said.
   */
  private offerBreakdownVariable(mention: VariableMention): boolean {
    const otherSubjects = this.mentions.some(
      (other) => other !== mention && other.kind === 'variable' && !this.roles.has(other),
    );
    if (mention.names.length === 0) {
      const first = mention.chatbotNames[0]?.variables[0];
      if (!first || !otherSubjects) return false;
      this.useMention(mention, 'breakdown');
      this.notFound.push(
        `Grouped by ${variableLabel(first)}: learners are grouped by a course variable’s values, and this one is an agent’s`,
      );
      return true;
    }
    const isCategory = mention.names.some((name) =>
      name.variables.some((variable) => variable.dataType !== 'number'),
    );
    if (!isCategory && !otherSubjects) return false;
    this.breakdownVariable = mention;
    this.useMention(mention, 'breakdown');
    this.setBreakdown('variable');
    return true;
  }

  private setBreakdown(kind: BreakdownKind) {
    // An explicit time unit wins over "trend"; the first grouping named wins otherwise.
    if (this.breakdown === null || (TIME_BREAKDOWNS.includes(kind) && this.breakdown === this.timeDefault)) {
      this.breakdown = kind;
      this.timeDefault = null;
    }
  }

  /** "who has not completed X", "people who passed gdpr", "completed safety but not gdpr". */
  private readActivity() {
    const eventOf = (position: number): ActivityEvent | null => {
      if (!this.isFree(position)) return null;
      const stem = this.stemAt(position);
      if (words.COMPLETE_VERBS.has(stem)) return 'completed';
      if (words.PASS_VERBS.has(stem)) return 'passed';
      if (words.FAIL_VERBS.has(stem)) return 'failed';
      if (words.START_VERBS.has(stem)) return 'started';
      return null;
    };
    for (let i = 0; i < this.tokens.length; i += 1) {
      const event = eventOf(i);
      if (!event) continue;
      // Look back for "who", "that" and a negation: "who has not yet completed".
      let relative: number | null = null;
      const negations: number[] = [];
      for (let back = i - 1; back >= Math.max(0, i - 4); back -= 1) {
        const stem = this.stemAt(back);
        if (words.NEGATIONS.has(stem) && this.isFree(back)) negations.push(back);
        else if (words.RELATIVE.has(stem) && this.isFree(back)) {
          relative = back;
          break;
        } else if (
          ![
            'has',
            'have',
            'had',
            'did',
            'do',
            'does',
            'yet',
            'ever',
            'already',
            'been',
            'is',
            'are',
            'was',
            'were',
          ].includes(this.surfaceAt(back))
        ) {
          break;
        }
      }
      if (relative === null && negations.length === 0) continue;
      const target = this.skipJoiners(i + 1);
      const mention = this.mentionAt(target);
      const course = mention?.kind === 'course' ? mention : null;
      if (!course && relative === null) continue;
      const did = negations.length === 0;
      this.addActivity(did, event, course);
      this.claim([i, ...negations, ...(relative !== null ? [relative] : [])], 'activity');
      // "… but not gdpr", "… and not onboarding".
      let after = course ? course.end : i + 1;
      while (after < this.tokens.length) {
        let next = after;
        if (['but', 'and', 'or'].includes(this.surfaceAt(next))) next += 1;
        if (!words.NEGATIONS.has(this.stemAt(next))) break;
        const other = this.mentionAt(this.skipJoiners(next + 1));
        if (other?.kind !== 'course') break;
        this.addActivity(!did, event, other);
        this.claim(range(after, next + 1), 'activity');
        after = other.end;
      }
    }
  }

  private addActivity(did: boolean, event: ActivityEvent, mention: CourseMention | null) {
    if (mention) this.useMention(mention, 'activity');
    this.activity.push({ condition: { did, event, courseId: null }, mention });
  }

  /** "who …", "learners who …", "which learners", "list the people that …": one row per learner. */
  private readLearnerList() {
    const first = this.tokens.findIndex(
      (token) =>
        !['show', 'list', 'give', 'me', 'the', 'all', 'find', 'which', 'what'].includes(token.surface),
    );
    if (first < 0) return;
    const stem = this.stemAt(first);
    const followedByWho =
      words.RELATIVE.has(this.stemAt(first + 1)) ||
      words.NEGATIONS.has(this.stemAt(first + 1)) ||
      ['with', 'without'].includes(this.surfaceAt(first + 1));
    const startsWithWhich = this.tokens
      .slice(0, first)
      .some((token) => token.surface === 'which' || token.surface === 'list');
    if (
      this.surfaceAt(first) === 'who' ||
      (words.LEARNER_NOUNS.has(stem) && (followedByWho || startsWithWhich))
    ) {
      this.isLearnerList = true;
      this.setBreakdown('learner');
      if (words.LEARNER_NOUNS.has(stem)) this.claim([first], 'breakdown');
    }
  }

  private readBreakdowns() {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      const surface = this.surfaceAt(i);
      // "side by side" compares.
      if (surface === 'side' && this.surfaceAt(i + 1) === 'by' && this.surfaceAt(i + 2) === 'side') {
        this.isCompare = true;
        this.claim([i, i + 1, i + 2], 'compare');
        continue;
      }
      if (words.BREAKDOWN_CUES.has(stem) || surface === 'which' || surface === 'what') {
        let next = i + 1;
        while (['the', 'each', 'every', 'a'].includes(this.surfaceAt(next))) next += 1;
        if (['split', 'grouped', 'sorted', 'ranked'].includes(this.surfaceAt(i - 1)))
          this.claim([i - 1], 'breakdown');
        if (this.surfaceAt(i - 1) === 'down' && this.surfaceAt(i - 2) === 'broken')
          this.claim([i - 2, i - 1], 'breakdown');
        const named = this.readGroupNoun(next);
        if (named && words.BREAKDOWN_CUES.has(stem)) this.claim(range(i, next), 'breakdown');
        // "By pass rate" ranks by the measure, which is the default order.
        else if (!named && surface === 'by' && this.startsMeasure(next)) this.claim([i], 'sort');
        continue;
      }
      // "department breakdown", "answer distribution", "breakdown of answers".
      if (words.BREAKDOWN_NOUNS.has(stem)) {
        const before = this.mentions.find((mention) => mention.end === i && mention.kind === 'variable');
        if (before?.kind === 'variable' && !this.roles.has(before)) {
          this.offerBreakdownVariable(before);
          this.claim([i], 'breakdown');
        } else if (
          this.freeIn(words.ANSWER_NOUNS, i - 1) ||
          this.freeIn(words.ANSWER_NOUNS, this.skipJoiners(i + 1))
        ) {
          this.setBreakdown('answer');
          this.claim(
            [i, i - 1, this.skipJoiners(i + 1)].filter(
              (position) => words.ANSWER_NOUNS.has(this.stemAt(position)) || position === i,
            ),
            'breakdown',
          );
        } else {
          this.claim([i], 'breakdown');
        }
        continue;
      }
      if (surface === 'daily') this.setBreakdown('day');
      else if (surface === 'weekly') this.setBreakdown('week');
      else if (surface === 'monthly') this.setBreakdown('month');
      else if (words.TREND_WORDS.has(stem) || (surface === 'over' && this.surfaceAt(i + 1) === 'time')) {
        if (this.breakdown === null) {
          this.breakdown = 'week';
          this.timeDefault = 'week';
        }
        if (surface === 'over') this.claim([i + 1], 'breakdown');
      } else if (words.LEADERBOARD_WORDS.has(stem)) {
        this.isRanking = true;
        this.setBreakdown('learner');
        if (surface.startsWith('leaderboard')) this.chart = 'leaderboard';
      } else continue;
      this.claim([i], 'breakdown');
    }
    // "how did people answer", "what did they answer": the answers' spread.
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (
        this.freeIn(words.ANSWER_NOUNS, i) &&
        this.tokens.slice(0, i).some((token) => token.surface === 'how' || token.surface === 'what') &&
        this.surfaceAt(i) === 'answer'
      ) {
        this.setBreakdown('answer');
        this.claim([i], 'breakdown');
      }
      if (
        this.freeIn(words.ANSWER_NOUNS, i) &&
        this.surfaceAt(i) === 'answers' &&
        ['to', 'for', 'of', 'on'].includes(this.surfaceAt(i + 1)) &&
        !words.CORRECT.has(this.stemAt(i - 1)) &&
        !words.WRONG.has(this.stemAt(i - 1))
      ) {
        this.setBreakdown('answer');
        this.claim([i], 'breakdown');
      }
    }
  }

  /** Whether a measure phrase starts here ("by pass rate", "by completion rate", "by score"). */
  private startsMeasure(position: number): boolean {
    const stem = this.stemAt(position);
    return [
      words.PASS_VERBS,
      words.COMPLETION_NOUNS,
      words.COMPLETE_VERBS,
      words.SCORE_WORDS,
      words.AVERAGE,
      words.MEDIAN,
      words.CORRECT,
      words.POINTS,
      words.RATE,
    ].some((set) => set.has(stem));
  }

  private readMeasures() {
    const set = (fn: MeasureFn, positions: number[]) => {
      if (!this.measures.includes(fn)) this.measures.push(fn);
      this.claim(positions, 'measure');
    };
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      const surface = this.surfaceAt(i);
      const nextIsRate = this.freeIn(words.RATE, i + 1);
      if (surface === 'how' && this.freeIn(words.MANY, i + 1)) {
        this.isCount = true;
        this.claim([i, i + 1], 'measure');
      } else if (
        (surface === 'number' || surface === 'count' || surface === 'total') &&
        this.surfaceAt(i + 1) === 'of'
      ) {
        this.isCount = true;
        this.claim([i, i + 1], 'measure');
      } else if (
        surface === 'total' &&
        this.surfaceAt(i + 1) === 'number' &&
        this.surfaceAt(i + 2) === 'of'
      ) {
        this.isCount = true;
        this.claim([i, i + 1, i + 2], 'measure');
      } else if (words.COUNT.has(stem)) {
        this.isCount = true;
        this.claim([i], 'measure');
      } else if (words.VALUES.has(stem)) set('values', [i]);
      else if (words.COMMON.has(stem) && this.freeIn(words.DESCENDING, i - 1)) {
        this.isMostCommon = true;
        this.sortWord ??= 'desc';
        this.claim([i - 1, i], 'measure');
      } else if (words.PASS_VERBS.has(stem)) {
        if (nextIsRate) set('pass_rate', [i, i + 1]);
        else {
          this.passEvent = 'passed';
          this.claim([i], 'measure');
        }
      } else if (words.FAIL_VERBS.has(stem)) {
        this.passEvent = 'failed';
        this.claim([i], 'measure');
      } else if (words.COMPLETION_NOUNS.has(stem)) {
        if (nextIsRate) set('completion_rate', [i, i + 1]);
        else if (surface === 'completions') {
          this.hasCompletionsNoun = true;
          this.claim([i], 'measure');
        } else set('completion_rate', [i]);
      } else if (words.COMPLETE_VERBS.has(stem)) {
        this.hasCompleteVerb = true;
        this.claim([i], 'measure');
      } else if (words.START_VERBS.has(stem)) {
        this.hasStartVerb = true;
        this.claim([i], 'measure');
      } else if (words.CORRECT.has(stem)) {
        set('correct_rate', nextIsRate ? [i, i + 1] : [i]);
        if (this.freeIn(words.ANSWER_NOUNS, i + 1)) this.claim([i + 1], 'measure');
      } else if (words.WRONG.has(stem)) {
        set('correct_rate', [i]);
        this.difficulty ??= 'asc';
        if (this.freeIn(words.ANSWER_NOUNS, i + 1)) this.claim([i + 1], 'measure');
      } else if (words.EASY.has(stem)) {
        set('correct_rate', [i]);
        this.difficulty ??= 'desc';
      } else if (words.AVERAGE.has(stem)) set('average', [i]);
      else if (words.MEDIAN.has(stem)) set('median', [i]);
      else if (words.MINIMUM.has(stem)) set('min', [i]);
      else if (words.MAXIMUM.has(stem)) set('max', [i]);
      else if (words.SUM.has(stem)) set('sum', [i]);
      else if (words.POINTS.has(stem)) set('points', [i]);
      else if (words.RESPONSES.has(stem)) {
        this.hasResponsesWord = true;
        this.claim([i], 'measure');
      } else if (words.RATE.has(stem)) {
        this.isRate = true;
        this.claim([i], 'measure');
      } else if (words.SCORE_WORDS.has(stem)) {
        this.hasScoreWord = true;
        this.claim([i], 'measure');
      } else if (words.QUESTION_NOUNS.has(stem) && surface === 'questions') {
        this.hasQuestionsNoun = true;
        this.claim([i], 'subject');
      } else if (words.LEARNER_NOUNS.has(stem)) {
        this.hasLearnerNoun = true;
      } else if (surface === 'answers' && this.isCount) {
        this.hasResponsesWord = true;
        this.claim([i], 'measure');
      }
    }
    this.readComparison();
  }

  /**
   * "above 80", "at least 70", "less than 50", "pass mark 70": the pass mark
   * of a pass rate, else a condition on the variable's own value.
   */
  private readComparison() {
    const phrases: { words: string[]; op: ValueOperator }[] = [
      { words: ['at', 'least'], op: 'gte' },
      { words: ['at', 'most'], op: 'lte' },
      { words: ['more', 'than'], op: 'gt' },
      { words: ['greater', 'than'], op: 'gt' },
      { words: ['higher', 'than'], op: 'gt' },
      { words: ['less', 'than'], op: 'lt' },
      { words: ['lower', 'than'], op: 'lt' },
      { words: ['fewer', 'than'], op: 'lt' },
      { words: ['pass', 'mark'], op: 'gte' },
      { words: ['above'], op: 'gt' },
      { words: ['over'], op: 'gt' },
      { words: ['below'], op: 'lt' },
      { words: ['under'], op: 'lt' },
      { words: ['mark'], op: 'gte' },
    ];
    for (let i = 0; i < this.tokens.length; i += 1) {
      const phrase = phrases.find(({ words: parts }) =>
        parts.every((part, offset) => this.surfaceAt(i + offset) === part && this.isFree(i + offset)),
      );
      if (!phrase) continue;
      const at = i + phrase.words.length;
      const value = this.isFree(at) ? (this.tokens[at]?.number ?? null) : null;
      if (value === null) continue;
      this.comparison = { op: phrase.op, value, text: `${phrase.words.join(' ')} ${value}` };
      this.claim(range(i, at + 1), 'measure');
      return;
    }
  }

  private readOrderAndChart() {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      const surface = this.surfaceAt(i);
      if (words.COMPARE_WORDS.has(stem)) {
        this.isCompare = true;
        this.claim([i], 'compare');
      } else if (surface === 'between' || surface === 'and') {
        // "between safety and onboarding" compares; kept free for the courses around it.
        if (surface === 'between') this.isCompare = true;
      } else if (words.ASCENDING.has(stem)) {
        this.sortWord ??= 'asc';
        this.claim([i], 'sort');
      } else if (words.DESCENDING.has(stem)) {
        this.sortWord ??= 'desc';
        this.claim([i], 'sort');
      } else if (surface === 'alphabetical' || surface === 'alphabetically') {
        this.sort = { by: 'label', order: 'asc' };
        this.claim([i], 'sort');
      } else if (surface === 'pie') {
        this.chart = 'pie';
        this.claim([i, ...(['chart', 'graph'].includes(this.surfaceAt(i + 1)) ? [i + 1] : [])], 'chart');
      } else if (
        surface === 'line' ||
        surface === 'bar' ||
        surface === 'bars' ||
        surface === 'column' ||
        surface === 'histogram'
      ) {
        this.chart = surface === 'line' ? 'line' : 'bar';
        this.claim(
          [i, ...(['chart', 'graph', 'charts'].includes(this.surfaceAt(i + 1)) ? [i + 1] : [])],
          'chart',
        );
      } else if (surface === 'table' || surface === 'tabular' || surface === 'spreadsheet') {
        this.chart = 'table';
        this.claim([i], 'chart');
      } else if (
        surface === 'kpi' ||
        ((surface === 'single' || surface === 'one' || surface === 'big') &&
          this.surfaceAt(i + 1) === 'number')
      ) {
        this.chart = 'number';
        this.claim(surface === 'kpi' ? [i] : [i, i + 1], 'chart');
      }
    }
    if (this.chart !== 'auto') this.understood.push(`Chart: ${lower(REPORT_CHART_LABELS[this.chart])}`);
  }

  /** Values of text variables ("for sales", "in EMEA"), when the catalog knows them. */
  private readValues() {
    for (const mention of this.mentions) {
      if (mention.kind !== 'value' || this.roles.has(mention)) continue;
      this.useMention(mention, 'value');
    }
  }

  /** "the fire extinguisher question", or a question's words in quotes. */
  private readQuestionTexts() {
    const scope = this.subjectCourseIds();
    const pool = this.catalog.questions.filter(
      (question) => scope.length === 0 || scope.includes(question.courseId),
    );
    for (const quote of this.quotes) {
      const wanted = normalizeText(quote)
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
      const found = pool.filter((question) =>
        normalizeText(question.questionText ?? '')
          .replace(/[^a-z0-9]+/g, ' ')
          .includes(wanted),
      );
      if (found.length === 0) this.notFound.push(`“${quote}”: no question of yours has that text`);
      else this.pickQuestion(quote, found);
    }
    const questionWord = this.tokens.findIndex(
      (token, position) => this.isFree(position) && token.surface === 'question',
    );
    if (questionWord < 0) return;
    this.claim([questionWord], 'question');
    const inMention = (position: number) =>
      this.mentions.some((mention) => position >= mention.start && position < mention.end);
    const content = this.tokens
      .map((token, position) => ({ token, position }))
      .filter(
        ({ token, position }) =>
          this.isFree(position) &&
          !inMention(position) &&
          token.number === null &&
          !words.KNOWN_WORDS.has(token.stem) &&
          token.surface.length > 2,
      );
    if (content.length === 0) return;
    // Rare words weigh more: "breach" says more than "data".
    const documents = pool.map((question) => new Set(stems(question.questionText ?? '')));
    const weight = (word: string) =>
      Math.log(1 + pool.length / Math.max(1, documents.filter((document) => document.has(word)).length));
    const scored = pool
      .map((question, position) => {
        const document = documents[position] ?? new Set<string>();
        const hits = content.filter(({ token }) => document.has(token.stem));
        return { question, hits, score: hits.reduce((sum, { token }) => sum + weight(token.stem), 0) };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    const best = scored[0];
    if (!best) {
      this.hasUnfoundQuestion = true;
      return;
    }
    const tied = scored.filter((entry) => Math.abs(entry.score - best.score) < 1e-9);
    this.claim(
      tied.flatMap((entry) => entry.hits.map(({ position }) => position)),
      'question',
    );
    const phrase = best.hits.map(({ token }) => token.surface).join(' ');
    this.pickQuestion(
      phrase,
      tied.map((entry) => entry.question),
    );
  }

  private pickQuestion(phrase: string, found: readonly CatalogQuestion[]) {
    const chosen =
      found.length === 1
        ? found[0]
        : found.find(
            (question) =>
              question.id ===
              this.choiceFor(
                phrase,
                found.map((q) => q.id),
              ),
          );
    if (chosen) {
      this.questionMatches.push(chosen);
      return;
    }
    this.ask(
      phrase,
      `“${phrase}” matches ${found.length} questions: which one?`,
      found.slice(0, 10).map(questionOption),
    );
  }

  private ask(phrase: string, message: string, options: AmbiguityOption[]) {
    if (!this.ambiguities.some((ambiguity) => ambiguity.phrase === phrase)) {
      this.ambiguities.push({ phrase, message, options });
    }
  }

  // ---- courses of the subject ----------------------------------------------------------

  private subjectMentions(): CourseMention[] {
    return this.mentions.filter(
      (mention): mention is CourseMention =>
        mention.kind === 'course' && (this.roles.get(mention) ?? 'subject') === 'subject',
    );
  }

  /** The courses the sentence scopes the subject to (ambiguous names left out until resolved). */
  private subjectCourseIds(): string[] {
    const ids: string[] = [];
    for (const mention of this.subjectMentions()) {
      const course = this.resolveCourse(mention, false);
      if (course && !ids.includes(course.id)) ids.push(course.id);
    }
    return ids;
  }

  /**
   * The one course a mention names: the only match, the user's choice, or
   * the only one of the matches that has what the sentence reads (only one
   * onboarding course has a satisfaction variable). Else a question back.
   */
  private resolveCourse(mention: CourseMention, shouldAsk: boolean): CatalogCourse | null {
    if (mention.courses.length === 1) return mention.courses[0] ?? null;
    const ids = mention.courses.map((course) => course.id);
    const chosen = this.choiceFor(mention.phrase, ids);
    if (chosen) return mention.courses.find((course) => course.id === chosen) ?? null;
    const readCourses = new Set([
      ...this.mentions
        .filter(
          (other): other is VariableMention =>
            other.kind === 'variable' && (this.roles.get(other) ?? 'subject') === 'subject',
        )
        .flatMap((other) =>
          other.names.flatMap((name) => name.variables.map((variable) => variable.courseId)),
        ),
      ...this.questionRefs.flatMap((ref) =>
        this.catalog.questions
          .filter((question) => matchesRef(question, ref))
          .map((question) => question.courseId),
      ),
    ]);
    const having = mention.courses.filter((course) => readCourses.has(course.id));
    if (having.length === 1) return having[0] ?? null;
    if (shouldAsk) {
      this.isBlocked = true;
      this.ask(
        mention.phrase,
        `“${mention.phrase}” matches ${mention.courses.length} courses: which one do you mean?`,
        mention.courses.map((course) => ({ kind: 'course', id: course.id, label: course.courseTitle })),
      );
    }
    return null;
  }

  // ---- items -----------------------------------------------------------------------------

  private buildItems(): DraftItem[] {
    // Every mention of a course the subject reads, resolved (or asked back).
    const subjectCourses: CatalogCourse[] = [];
    for (const mention of this.subjectMentions()) {
      this.claim(range(mention.start, mention.end), 'course');
      const course = this.resolveCourse(mention, true);
      if (course && !subjectCourses.some((known) => known.id === course.id)) subjectCourses.push(course);
    }
    const activity: ActivityCondition[] = [];
    for (const [position, { condition, mention: own }] of this.activity.entries()) {
      // "started but did not complete the safety course": both verbs share the course.
      const mention =
        own ?? this.activity.slice(position + 1).find((entry) => entry.mention)?.mention ?? null;
      const course = mention ? this.resolveCourse(mention, true) : null;
      activity.push({ ...condition, courseId: course?.id ?? null });
      const verb = { started: 'start', completed: 'complete', passed: 'pass', failed: 'fail' }[
        condition.event
      ];
      this.understood.push(
        `Only learners who ${condition.did ? '' : 'did not '}${condition.did ? condition.event : verb} ${course?.courseTitle ?? 'a course'}`,
      );
    }
    if (subjectCourses.length > 0) {
      this.understood.push(
        `${subjectCourses.length === 1 ? 'Course' : 'Courses'}: ${listOf(subjectCourses.map((course) => course.courseTitle))}`,
      );
    }
    // Agents named scope the agent variables read, as courses scope course variables.
    const agentMentions = this.mentions.filter(
      (mention): mention is AgentMention => mention.kind === 'agent' && !this.roles.has(mention),
    );
    const subjectAgents: CatalogAgent[] = [];
    for (const mention of agentMentions) {
      this.useMention(mention, 'subject');
      for (const agent of mention.agents) {
        if (!subjectAgents.some((known) => known.id === agent.id)) subjectAgents.push(agent);
      }
    }

    const values: ValueCondition[] = [];
    for (const mention of this.mentions) {
      if (mention.kind !== 'value' || this.roles.get(mention) !== 'value') continue;
      const value = mention.values[0];
      if (!value) continue;
      values.push({ variableName: value.variableName, op: 'eq', value: value.value });
      this.understood.push(`Only learners whose ${value.variableName.replace(/_/g, ' ')} is ${value.value}`);
    }

    let breakdownVariableName: string | null = null;
    if (this.breakdownVariable) {
      const names = this.breakdownVariable.names;
      const chosen = this.choiceFor(
        this.breakdownVariable.phrase,
        names.flatMap((name) => name.variables.map((variable) => variable.id)),
      );
      const name =
        names.length === 1
          ? names[0]
          : names.find((entry) => entry.variables.some((variable) => variable.id === chosen));
      if (name) breakdownVariableName = name.name;
      else {
        this.isBlocked = true;
        this.ask(
          this.breakdownVariable.phrase,
          `“${this.breakdownVariable.phrase}” matches ${names.length} variables: which one groups the learners?`,
          names.map((entry) => variableOption(entry.variables[0] as CatalogVariable)),
        );
      }
    }

    // The subjects: questions named, variables named, else every question or the courses.
    const subjects: { subject: ReportSubject; dataType: string | null; label: string }[] = [];
    for (const ref of this.questionRefs) {
      const subject = this.identifierSubject(ref, subjectCourses);
      if (subject) subjects.push(subject);
    }
    for (const question of this.questionMatches) {
      if (
        subjects.some(
          (entry) => entry.subject.kind === 'question' && entry.subject.questionId === question.id,
        )
      )
        continue;
      subjects.push({
        subject: { kind: 'question', questionId: question.id },
        dataType: null,
        label: `Question: ${questionLabel(question)} (${question.courseTitle})`,
      });
    }
    const seenNames = new Set<string>();
    const readAgents = new Set<string>();
    for (const mention of this.mentions) {
      if (mention.kind !== 'variable' || this.roles.has(mention)) continue;
      this.useMention(mention, 'subject');
      const picked = this.variablesOf(mention, subjectCourses, subjectAgents);
      if (!picked) continue;
      const key = `${picked.kind} ${picked.name}`;
      if (seenNames.has(key)) continue;
      seenNames.add(key);
      const first = picked.variables[0] as CatalogVariable | CatalogChatbotVariable;
      if (picked.kind === 'variable') {
        subjects.push({
          subject: { kind: 'variable', variableIds: picked.variables.map((variable) => variable.id) },
          dataType: first.dataType,
          label: `Variable: ${variableLabel(first)} (${ownersOf(picked)})`,
        });
      } else {
        picked.variables.forEach((variable) => readAgents.add(variable.chatbotId));
        subjects.push({
          subject: {
            kind: 'chatbot_variable',
            chatbotVariableIds: picked.variables.map((variable) => variable.id),
          },
          dataType: first.dataType,
          label: `Agent variable: ${variableLabel(first)} (${ownersOf(picked)})`,
        });
      }
    }
    // An agent is read through the variables it captured: named alone, it is said.
    const unread = subjectAgents.filter((agent) => !readAgents.has(agent.id));
    if (unread.length > 0 && !this.isBlocked && this.ambiguities.length === 0) {
      const captured = this.catalog.chatbotVariables.find((variable) => variable.chatbotId === unread[0]?.id);
      this.notFound.push(
        `${listOf(unread.map((agent) => agent.name))}: an agent is reported through the variables it captures; name one${captured ? `, such as ${variableLabel(captured)}` : ''}`,
      );
    }
    const read = subjectAgents.filter((agent) => readAgents.has(agent.id));
    if (read.length > 0) {
      this.understood.push(
        `${read.length === 1 ? 'Agent' : 'Agents'}: ${listOf(read.map((agent) => agent.name))}`,
      );
    }
    const courseIds = subjectCourses.map((course) => course.id);
    // A question named but not found, or one waiting for an answer, is the subject: no stand-in
    // for it; nor for an agent named, whose values are no course's.
    const hasNamedQuestion = this.questionRefs.length > 0 || this.quotes.length > 0;
    if (
      subjects.length === 0 &&
      this.ambiguities.length === 0 &&
      !hasNamedQuestion &&
      subjectAgents.length === 0
    ) {
      if (this.isQuestionsIntent()) {
        subjects.push({
          subject: { kind: 'questions', courseIds },
          dataType: null,
          label: `Questions of ${subjectCourses.length > 0 ? listOf(subjectCourses.map((course) => course.courseTitle)) : 'every course'}`,
        });
      } else if (this.isCoursesIntent(subjectCourses, activity)) {
        subjects.push({
          subject: { kind: 'courses', courseIds },
          dataType: null,
          label: subjectCourses.length > 0 ? '' : 'Every course',
        });
      }
    }
    if (this.isBlocked) return [];

    const items: DraftItem[] = [];
    const seen = new Set<string>();
    const asked = this.measures.length > 1 ? this.measures : [this.measure];
    for (const entry of subjects) {
      for (const measure of asked) {
        const { subject, dataType, label } = this.courseMeasureOf(entry, measure);
        const context = { activity, values, breakdownVariableName, subjectCourses, subjectAgents };
        const query = this.queryFor(subject, dataType, measure, context);
        const key = JSON.stringify(query);
        if (!query || seen.has(key) || items.length >= MAX_REPORT_ITEMS) continue;
        seen.add(key);
        if (label) this.understood.push(label);
        items.push({ displayName: null, chart: this.chart, query });
        this.describeQuery(query);
      }
    }
    return items;
  }

  /**
   * Completions, completion rates, and a pass rate without a mark belong to
   * the course runs, not to a number: "final score and pass rate for gdpr" is
   * the course's pass rate (its own pass mark) beside the score.
   */
  private courseMeasureOf(
    entry: { subject: ReportSubject; dataType: string | null; label: string },
    measure: MeasureFn | null,
  ): { subject: ReportSubject; dataType: string | null; label: string } {
    if (entry.subject.kind !== 'variable' || measure === null) return entry;
    const isCourseMeasure =
      measure === 'completions' ||
      measure === 'completion_rate' ||
      (measure === 'pass_rate' && entry.dataType === 'number' && this.comparison === null);
    if (!isCourseMeasure) return entry;
    const ids = entry.subject.variableIds;
    const variables = this.catalog.variables.filter((variable) => ids.includes(variable.id));
    const courseIds = [...new Set(variables.map((variable) => variable.courseId))];
    const titles = [...new Set(variables.map((variable) => variable.courseTitle))];
    return {
      subject: { kind: 'courses', courseIds },
      dataType: null,
      label: `${MEASURE_LABELS[measure]} of the course runs of ${listOf(titles)}`,
    };
  }

  private isQuestionsIntent(): boolean {
    if (this.hasUnfoundQuestion) return false;
    return (
      this.hasQuestionsNoun ||
      this.breakdown === 'question' ||
      this.breakdown === 'answer' ||
      this.difficulty !== null ||
      this.measure === 'correct_rate' ||
      this.measure === 'points' ||
      this.hasResponsesWord
    );
  }

  private isCoursesIntent(
    subjectCourses: readonly CatalogCourse[],
    activity: readonly ActivityCondition[],
  ): boolean {
    if (this.hasUnfoundQuestion) return false;
    return (
      subjectCourses.length > 0 ||
      activity.length > 0 ||
      this.isCount ||
      this.isLearnerList ||
      this.isRanking ||
      this.hasCompleteVerb ||
      this.hasCompletionsNoun ||
      this.hasStartVerb ||
      this.hasScoreWord ||
      this.hasLearnerNoun ||
      this.passEvent !== null ||
      (this.measure !== null && SUBJECT_MEASURES.courses.includes(this.measure))
    );
  }

  /** "question 3 of the safety course": by identifier, so the item survives a republish. */
  private identifierSubject(ref: QuestionRef, subjectCourses: readonly CatalogCourse[]) {
    const what = questionLabel({
      slideNumber: ref.slideNumber,
      questionNumber: ref.questionNumber,
      questionText: null,
    });
    const scope = subjectCourses.map((course) => course.id);
    const found = this.catalog.questions.filter(
      (question) => matchesRef(question, ref) && (scope.length === 0 || scope.includes(question.courseId)),
    );
    if (found.length === 0) {
      const where =
        subjectCourses.length > 0 ? ` of ${listOf(subjectCourses.map((course) => course.courseTitle))}` : '';
      this.notFound.push(`${what}${where}: no such question`);
      return null;
    }
    let question = found.length === 1 ? found[0] : undefined;
    if (!question) {
      const phrase = lower(what).replace(' · ', ' ');
      const chosen = this.choiceFor(
        phrase,
        found.map((entry) => entry.id),
      );
      question = found.find((entry) => entry.id === chosen);
      if (!question) {
        this.ask(
          phrase,
          `${what} matches ${found.length} questions: which one?`,
          found.slice(0, 10).map(questionOption),
        );
        return null;
      }
    }
    // When one of several same-numbered questions was chosen, its slide tells it apart.
    const slideNumber = found.length > 1 ? question.slideNumber : ref.slideNumber;
    return {
      subject: {
        kind: 'identifier' as const,
        courseId: question.courseId,
        slideNumber,
        questionNumber: ref.questionNumber,
        questionText: null,
      },
      dataType: null,
      label: `Question: ${questionLabel({ slideNumber, questionNumber: ref.questionNumber, questionText: question.questionText })} (${question.courseTitle})`,
    };
  }

  /**
   * The variables of a mention: one name of one kind, scoped to the courses
   * or agents named. Where several fit (a course variable and an agent
   * variable both called "feedback"), the one the sentence tells apart (an
   * agent named or "by agent", a course named or "by course") is taken, as
   * for courses; else the user's choice, else a question back.
   */
  private variablesOf(
    mention: VariableMention,
    subjectCourses: readonly CatalogCourse[],
    subjectAgents: readonly CatalogAgent[],
  ): PickedVariables | null {
    const options: PickedVariables[] = [
      ...mention.names.map((entry) => ({ kind: 'variable' as const, ...entry })),
      ...mention.chatbotNames.map((entry) => ({ kind: 'chatbot_variable' as const, ...entry })),
    ];
    const fits = (option: PickedVariables) =>
      option.kind === 'variable'
        ? this.breakdown === 'course' ||
          option.variables.some((variable) =>
            subjectCourses.some((course) => course.id === variable.courseId),
          )
        : this.breakdown === 'agent' ||
          option.variables.some((variable) => subjectAgents.some((agent) => agent.id === variable.chatbotId));
    const fitting = options.length > 1 ? options.filter(fits) : options;
    let entry = fitting.length === 1 ? fitting[0] : undefined;
    if (!entry) {
      const chosen = this.choiceFor(
        mention.phrase,
        options.flatMap((option) => option.variables.map((variable) => variable.id)),
      );
      entry = options.find((option) => option.variables.some((variable) => variable.id === chosen));
    }
    if (!entry) {
      this.ask(
        mention.phrase,
        `“${mention.phrase}” matches ${options.length} variables: which one?`,
        options.map(pickedOption),
      );
      return null;
    }
    const courses = subjectCourses.map((course) => ({ id: course.id, name: course.courseTitle }));
    if (entry.kind === 'variable') {
      const variables = this.scoped(entry, courses, 'course', (variable) => variable.courseId);
      return { ...entry, variables };
    }
    // The report model refuses a course filter on agent values: said, not silently narrowed.
    if (courses.length > 0) {
      this.notFound.push(
        `${variableLabel(entry.variables[0] as CatalogChatbotVariable)} in ${listOf(courses.map((course) => course.name))}: its values belong to agents, not courses, so the report reads it in ${ownersOf(entry)}`,
      );
    }
    const variables = this.scoped(entry, subjectAgents, 'agent', (variable) => variable.chatbotId);
    return { ...entry, variables };
  }

  /** A name's variables in the courses (or agents) named; all of them, said, when none has it. */
  private scoped<T extends CatalogVariable | CatalogChatbotVariable>(
    entry: NamedVariables<T>,
    owners: readonly { id: string; name: string }[],
    noun: 'course' | 'agent',
    ownerOf: (variable: T) => string,
  ): T[] {
    if (owners.length === 0) return entry.variables;
    const scoped = entry.variables.filter((variable) =>
      owners.some((owner) => owner.id === ownerOf(variable)),
    );
    if (scoped.length > 0) return scoped;
    this.notFound.push(
      `${variableLabel(entry.variables[0] as T)} in ${listOf(owners.map((owner) => owner.name))}: that ${noun} has no such variable, so the report reads it in ${ownersOf(entry)}`,
    );
    return entry.variables;
  }

  private queryFor(
    subject: ReportSubject,
    dataType: string | null,
    asked: MeasureFn | null,
    context: {
      activity: ActivityCondition[];
      values: ValueCondition[];
      breakdownVariableName: string | null;
      subjectCourses: readonly CatalogCourse[];
      subjectAgents: readonly CatalogAgent[];
    },
  ): ReportQuery | null {
    const kind = subject.kind;
    const isValueSubject = VARIABLE_SUBJECTS.includes(kind);
    const values = [...context.values];
    const activity = [...context.activity];
    let measure = this.measureFor(kind, dataType, asked);
    let breakdownVariableName = context.breakdownVariableName;

    // "How many would recommend": learners whose true/false value is true.
    if (isValueSubject && dataType === 'boolean' && this.isCount && measure === null) {
      measure = 'learners';
      values.push({ variableName: null, op: 'eq', value: true });
    }
    // "How many passed": learners who passed (a course measure has no count of passes).
    if (kind === 'courses' && this.isCount && this.passEvent && activity.length === 0) {
      measure = 'learners';
      const only = context.subjectCourses.length === 1 ? context.subjectCourses[0] : undefined;
      activity.push({ did: true, event: this.passEvent, courseId: only?.id ?? null });
    }

    let breakdown: BreakdownKind = this.breakdown ?? 'none';
    const spansCourses =
      (kind === 'courses' || kind === 'questions') && subject.courseIds.length > 1
        ? true
        : kind === 'variable' &&
          new Set(
            this.catalog.variables
              .filter((variable) => subject.variableIds.includes(variable.id))
              .map((variable) => variable.courseId),
          ).size > 1;
    const spansAgents =
      kind === 'chatbot_variable' &&
      new Set(
        this.catalog.chatbotVariables
          .filter((variable) => subject.chatbotVariableIds.includes(variable.id))
          .map((variable) => variable.chatbotId),
      ).size > 1;
    if (breakdown === 'none' && spansCourses && (this.isCompare || context.subjectCourses.length > 1))
      breakdown = 'course';
    if (breakdown === 'none' && spansAgents && (this.isCompare || context.subjectAgents.length > 1))
      breakdown = 'agent';
    if (breakdown === 'none' && kind === 'questions' && (this.hasQuestionsNoun || this.difficulty !== null))
      breakdown = 'question';
    // "Most common departments": learners grouped by the variable's own values.
    if (this.isMostCommon && isValueSubject && breakdown === 'none') {
      if (kind === 'variable') {
        breakdown = 'variable';
        breakdownVariableName =
          this.catalog.variables.find((variable) => subject.variableIds.includes(variable.id))?.name ?? null;
        measure ??= 'learners';
      } else {
        this.notFound.push(
          'Most common values: an agent variable cannot be grouped by its own values; “by learner” lists each learner’s value',
        );
      }
    }
    if (!SUBJECT_BREAKDOWNS[kind].includes(breakdown)) {
      this.notFound.push(
        `Broken down by ${lower(BREAKDOWN_LABELS[breakdown])}: not possible for ${kind === 'identifier' ? 'a question' : aSubject(kind)}`,
      );
      breakdown = 'none';
    }
    // A leaderboard of courses ranks learners by their scores.
    if (kind === 'courses' && measure === null && breakdown === 'learner' && this.isRanking)
      measure = 'average';
    // "Lowest final score" with nothing to rank is the minimum.
    if (
      measure === null &&
      breakdown === 'none' &&
      this.sortWord &&
      !this.isMostCommon &&
      (kind === 'courses' || dataType === 'number')
    ) {
      if (this.hasScoreWord || isValueSubject) measure = this.sortWord === 'asc' ? 'min' : 'max';
    }

    let mark: number | null = null;
    const comparison = this.comparison;
    if (measure === 'pass_rate' && isValueSubject && dataType === 'number') {
      if (comparison === null) {
        this.notFound.push('Pass rate of a number needs a pass mark: say “at least 70”');
        measure = null;
      } else mark = comparison.value;
    } else if (comparison && isValueSubject && dataType === 'number') {
      values.push({ variableName: null, op: comparison.op, value: comparison.value });
      this.understood.push(
        `Only where the value ${VALUE_OPERATOR_LABELS[comparison.op]} ${comparison.value}`,
      );
    } else if (comparison) {
      this.notFound.push(
        `“${comparison.text}”: only a number variable’s values can be compared; name one, such as a score`,
      );
    }

    let sort: Sort | null = this.sort;
    const isGrouped = breakdown !== 'none' && !TIME_BREAKDOWNS.includes(breakdown);
    if (isGrouped && sort === null) {
      const order =
        (measure === 'correct_rate' || (measure === null && !isValueSubject && kind !== 'courses')
          ? this.difficulty
          : null) ?? this.sortWord;
      if (order) sort = { by: 'measure', order };
    }
    if (!isGrouped && sort?.by === 'measure') sort = null;

    const input: ReportQueryInput = {
      subject,
      measure: measure ? { fn: measure, mark } : null,
      breakdown: {
        kind: breakdown,
        variableName: breakdown === 'variable' ? breakdownVariableName : null,
      },
      filters: { courseIds: [], period: this.period, values, activity },
      sort,
      limit: isGrouped ? this.limit : null,
    };
    const parsed = reportQuerySchema.safeParse(input);
    if (!parsed.success) {
      this.notFound.push(parsed.error.issues.map((issue) => issue.message).join('; '));
      return null;
    }
    return parsed.data;
  }

  /** The measure the words ask for, if the subject has it (else its default, said in notFound). */
  private measureFor(
    kind: ReportSubject['kind'],
    dataType: string | null,
    asked: MeasureFn | null,
  ): MeasureFn | null {
    const allowed = SUBJECT_MEASURES[kind];
    let wanted: MeasureFn | null = asked;
    if (kind === 'courses') {
      if (wanted === null && this.isRate && this.hasCompleteVerb) wanted = 'completion_rate';
      if (wanted === null && this.passEvent === 'passed' && !this.isCount) wanted = 'pass_rate';
      if (wanted === null && (this.hasCompletionsNoun || this.hasCompleteVerb)) wanted = 'completions';
      if (wanted === null && this.hasScoreWord) wanted = 'average';
      if (wanted === null && this.isCount) wanted = 'learners';
    } else if (VARIABLE_SUBJECTS.includes(kind)) {
      if (wanted === null && this.isRate && dataType === 'boolean') wanted = 'pass_rate';
      if (wanted === null && this.passEvent === 'passed' && dataType === 'boolean') wanted = 'pass_rate';
      if (wanted === null && this.isCount && dataType !== 'boolean') wanted = 'learners';
    } else {
      if (wanted === null && this.hasResponsesWord && !(this.isCount && this.hasLearnerNoun))
        wanted = 'responses';
      if (wanted === null && this.isCount) wanted = 'learners';
    }
    if (wanted === null) return null;
    if (
      VARIABLE_SUBJECTS.includes(kind) &&
      dataType !== null &&
      dataType !== 'number' &&
      ['average', 'median', 'min', 'max', 'sum'].includes(wanted)
    ) {
      this.notFound.push(
        `${MEASURE_LABELS[wanted]} needs a number; this is a ${dataType === 'boolean' ? 'true/false' : dataType} variable`,
      );
      return null;
    }
    if (!allowed.includes(wanted)) {
      this.notFound.push(
        `${MEASURE_LABELS[wanted]}: not available for ${kind === 'courses' ? 'courses' : VARIABLE_SUBJECTS.includes(kind) ? aSubject(kind) : 'questions'}`,
      );
      return null;
    }
    return wanted;
  }

  private describeQuery(query: ReportQuery) {
    if (query.measure)
      this.understood.push(
        `Measure: ${lower(MEASURE_LABELS[query.measure.fn])}${query.measure.mark !== null ? ` (mark ${query.measure.mark})` : ''}`,
      );
    const breakdown = query.breakdown;
    if (breakdown.kind === 'variable' && breakdown.variableName) {
      this.understood.push(`Broken down by ${breakdown.variableName.replace(/_/g, ' ')}`);
    } else if (breakdown.kind !== 'none') {
      this.understood.push(`Broken down by ${lower(BREAKDOWN_LABELS[breakdown.kind])}`);
    }
    if (query.sort && query.breakdown.kind !== 'none') {
      this.understood.push(
        query.sort.by === 'label'
          ? 'Sorted by name'
          : query.sort.order === 'asc'
            ? 'Lowest first'
            : 'Highest first',
      );
    }
  }

  /** Words nothing could place: said, never silently dropped. */
  private reportLeftovers() {
    const groups: Token[][] = [];
    let current: Token[] = [];
    this.tokens.forEach((token, position) => {
      const isUnknown =
        this.isFree(position) &&
        token.number === null &&
        !words.FILLER.has(token.stem) &&
        !words.KNOWN_WORDS.has(token.stem) &&
        token.surface.length > 1;
      if (isUnknown) current.push(token);
      else if (current.length > 0) {
        groups.push(current);
        current = [];
      }
    });
    if (current.length > 0) groups.push(current);
    for (const group of groups) {
      const phrase = group.map((token) => token.surface).join(' ');
      // A word of a name, or one of its family ("certification", "certified"): suggest the name.
      const partOf = [...this.catalog.variables, ...this.catalog.chatbotVariables].find((variable) =>
        group.some((token) =>
          stems(`${variable.name.replace(/_/g, ' ')} ${variable.title ?? ''}`).some(
            (word) => word === token.stem || sharesRoot(word, token.stem),
          ),
        ),
      );
      const hasValues = (this.catalog.values ?? []).length > 0;
      this.notFound.push(
        partOf
          ? `“${phrase}”: no name of yours is exactly that; did you mean ${variableLabel(partOf)}?`
          : `“${phrase}”: no course, variable or question of yours has that name${hasValues ? ', nor is it a value' : ''}`,
      );
    }
  }

  private answer(items: DraftItem[]): GeneratedReport {
    if (items.length === 0 && this.notFound.length === 0 && this.ambiguities.length === 0) {
      this.notFound.push(
        'Name what to report on: a course (“completion rate of the safety course”), a variable (“average final score by department”) or questions (“hardest questions in GDPR”)',
      );
    }
    const draft: ReportDraft = customReportDraftSchema.parse({
      name: reportName(this.prompt),
      description: `Generated from: ${this.prompt.trim().slice(0, 500)}`,
      reportType: reportTypeOf(items[0] ?? null),
      config: { periodDays: null, limit: null },
      items,
    });
    return {
      engine: 'builtin',
      draft,
      understood: [...new Set(this.understood)],
      notFound: [...new Set(this.notFound)],
      ambiguities: this.ambiguities,
    };
  }
}

function matchesRef(
  question: CatalogQuestion,
  ref: Pick<QuestionRef, 'slideNumber' | 'questionNumber'>,
): boolean {
  return (
    (ref.questionNumber === null || question.questionNumber === ref.questionNumber) &&
    (ref.slideNumber === null || question.slideNumber === ref.slideNumber)
  );
}

function questionOption(question: CatalogQuestion): AmbiguityOption {
  return { kind: 'question', id: question.id, label: `${questionLabel(question)} (${question.courseTitle})` };
}

function variableOption(variable: CatalogVariable): AmbiguityOption {
  return { kind: 'variable', id: variable.id, label: `${variableLabel(variable)} (${variable.courseTitle})` };
}

/** The courses or agents a name's variables are in, for messages. */
function ownersOf(entry: NamedVariables<CatalogVariable | CatalogChatbotVariable>): string {
  return listOf([
    ...new Set(
      entry.variables.map((variable) =>
        'courseTitle' in variable ? variable.courseTitle : variable.chatbotName,
      ),
    ),
  ]);
}

/** An option of a question back; an agent's variable is a variable too, labelled with its agent. */
function pickedOption(picked: PickedVariables): AmbiguityOption {
  if (picked.kind === 'variable') return variableOption(picked.variables[0] as CatalogVariable);
  const first = picked.variables[0] as CatalogChatbotVariable;
  return {
    kind: 'variable',
    id: first.id,
    label: `${variableLabel(first)} (agent ${listOf([...new Set(picked.variables.map((variable) => variable.chatbotName))])})`,
  };
}

/** The report type of the first version, from the first item (the report-level chart). */
export function reportTypeOf(item: Pick<DraftItem, 'chart' | 'query'> | null): CustomReportType {
  if (!item) return 'table';
  if (
    item.chart === 'pie' ||
    item.chart === 'line' ||
    item.chart === 'bar' ||
    item.chart === 'leaderboard' ||
    item.chart === 'table'
  ) {
    return item.chart;
  }
  const kind = item.query.breakdown.kind;
  if (TIME_BREAKDOWNS.includes(kind)) return 'line';
  if (kind === 'learner') return 'leaderboard';
  if (kind === 'none') return 'table';
  return 'bar';
}

/** Two words of at least six letters that begin alike ("certif…"): probably one family. */
function sharesRoot(a: string, b: string): boolean {
  if (a.length < 6 || b.length < 6) return false;
  let common = 0;
  while (common < a.length && a[common] === b[common]) common += 1;
  return common >= 6;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}
