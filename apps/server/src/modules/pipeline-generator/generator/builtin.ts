import type { Condition, ConditionOperator, CourseTriggerEvent, DelayUnit } from '@courselens/contracts';
import { buildDraft, emptyPlan, type Plan, type PlanAction, type PlanSource } from './draft';
import * as lex from './lexicon';
import { findMentions, indexCatalog, type Mention } from './mentions';
import {
  proposeBroadcast,
  proposeEmail,
  proposeNotifyTeam,
  proposeSetVariable,
  proposeWebhook,
  type EmailTarget,
  type RunContext,
} from './proposals';
import { readSchedule } from './schedule';
import { extract, markerOf, originalCasing, stem, tokenize, type Extracted, type Token } from './text';
import type {
  Ambiguity,
  CatalogAction,
  CatalogCourse,
  CatalogVariable,
  GeneratedPipeline,
  GeneratorChoices,
  PipelineGeneratorCatalog,
} from './types';

// The built-in engine: reads a training manager's sentence against the
// organization's own names and the intents it knows, in this order:
// 1. things that are not words (addresses, quotes), then the fixed phrases
//    that claim their words: a schedule, a button, a wait, "set X to Y";
// 2. the organization's names: courses, variables, actions (mentions.ts);
// 3. what starts a run: course events as verbs ("fails", "completes"), with
//    their counts ("twice") and negations ("has not finished"), or a value
//    arriving ("scores below 50");
// 4. the conditions: values compared, answers right or wrong, e-mail domains,
//    another variable's value; a branch when the sentence says "otherwise";
// 5. the actions: one of the organization's when the sentence names it,
//    else a new one of the right type.
// Every word it did not use and that is not a small word is reported back,
// and a name that fits two courses is asked back instead of guessed.

type Claim = string | null;

type EventUse = {
  position: number;
  event: CourseTriggerEvent;
  negated: boolean;
  inIfClause: boolean;
  count: { op: ConditionOperator; value: number } | null;
};

type HeadKind = 'email' | 'send' | 'notify' | 'set' | 'clear';

type SetItem = { position: number; variableName: string; value: string | number | boolean | null };

function sentenceName(prompt: string): string {
  const clean = prompt
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const first = clean.charAt(0).toUpperCase() + clean.slice(1);
  return first.length <= 120 ? first : `${first.slice(0, 119).trimEnd()}…`;
}

export function generateBuiltin(
  prompt: string,
  catalog: PipelineGeneratorCatalog,
  choices: GeneratorChoices = {},
): GeneratedPipeline {
  return new Reading(prompt, catalog, choices).run();
}

class Reading {
  private readonly tokens: Token[];
  private readonly claims: Claim[];
  private readonly extracted: Extracted;
  private readonly unmapped: string[] = [];
  private readonly ambiguities: Ambiguity[] = [];
  private readonly notes: string[] = [];
  private mentions: Mention[] = [];
  /** Where "otherwise" splits the sentence, and where the "if" it answers starts. */
  private otherwiseAt: number | null = null;
  private ifAt: number | null = null;
  /** More e-mails the clause being read asks for ("e-mail them and the team"). */
  private extraEmails: PlanAction[] = [];

  constructor(
    private readonly prompt: string,
    private readonly catalog: PipelineGeneratorCatalog,
    private readonly choices: GeneratorChoices,
  ) {
    const { text, extracted } = extract(prompt);
    this.extracted = extracted;
    this.tokens = tokenize(text);
    this.claims = this.tokens.map(() => null);
  }

  // ---- token helpers ---------------------------------------------------------------------

  private isFree = (position: number) => this.claims[position] === null;

  private claim(positions: Iterable<number>, what: string) {
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

  private isBreak(position: number): boolean {
    return lex.CLAUSE_BREAKS.has(this.stemAt(position));
  }

  /** A number written with digits or in words ("three"), never "a". */
  private numberAt(position: number): number | null {
    const token = this.tokens[position];
    if (!token || token.surface === 'a' || token.surface === 'an') return null;
    return token.number;
  }

  private mentionAt(position: number): Mention | undefined {
    return this.mentions.find((mention) => position >= mention.start && position < mention.end);
  }

  private markerAt(position: number) {
    return markerOf(this.surfaceAt(position));
  }

  // ---- the reading ------------------------------------------------------------------------

  run(): GeneratedPipeline {
    const plan = emptyPlan(sentenceName(this.prompt));
    this.findBranch();
    const schedule = readSchedule(this.tokens, this.isFree);
    if (schedule) {
      this.claim(schedule.used, 'schedule');
      if (schedule.assumed) this.notes.push(`Runs ${schedule.assumed}.`);
    }
    const isManual = this.readManual();
    const delay = this.readDelay();
    const sets = this.readSets();

    this.mentions = findMentions(this.tokens, indexCatalog(this.catalog), this.isFree);
    for (const mention of this.mentions) {
      this.claim(range(mention.start, mention.end), mention.kind);
    }

    const mapping = this.readMapping();
    if (mapping) {
      plan.mapping = mapping;
      this.reportLeftovers();
      return this.answer(plan);
    }

    const slide = this.readSlide();
    const percent = this.readPercent();
    const correct = this.readCorrectness();
    const events = this.readEvents();
    const domain = this.readDomain();
    const comparisons = this.readComparisons();
    const recorded = this.readRecorded();

    // What starts a run.
    const ifEvents = events.filter((use) => use.inIfClause);
    const mainEvents = events.filter((use) => !use.inIfClause);
    let triggers = [...new Set(mainEvents.filter((use) => !use.negated).map((use) => use.event))];
    if (slide !== null && !triggers.includes('slide.viewed'))
      triggers = ['slide.viewed', ...triggers.filter((event) => event !== 'course.started')];
    if (percent !== null)
      triggers = ['course.progressed', ...triggers.filter((event) => event !== 'slide.viewed')];
    if (correct !== null && !triggers.includes('question.answered')) triggers.push('question.answered');
    // "leaves without finishing": the exit already says it.
    const conditions: Condition[] = [];
    const hasCourseEvent = triggers.length > 0;
    let variableTrigger: string | null = recorded;
    for (const comparison of comparisons) {
      if (!hasCourseEvent && variableTrigger === null) variableTrigger = comparison.variableName;
      if (!hasCourseEvent && variableTrigger === comparison.variableName) {
        if (comparison.value !== null) {
          conditions.push({ field: 'event.value', op: comparison.op, value: comparison.value });
        }
      } else {
        conditions.push({
          field: 'learner.variable',
          variableName: comparison.variableName,
          op: comparison.op,
          value: comparison.value ?? '',
        });
      }
    }
    if (variableTrigger !== null && !hasCourseEvent) {
      triggers = ['variable.set'];
      conditions.unshift({ field: 'event.variable', op: 'eq', value: variableTrigger });
    }
    if (slide !== null) conditions.push({ field: 'event.slide', op: 'eq', value: slide });
    if (percent !== null) conditions.push({ field: 'event.percent', op: 'gte', value: percent });
    if (correct !== null) conditions.push({ field: 'event.correct', op: 'eq', value: correct });
    for (const use of mainEvents) {
      if (use.negated) conditions.push({ field: 'learner.count', eventType: use.event, op: 'eq', value: 0 });
      else if (use.count) conditions.push({ field: 'learner.count', eventType: use.event, ...use.count });
    }
    if (domain) conditions.push({ field: 'learner.email', op: 'ends_with', value: `@${domain}` });

    // The branch: "if they passed …, otherwise …".
    let branchConditions: Condition[] | null = null;
    if (this.otherwiseAt !== null) {
      const passedOrFailed = ifEvents.find(
        (use) => use.event === 'course.passed' || use.event === 'course.failed',
      );
      if (passedOrFailed) {
        const event: CourseTriggerEvent =
          passedOrFailed.negated === (passedOrFailed.event === 'course.passed')
            ? 'course.failed'
            : 'course.passed';
        branchConditions = [{ field: 'event.type', op: 'eq', value: event }];
        // Finishing a course is passing or failing it: the run starts on both.
        triggers = triggers.filter((trigger) => trigger !== 'course.completed');
        for (const outcome of ['course.passed', 'course.failed'] as const) {
          if (!triggers.includes(outcome)) triggers.push(outcome);
        }
      } else if (this.ifAt === null && this.outcomeBranch(triggers)) {
        const event = this.outcomeBranch(triggers)!;
        branchConditions = [{ field: 'event.type', op: 'eq', value: event }];
        for (const outcome of ['course.passed', 'course.failed'] as const) {
          if (!triggers.includes(outcome)) triggers.push(outcome);
        }
      } else if (ifEvents.length > 0) {
        const [use] = ifEvents;
        if (use) {
          branchConditions = [
            use.negated
              ? { field: 'learner.count', eventType: use.event, op: 'eq', value: 0 }
              : { field: 'learner.count', eventType: use.event, op: 'gte', value: 1 },
          ];
        }
      }
    }

    if (this.otherwiseAt !== null && !branchConditions) {
      this.unmapped.push('“Otherwise”: say what it depends on, such as “if they passed …, otherwise …”');
    }

    // The source.
    const sourceCourses = this.sourceCourses();
    if (schedule) {
      plan.source = { kind: 'schedule', cron: schedule.cron, label: this.scheduleLabel(schedule.used) };
    } else if (isManual) {
      plan.source = { kind: 'manual' };
    } else if (triggers.length > 0 && sourceCourses !== 'ambiguous') {
      const courses = this.coursesForTrigger(sourceCourses, triggers, variableTrigger);
      if (courses.length > 0) plan.source = { kind: 'courses', courses, events: ordered(triggers) };
      else this.unmapped.push('Which course: your organization has no course yet');
    } else if (triggers.length === 0 && sourceCourses !== 'ambiguous') {
      this.unmapped.push(
        'When it runs: say when (“when a learner completes …”, “every Monday at 8am”, or “a button”)',
      );
    }
    if (plan.source && plan.source.kind !== 'courses' && (conditions.length > 0 || branchConditions)) {
      this.unmapped.push(
        'The conditions on learners: a run started by a schedule or a button has no learner to check, so they were left out',
      );
      conditions.length = 0;
      branchConditions = null;
    }

    // Conditions before the wait, and what must still hold after it.
    if (delay) {
      plan.delay = delay.delay;
      const isLater = (condition: Condition) =>
        condition.field === 'learner.count' || condition.field === 'learner.variable';
      plan.before = conditions.filter((condition) => !isLater(condition));
      plan.after = conditions.filter(isLater);
    } else {
      plan.before = conditions;
    }

    // The actions.
    const context: RunContext = {
      kind:
        plan.source?.kind === 'schedule' ? 'schedule' : plan.source?.kind === 'manual' ? 'manual' : 'event',
      events: plan.source?.kind === 'courses' ? plan.source.events : [],
    };
    const actions = this.readActions(sets, context);
    if (branchConditions && this.otherwiseAt !== null) {
      const otherwiseAt = this.otherwiseAt;
      plan.branch = {
        conditions: branchConditions,
        yes: actions.filter((item) => item.position < otherwiseAt).map((item) => item.action),
        no: actions.filter((item) => item.position > otherwiseAt).map((item) => item.action),
      };
    } else {
      plan.actions = actions.map((item) => item.action);
    }
    if (actions.length === 0) {
      this.unmapped.push(
        'What it does: name one of your actions, or say “e-mail”, “notify the team”, “set … to …”, “post to a webhook” or “clear the broadcast”',
      );
    }
    this.reportLeftovers();
    return this.answer(plan);
  }

  private answer(plan: Plan): GeneratedPipeline {
    if (this.notes.length > 0) plan.description = this.notes.join(' ');
    const { draft, missingActions, openSettings } = buildDraft(plan, this.catalog);
    return {
      engine: 'builtin',
      model: null,
      draft: {
        ...draft,
        description: draft.description ?? `Drafted from: “${this.prompt.trim().slice(0, 1900)}”`,
      },
      unmapped: [...new Set(this.unmapped)],
      ambiguities: this.ambiguities,
      missingActions,
      openSettings,
    };
  }

  // ---- branch -------------------------------------------------------------------------------

  private findBranch() {
    const otherwise = this.tokens.findIndex((token) => lex.OTHERWISE_WORDS.has(token.stem));
    if (otherwise < 0) return;
    let ifAt: number | null = null;
    for (let i = otherwise - 1; i >= 0; i -= 1) {
      if (lex.IF_WORDS.has(this.stemAt(i))) {
        ifAt = i;
        break;
      }
    }
    // "When a learner passes X, e-mail them, otherwise …": the trigger itself is what is checked.
    this.otherwiseAt = otherwise;
    this.ifAt = ifAt;
    this.claim(ifAt === null ? [otherwise] : [otherwise, ifAt], 'branch');
  }

  private isInIfClause(position: number): boolean {
    return (
      this.ifAt !== null && this.otherwiseAt !== null && position > this.ifAt && position < this.otherwiseAt
    );
  }

  /** Without an "if", a branch checks the outcome the run starts on: passed (or failed) against the other. */
  private outcomeBranch(triggers: readonly CourseTriggerEvent[]): CourseTriggerEvent | null {
    const outcomes = triggers.filter((event) => event === 'course.passed' || event === 'course.failed');
    return outcomes.length === 1 ? (outcomes[0] ?? null) : null;
  }

  // ---- fixed phrases ---------------------------------------------------------------------------

  /** "a button", "by hand", "manually", "on demand". */
  private readManual(): boolean {
    let found = false;
    this.tokens.forEach((token, i) => {
      if (!this.isFree(i)) return;
      const isHand = token.surface === 'hand' && this.surfaceAt(i - 1) === 'by';
      const isDemand = token.surface === 'demand' && this.surfaceAt(i - 1) === 'on';
      if (['button', 'manually', 'manual'].includes(token.surface) || isHand || isDemand) {
        found = true;
        this.claim(isHand || isDemand ? [i - 1, i] : [i], 'manual');
      }
    });
    if (found) {
      this.tokens.forEach((token, i) => {
        if (this.isFree(i) && lex.PRESS_WORDS.has(token.stem)) this.claim([i], 'manual');
      });
    }
    return found;
  }

  /** An amount of time at `position` ("2 hours", "a week", "3 days"), with how many words it took. */
  private durationAt(
    position: number,
  ): { amount: number; unit: DelayUnit; length: number; text: string } | null {
    const token = this.tokens[position];
    if (!token || token.number === null) return null;
    const unit = lex.UNIT_WORDS[this.stemAt(position + 1)];
    if (!unit) return null;
    const text = `${token.surface} ${this.surfaceAt(position + 1)}`;
    if (unit === 'weeks') return { amount: token.number * 7, unit: 'days', length: 2, text };
    if (unit === 'months') return { amount: token.number * 30, unit: 'days', length: 2, text };
    return { amount: token.number, unit, length: 2, text };
  }

  /** "wait 2 hours", "3 days after …", "a week later", "the next day", "tomorrow". */
  private readDelay(): { delay: { amount: number; unit: DelayUnit } } | null {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      let found: { amount: number; unit: DelayUnit; used: number[] } | null = null;
      if (lex.WAIT_WORDS.has(stem)) {
        const at = this.surfaceAt(i + 1) === 'for' ? i + 2 : i + 1;
        const duration = this.durationAt(at);
        if (duration) found = { ...duration, used: range(i, at + duration.length) };
        else if (
          this.stemAt(i + 1) === 'until' &&
          (this.surfaceAt(i + 2) === 'tomorrow' || this.stemAt(i + 3) === 'day')
        ) {
          found = { amount: 1, unit: 'days', used: range(i, i + 4) };
        }
      } else if ((stem === 'after' || stem === 'in') && this.durationAt(i + 1)) {
        const duration = this.durationAt(i + 1)!;
        found = { ...duration, used: range(i, i + 1 + duration.length) };
      } else if (this.durationAt(i)) {
        const duration = this.durationAt(i)!;
        if (lex.LATER_WORDS.has(this.stemAt(i + duration.length))) {
          found = { ...duration, used: range(i, i + duration.length + 1) };
        }
      } else if (lex.NEXT_DAY.has(this.surfaceAt(i))) {
        found = { amount: 1, unit: 'days', used: [i] };
      } else if (lex.NEXT_WORDS.has(stem) && lex.UNIT_WORDS[this.stemAt(i + 1)]) {
        const unit = lex.UNIT_WORDS[this.stemAt(i + 1)];
        const amount = unit === 'weeks' ? 7 : unit === 'months' ? 30 : 1;
        const start = this.surfaceAt(i - 1) === 'the' ? i - 1 : i;
        found = {
          amount,
          unit: unit === 'weeks' || unit === 'months' ? 'days' : (unit ?? 'days'),
          used: range(start, i + 2),
        };
      } else if (stem === 'day' && this.surfaceAt(i - 1) === 'the' && this.surfaceAt(i + 1) === 'after') {
        found = { amount: 1, unit: 'days', used: [i - 1, i, i + 1] };
      }
      if (!found) continue;
      this.claim(found.used, 'delay');
      const minutes = found.amount * (found.unit === 'days' ? 1440 : found.unit === 'hours' ? 60 : 1);
      if (found.amount < 1) continue;
      if (minutes > 30 * 1440) {
        this.unmapped.push(
          `A wait of ${found.amount} ${found.unit}: a run waits at most 30 days, so it waits 30 days`,
        );
        return { delay: { amount: 30, unit: 'days' } };
      }
      return { delay: { amount: found.amount, unit: found.unit } };
    }
    return null;
  }

  /** "set at_risk to true", "set needs_review to yes", "mark them as certified". */
  private readSets(): SetItem[] {
    const items: SetItem[] = [];
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i) || !lex.SET_VERBS.has(this.stemAt(i))) continue;
      // Up to the "to": the variable's name; "set the broadcast …" is a broadcast.
      let j = i + 1;
      const nameWords: number[] = [];
      while (j < this.tokens.length && j <= i + 5 && this.isFree(j)) {
        const surface = this.surfaceAt(j);
        if (surface === 'to' || surface === 'as' || surface === 'equal') break;
        if (this.isBreak(j) || lex.BROADCAST_WORDS.has(this.stemAt(j))) {
          nameWords.length = 0;
          break;
        }
        if (
          ![
            'the',
            'their',
            'his',
            'her',
            'them',
            'him',
            'learner',
            'learners',
            'a',
            'an',
            'variable',
          ].includes(surface)
        ) {
          nameWords.push(j);
        }
        j += 1;
      }
      const isMark = this.stemAt(i) !== 'set';
      if (isMark && this.surfaceAt(j) === 'as') {
        // "mark them as at risk": the words after "as" name a true/false variable.
        const flagWords: number[] = [];
        let k = j + 1;
        while (
          k < this.tokens.length &&
          this.isFree(k) &&
          !this.isBreak(k) &&
          this.surfaceAt(k) !== 'and' &&
          flagWords.length < 4
        ) {
          if (!['a', 'an', 'the'].includes(this.surfaceAt(k))) flagWords.push(k);
          k += 1;
        }
        if (flagWords.length === 0) continue;
        const variableName = flagWords.map((position) => this.surfaceAt(position)).join('_');
        items.push({ position: i, variableName, value: true });
        this.claim(range(i, k), 'set');
        continue;
      }
      if (nameWords.length === 0 || (this.surfaceAt(j) !== 'to' && this.surfaceAt(j) !== 'equal')) continue;
      let valueAt = j + 1;
      if (this.surfaceAt(j) === 'equal' && this.surfaceAt(valueAt) === 'to') valueAt += 1;
      const read = this.readLiteral(valueAt);
      if (!read) continue;
      const variableName = nameWords.map((position) => this.surfaceAt(position)).join('_');
      items.push({ position: i, variableName, value: read.value });
      this.claim(range(i, valueAt + read.length), 'set');
    }
    return items;
  }

  /** A value as written: true/false, a number, a quote, or words up to the end of the clause. */
  private readLiteral(position: number): { value: string | number | boolean | null; length: number } | null {
    const token = this.tokens[position];
    if (!token) return null;
    if (lex.TRUE_WORDS.has(token.stem)) return { value: true, length: 1 };
    if (lex.FALSE_WORDS.has(token.stem)) return { value: false, length: 1 };
    if (token.surface === 'empty' || token.surface === 'nothing' || token.surface === 'null')
      return { value: null, length: 1 };
    const marker = this.markerAt(position);
    if (marker?.kind === 'quote') return { value: this.extracted.quotes[marker.index] ?? '', length: 1 };
    if (/^\d+$/.test(token.surface)) {
      // "3.5" is three words here: 3 . 5
      if (this.surfaceAt(position + 1) === '.' && /^\d+$/.test(this.surfaceAt(position + 2))) {
        return { value: Number(`${token.surface}.${this.surfaceAt(position + 2)}`), length: 3 };
      }
      return { value: Number(token.surface), length: 1 };
    }
    const taken: number[] = [];
    let k = position;
    while (
      k < this.tokens.length &&
      this.isFree(k) &&
      !this.isBreak(k) &&
      this.surfaceAt(k) !== 'and' &&
      taken.length < 4
    ) {
      taken.push(k);
      k += 1;
    }
    if (taken.length === 0) return null;
    const text = taken.map((at) => originalCasing(this.prompt, this.surfaceAt(at))).join(' ');
    return { value: text, length: taken.length };
  }

  // ---- mapping -------------------------------------------------------------------------------

  /** "Combine the final score of all courses into one variable". */
  private readMapping(): Plan['mapping'] {
    const combineAt = this.tokens.findIndex(
      (token, i) => this.isFree(i) && lex.COMBINE_WORDS.has(token.stem),
    );
    if (combineAt < 0) return null;
    const variableMention = this.mentions.find(
      (mention) => mention.kind === 'variable' && mention.start > combineAt,
    );
    if (!variableMention) return null;
    const entry = this.pickVariableName(variableMention);
    if (!entry) return null;
    const courseMentions = this.mentions.filter((mention) => mention.kind === 'course');
    const named = courseMentions.flatMap((mention) => this.resolveCourses(mention) ?? []);
    const withVariable = entry.variables.map((variable) => variable.courseId);
    const courseIds = named.length > 0 ? named.map((course) => course.id) : withVariable;
    const missing = named.filter((course) => !withVariable.includes(course.id));
    for (const course of missing) {
      this.unmapped.push(`${course.title} has no variable ${entry.name} yet: it is mapped all the same`);
    }
    this.claim([combineAt], 'mapping');
    this.tokens.forEach((token, i) => {
      if (!this.isFree(i)) return;
      if (lex.ONE_WORDS.has(token.stem) || lex.VARIABLE_NOUNS.has(token.stem) || token.surface === 'into') {
        this.claim([i], 'mapping');
      }
    });
    const titles = courseIds.length;
    return {
      variableName: entry.name,
      label: `${entry.name} of ${titles} ${titles === 1 ? 'course' : 'courses'} as one variable`,
      sources: courseIds.map((courseId) => ({ courseId, variableName: entry.name })),
      destinationVariableId: this.choiceFor(
        'destination',
        this.catalog.variables.map((variable) => variable.id),
      ),
    };
  }

  // ---- triggers ---------------------------------------------------------------------------------

  /** "slide 5", "the 5th slide". */
  private readSlide(): number | null {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i) || !lex.SLIDE_WORDS.has(this.stemAt(i))) continue;
      const after = this.numberAt(i + 1);
      if (after !== null) {
        this.claim([i, i + 1], 'slide');
        return after;
      }
    }
    return null;
  }

  /** "reaches 50%", "50% progress", "is 75 percent through". */
  private readPercent(): number | null {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i) || this.surfaceAt(i + 1) !== 'percent') continue;
      const value = this.numberAt(i);
      if (value === null) continue;
      const near = [i - 1, i - 2, i + 2, i + 3];
      const isProgress = near.some(
        (at) => lex.PROGRESS_WORDS.has(this.stemAt(at)) || lex.REACH_WORDS.has(this.stemAt(at)),
      );
      if (!isProgress) continue;
      const used = [
        i,
        i + 1,
        ...near.filter(
          (at) =>
            this.isFree(at) &&
            (lex.PROGRESS_WORDS.has(this.stemAt(at)) || lex.REACH_WORDS.has(this.stemAt(at))),
        ),
      ];
      if (this.surfaceAt(i - 1) === 'least' && this.surfaceAt(i - 2) === 'at') used.push(i - 1, i - 2);
      this.claim(used, 'progress');
      return value;
    }
    return null;
  }

  /** "answers a question wrong", "gets an answer right". */
  private readCorrectness(): boolean | null {
    const hasQuestion = this.tokens.some(
      (token) =>
        lex.QUESTION_WORDS.has(token.stem) ||
        lex.EVENT_VERBS.some((verb) => verb.event === 'question.answered' && verb.words.has(token.stem)),
    );
    if (!hasQuestion) return null;
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      const isRightWord = lex.RIGHT_WORDS.has(stem) && this.surfaceAt(i + 1) !== 'away';
      if (!lex.WRONG_WORDS.has(stem) && !isRightWord) continue;
      this.claim([i], 'answer');
      this.tokens.forEach((token, at) => {
        if (this.isFree(at) && lex.QUESTION_WORDS.has(token.stem)) this.claim([at], 'answer');
      });
      return !lex.WRONG_WORDS.has(stem);
    }
    return null;
  }

  private readEvents(): EventUse[] {
    const uses: EventUse[] = [];
    const hasSlide = this.claims.includes('slide');
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const stem = this.stemAt(i);
      const verb = lex.EVENT_VERBS.find((entry) => entry.words.has(stem));
      if (!verb) continue;
      let event = verb.event;
      if (event === 'slide.viewed' && !hasSlide) {
        // "views the course" is starting it; "reaches" alone says nothing.
        if (lex.REACH_WORDS.has(stem)) continue;
        event = 'course.started';
      }
      if (event === 'course.exited' && stem === 'drop' && this.surfaceAt(i + 1) !== 'out') continue;
      // "answers" as a noun ("the answers") is not an event.
      if (event === 'question.answered' && ['the', 'their', 'an', 'a'].includes(this.surfaceAt(i - 1))) {
        this.claim([i], 'answer');
        uses.push({ position: i, event, negated: false, inIfClause: this.isInIfClause(i), count: null });
        continue;
      }
      const used = [i];
      if (stem === 'drop') used.push(i + 1);
      let negated = false;
      for (let back = i - 1; back >= Math.max(0, i - 3); back -= 1) {
        if (this.isBreak(back)) break;
        if (lex.NEGATIONS.has(this.stemAt(back))) {
          negated = true;
          used.push(back);
          if (this.surfaceAt(back + 1) === 'yet') used.push(back + 1);
          break;
        }
      }
      if (this.surfaceAt(i + 1) === 'yet') used.push(i + 1);
      const count = negated ? null : this.readCount(i + 1, used);
      this.claim(used, 'event');
      uses.push({ position: i, event, negated, inIfClause: this.isInIfClause(i), count });
    }
    // "leaves … without finishing": the exit already means not finishing.
    return uses.filter(
      (use) =>
        !(
          use.negated &&
          use.event === 'course.completed' &&
          uses.some(
            (other) =>
              other.event === 'course.exited' &&
              !other.negated &&
              other.position < use.position &&
              use.position - other.position <= 8,
          )
        ),
    );
  }

  /** "twice", "three times", "for the third time", "at least 3 times" after an event verb. */
  private readCount(from: number, used: number[]): { op: ConditionOperator; value: number } | null {
    for (let i = from; i < Math.min(this.tokens.length, from + 10); i += 1) {
      if (this.isBreak(i) && this.surfaceAt(i) !== 'for') break;
      if (!this.isFree(i) && this.claims[i] !== 'course') continue;
      const stem = this.stemAt(i);
      if (lex.TWICE.has(stem)) {
        used.push(i);
        return { op: 'gte', value: 2 };
      }
      if (lex.THRICE.has(stem)) {
        used.push(i);
        return { op: 'gte', value: 3 };
      }
      const value = this.numberAt(i);
      if (value !== null && lex.TIMES_WORD.has(this.stemAt(i + 1))) {
        used.push(i, i + 1);
        if (this.surfaceAt(i - 1) === 'least' && this.surfaceAt(i - 2) === 'at') used.push(i - 1, i - 2);
        if (this.surfaceAt(i - 1) === 'than' && lex.MORE_WORDS.has(this.stemAt(i - 2))) {
          used.push(i - 1, i - 2);
          return { op: 'gte', value: value + 1 };
        }
        return { op: 'gte', value };
      }
      const ordinal = ['first', 'second', 'third', 'fourth', 'fifth'].indexOf(this.surfaceAt(i));
      if (ordinal >= 0 && lex.TIMES_WORD.has(this.stemAt(i + 1))) {
        used.push(i, i + 1);
        return { op: 'gte', value: ordinal + 1 };
      }
    }
    return null;
  }

  /** "learners from acme.com", "with an @acme.com address". */
  private readDomain(): string | null {
    for (let i = 0; i < this.tokens.length; i += 1) {
      const marker = this.markerAt(i);
      if (marker?.kind !== 'domain' || !this.isFree(i)) continue;
      this.claim([i], 'domain');
      const next = this.stemAt(i + 1);
      if (next === 'address' || next === 'email' || next === 'domain' || next === 'account')
        this.claim([i + 1], 'domain');
      return this.extracted.domains[marker.index] ?? null;
    }
    return null;
  }

  // ---- values --------------------------------------------------------------------------------

  /** The comparison starting at `position`: "below 50", "at least 80", "more than 3", "is 5". */
  private comparatorAt(
    position: number,
  ): { op: ConditionOperator; value: number; length: number; unit: string | null } | null {
    const stem = this.stemAt(position);
    let op: ConditionOperator | null = null;
    let length = 0;
    if (stem === 'at' && this.surfaceAt(position + 1) === 'least') [op, length] = ['gte', 2];
    else if (stem === 'at' && this.surfaceAt(position + 1) === 'most') [op, length] = ['lte', 2];
    else if (
      stem === 'no' &&
      this.surfaceAt(position + 1) === 'more' &&
      this.surfaceAt(position + 2) === 'than'
    )
      [op, length] = ['lte', 3];
    else if (
      stem === 'no' &&
      this.surfaceAt(position + 1) === 'less' &&
      this.surfaceAt(position + 2) === 'than'
    )
      [op, length] = ['gte', 3];
    else if (lex.LESS_WORDS.has(stem)) [op, length] = ['lt', this.surfaceAt(position + 1) === 'than' ? 2 : 1];
    else if (lex.MORE_WORDS.has(stem)) [op, length] = ['gt', this.surfaceAt(position + 1) === 'than' ? 2 : 1];
    else if (lex.EQUALS_WORDS.has(stem)) [op, length] = ['eq', this.surfaceAt(position + 1) === 'to' ? 2 : 1];
    else if (lex.IS_WORDS.has(stem) && this.numberAt(position + 1) !== null) [op, length] = ['eq', 1];
    if (!op) return null;
    const value = this.numberAt(position + length);
    if (value === null) return null;
    let total = length + 1;
    // "80 or more", "50 or less"
    if (this.surfaceAt(position + total) === 'or') {
      const after = this.stemAt(position + total + 1);
      if (op === 'eq' && (lex.MORE_WORDS.has(after) || after === 'abov')) [op, total] = ['gte', total + 2];
      else if (op === 'eq' && (lex.LESS_WORDS.has(after) || after === 'fewer'))
        [op, total] = ['lte', total + 2];
    }
    let unit: string | null = null;
    const unitStem = this.stemAt(position + total);
    if (lex.UNIT_WORDS[unitStem] || unitStem === 'percent' || unitStem === 'point') {
      unit = lex.UNIT_WORDS[unitStem] ?? unitStem;
      total += 1;
    }
    return { op, value, length: total, unit };
  }

  /**
   * Values compared: "final score … is at least 80", "scores below 50",
   * "completes … in under 10 minutes" (a time variable of the course),
   * "their department is Sales".
   */
  private readComparisons(): {
    variableName: string;
    op: ConditionOperator;
    value: string | number | null;
  }[] {
    const found: { variableName: string; op: ConditionOperator; value: string | number | null }[] = [];
    const sourceVariables = this.sourceVariables();
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i)) continue;
      const comparator = this.comparatorAt(i);
      if (!comparator) continue;
      // The subject: the nearest variable or score word before, in the same clause.
      let subject: { name: string; used: number[] } | null = null;
      for (let back = i - 1; back >= Math.max(0, i - 10) && !subject; back -= 1) {
        if (this.isBreak(back) && this.surfaceAt(back) !== 'when') break;
        const mention = this.mentionAt(back);
        if (mention?.kind === 'variable') {
          const entry = this.pickVariableName(mention);
          if (entry) subject = { name: entry.name, used: [] };
          break;
        }
        if (this.isFree(back) && lex.SCORE_WORDS.has(this.stemAt(back))) {
          const name = this.scoreVariable(sourceVariables);
          if (name) subject = { name, used: [back] };
          break;
        }
      }
      if (!subject && comparator.unit && ['minutes', 'hours'].includes(comparator.unit)) {
        // "in under 10 minutes": how long the learner spent, a variable of the course measured in that unit.
        const name = this.timeVariable(sourceVariables, comparator.unit);
        if (name) {
          const used = this.surfaceAt(i - 1) === 'in' ? [i - 1] : [];
          subject = { name, used };
        }
      }
      if (!subject) continue;
      this.claim([...subject.used, ...range(i, i + comparator.length)], 'comparison');
      found.push({ variableName: subject.name, op: comparator.op, value: comparator.value });
    }
    // "their department is Sales": a text value after a variable and "is".
    for (const mention of this.mentions) {
      if (mention.kind !== 'variable') continue;
      const isAt = mention.end;
      if (!lex.IS_WORDS.has(this.stemAt(isAt)) || !this.isFree(isAt)) continue;
      const entry = this.pickVariableName(mention);
      if (!entry) continue;
      const valueWords: number[] = [];
      let k = isAt + 1;
      while (
        k < this.tokens.length &&
        this.isFree(k) &&
        !this.isBreak(k) &&
        this.surfaceAt(k) !== 'and' &&
        valueWords.length < 4
      ) {
        if (lex.RECORDED_WORDS.has(this.stemAt(k)) && valueWords.length === 0) break;
        valueWords.push(k);
        k += 1;
      }
      if (valueWords.length === 0) continue;
      const text = valueWords.map((at) => originalCasing(this.prompt, this.surfaceAt(at))).join(' ');
      const value = lex.TRUE_WORDS.has(text.toLowerCase())
        ? 'true'
        : lex.FALSE_WORDS.has(text.toLowerCase())
          ? 'false'
          : text;
      this.claim([isAt, ...valueWords], 'comparison');
      found.push({ variableName: entry.name, op: 'eq', value });
    }
    return found;
  }

  /** "feedback is recorded", "a score is saved": a variable's value arriving starts the run. */
  private readRecorded(): string | null {
    for (let i = 0; i < this.tokens.length; i += 1) {
      if (!this.isFree(i) || !lex.RECORDED_WORDS.has(this.stemAt(i))) continue;
      let back = i - 1;
      const used = [i];
      while (
        back >= 0 &&
        ['is', 'are', 'was', 'gets', 'get', 'been', 'has', 'have'].includes(this.surfaceAt(back))
      ) {
        used.push(back);
        back -= 1;
      }
      const mention = this.mentionAt(back);
      if (mention?.kind === 'variable') {
        const entry = this.pickVariableName(mention);
        if (!entry) continue;
        this.claim(used, 'recorded');
        return entry.name;
      }
      if (this.isFree(back) && lex.SCORE_WORDS.has(this.stemAt(back))) {
        const name = this.scoreVariable(this.sourceVariables());
        if (!name) continue;
        this.claim([...used, back], 'recorded');
        return name;
      }
    }
    // "when a learner scores": the verb alone.
    return null;
  }

  /** The variables of the courses the sentence names (all of them when it names none). */
  private sourceVariables(): CatalogVariable[] {
    const named = this.mentions
      .filter((mention) => mention.kind === 'course')
      .flatMap((mention) => (mention.courses.length === 1 ? mention.courses : []));
    if (named.length === 0) return this.catalog.variables;
    const ids = new Set(named.map((course) => course.id));
    return this.catalog.variables.filter((variable) => ids.has(variable.courseId));
  }

  /**
   * "score" alone: the variable whose name is only a score ("final_score",
   * "score", "total_score"), not one with its own word ("nps_score").
   */
  private scoreVariable(variables: readonly CatalogVariable[]): string | null {
    const names = new Set(
      variables
        .filter((variable) => variable.dataType === 'number')
        .map((variable) => variable.name)
        .filter((name) => {
          const parts = name
            .toLowerCase()
            .split(/[_\s]+/)
            .map(stem);
          return (
            parts.some((part) => lex.SCORE_WORDS.has(part)) &&
            parts.every((part) => lex.GENERIC_NAME_WORDS.has(part))
          );
        }),
    );
    return names.size === 1 ? [...names][0]! : null;
  }

  /** A number variable measured in minutes or hours ("time_spent_minutes"). */
  private timeVariable(variables: readonly CatalogVariable[], unit: string): string | null {
    const unitWord = unit === 'minutes' ? 'minute' : 'hour';
    const names = new Set(
      variables
        .filter((variable) => variable.dataType === 'number')
        .filter((variable) => `${variable.name} ${variable.title ?? ''}`.toLowerCase().includes(unitWord))
        .map((variable) => variable.name),
    );
    return names.size === 1 ? [...names][0]! : null;
  }

  private pickVariableName(mention: Mention): { name: string; variables: CatalogVariable[] } | null {
    if (mention.variables.length === 1) return mention.variables[0] ?? null;
    const chosen = this.choices[mention.phrase];
    const picked = mention.variables.find((entry) =>
      entry.variables.some((variable) => variable.id === chosen),
    );
    if (picked) return picked;
    this.ask(
      mention.phrase,
      'variable',
      mention.variables.map((entry) => ({ id: entry.variables[0]!.id, label: entry.name })),
    );
    return null;
  }

  // ---- courses --------------------------------------------------------------------------------

  private choiceFor(phrase: string, ids: readonly string[]): string | null {
    const key = Object.keys(this.choices).find(
      (candidate) => candidate.toLowerCase() === phrase.toLowerCase(),
    );
    const id = key ? this.choices[key] : undefined;
    return id !== undefined && ids.includes(id) ? id : null;
  }

  private ask(phrase: string, kind: Ambiguity['kind'], options: Ambiguity['options']) {
    if (this.ambiguities.some((ambiguity) => ambiguity.phrase === phrase)) return;
    this.ambiguities.push({ phrase, kind, options });
  }

  /** The course or courses a mention names; null while the person must choose. */
  private resolveCourses(mention: Mention): CatalogCourse[] | null {
    if (mention.courses.length === 1) return mention.courses;
    const chosen = this.choiceFor(
      mention.phrase,
      mention.courses.map((course) => course.id),
    );
    const course = mention.courses.find((candidate) => candidate.id === chosen);
    if (course) return [course];
    this.ask(
      mention.phrase,
      'course',
      mention.courses.map((candidate) => ({ id: candidate.id, label: candidate.title })),
    );
    return null;
  }

  /** Whether a course mention names the course of a broadcast ("the broadcast of New Hire Onboarding"). */
  private isBroadcastCourse(mention: Mention): boolean {
    for (let back = mention.start - 1; back >= Math.max(0, mention.start - 3); back -= 1) {
      if (lex.BROADCAST_WORDS.has(this.stemAt(back))) return true;
    }
    return false;
  }

  /** The courses the run starts from: named ones, 'all' ("any course" or none named), or 'ambiguous'. */
  private sourceCourses(): CatalogCourse[] | 'all' | 'ambiguous' {
    const courses: CatalogCourse[] = [];
    let isAmbiguous = false;
    for (const mention of this.mentions) {
      if (mention.kind !== 'course' || this.isBroadcastCourse(mention)) continue;
      const resolved = this.resolveCourses(mention);
      if (!resolved) isAmbiguous = true;
      else
        for (const course of resolved)
          if (!courses.some((known) => known.id === course.id)) courses.push(course);
    }
    if (isAmbiguous) return 'ambiguous';
    return courses.length > 0 ? courses : 'all';
  }

  private coursesForTrigger(
    courses: CatalogCourse[] | 'all',
    triggers: readonly CourseTriggerEvent[],
    variableTrigger: string | null,
  ): CatalogCourse[] {
    if (courses !== 'all') return courses;
    if (variableTrigger && triggers.length === 1 && triggers[0] === 'variable.set') {
      const withVariable = new Set(
        this.catalog.variables
          .filter((variable) => variable.name === variableTrigger)
          .map((variable) => variable.courseId),
      );
      const found = this.catalog.courses.filter((course) => withVariable.has(course.id));
      if (found.length > 0) return found;
    }
    return this.catalog.courses.slice(0, 40);
  }

  private scheduleLabel(used: readonly number[]): string {
    const text = used.map((position) => originalCasing(this.prompt, this.surfaceAt(position))).join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // ---- actions ----------------------------------------------------------------------------------

  private headKind(position: number): HeadKind | null {
    const stem = this.stemAt(position);
    const before = this.surfaceAt(position - 1);
    // "a Slack message", "the team notification": a noun after a name or an article.
    const beforeMention = this.mentionAt(position - 1);
    if (beforeMention?.kind === 'action' && this.mentionAt(position) !== beforeMention) return null;
    if (['a', 'an', 'the'].includes(before) && !lex.EMAIL_VERBS.has(stem)) return null;
    if (lex.EMAIL_VERBS.has(stem)) {
      // "by email", "an email", "the welcome email": a noun, not the verb.
      if (['by', 'via', 'an', 'a', 'the', 'their', 'his', 'her', 'your', 'an'].includes(before)) return null;
      if (markerOf(before)?.kind === 'domain') return null;
      return 'email';
    }
    if (lex.SEND_VERBS.has(stem)) return 'send';
    if (lex.NOTIFY_VERBS.has(stem)) return 'notify';
    if (lex.CLEAR_VERBS.has(stem)) return 'clear';
    if (lex.SET_VERBS.has(stem)) return 'set';
    if (
      stem === 'let' &&
      this.tokens.slice(position + 1, position + 5).some((token) => token.surface === 'know')
    ) {
      return 'notify';
    }
    return null;
  }

  private readActions(
    sets: readonly SetItem[],
    context: RunContext,
  ): { position: number; action: PlanAction }[] {
    const heads: { position: number; kind: HeadKind }[] = [];
    for (let i = 0; i < this.tokens.length; i += 1) {
      const claim = this.claims[i];
      if (claim !== null && claim !== 'action') continue;
      // A verb inside an action's name ("Welcome e-mail") is that action, named where its name starts.
      if (claim === 'action' && this.mentionAt(i)?.start !== i) continue;
      const kind = this.headKind(i);
      if (kind) heads.push({ position: i, kind });
    }
    const starts = [...heads.map((head) => head.position), ...sets.map((item) => item.position)].sort(
      (a, b) => a - b,
    );
    const spanEnd = (start: number) => {
      const next = starts.find((position) => position > start) ?? this.tokens.length;
      for (let i = start + 1; i < next; i += 1) if (this.isBreak(i)) return i;
      return next;
    };

    const items: { position: number; action: PlanAction }[] = sets.map((item) => ({
      position: item.position,
      action: proposeSetVariable(item.variableName, item.value),
    }));
    const usedMentions = new Set<Mention>();
    for (const head of heads) {
      const end = spanEnd(head.position);
      const span = range(head.position, end);
      const actionMentions = this.mentions.filter(
        (mention) => mention.kind === 'action' && mention.start >= head.position && mention.start < end,
      );
      if (actionMentions.length > 0 && head.kind !== 'set' && head.kind !== 'clear') {
        for (const mention of actionMentions) {
          usedMentions.add(mention);
          const action = this.resolveAction(mention);
          if (action) items.push({ position: mention.start, action: { kind: 'existing', action } });
        }
        this.claimSpan(span, [...lex.WEBHOOK_WORDS, ...lex.EMAIL_NOUNS]);
        this.claim([head.position], 'action');
        continue;
      }
      const action = this.newAction(head, span, context);
      if (action) items.push({ position: head.position, action });
      // "e-mail them and the team": one e-mail each.
      for (const extra of this.extraEmails) items.push({ position: head.position, action: extra });
      this.extraEmails = [];
    }
    // Actions named without a verb before them ("…, then the LMS webhook").
    for (const mention of this.mentions) {
      if (mention.kind !== 'action' || usedMentions.has(mention)) continue;
      const action = this.resolveAction(mention);
      if (action) items.push({ position: mention.start, action: { kind: 'existing', action } });
    }
    return items.sort((a, b) => a.position - b.position);
  }

  private claimSpan(span: readonly number[], words: readonly string[]) {
    const set = new Set(words);
    for (const position of span)
      if (this.isFree(position) && set.has(this.stemAt(position))) this.claim([position], 'action');
  }

  private resolveAction(mention: Mention): CatalogAction | null {
    if (mention.actions.length === 1) return mention.actions[0] ?? null;
    const chosen = this.choiceFor(
      mention.phrase,
      mention.actions.map((action) => action.id),
    );
    const action = mention.actions.find((candidate) => candidate.id === chosen);
    if (action) return action;
    this.ask(
      mention.phrase,
      'action',
      mention.actions.map((candidate) => ({ id: candidate.id, label: candidate.name })),
    );
    return null;
  }

  /** Who an e-mail or a notification is for, from the words of its clause. */
  private recipients(span: readonly number[]): {
    target: EmailTarget | null;
    others: EmailTarget[];
    unknownPerson: string | null;
  } {
    const addresses: string[] = [];
    let target: EmailTarget | null = null;
    const kinds = new Set<'learner' | 'team'>();
    let unknownPerson: string | null = null;
    for (const position of span) {
      if (!this.isFree(position) && this.claims[position] !== 'action') continue;
      const marker = this.markerAt(position);
      if (marker?.kind === 'address') {
        addresses.push(this.extracted.addresses[marker.index] ?? '');
        this.claim([position], 'action');
        continue;
      }
      const stem = this.stemAt(position);
      if (lex.UNKNOWN_PEOPLE.has(stem)) {
        const before = this.surfaceAt(position - 1);
        const isPossessive = lex.POSSESSIVES.has(before) || before === 'line';
        unknownPerson = `${isPossessive ? `${before} ` : ''}${this.surfaceAt(position)}`;
        this.claim(isPossessive ? [position - 1, position] : [position], 'action');
        target ??= { kind: 'team' };
        kinds.add('team');
      } else if (lex.TEAM_RECIPIENTS.has(stem)) {
        target ??= { kind: 'team' };
        kinds.add('team');
        this.claim([position], 'action');
        if (this.surfaceAt(position - 1) === 'training' || this.surfaceAt(position - 1) === 'learning')
          this.claim([position - 1], 'action');
      } else if (lex.LEARNER_RECIPIENTS.has(stem)) {
        target ??= { kind: 'learner' };
        kinds.add('learner');
      }
    }
    if (addresses.length > 0) target = { kind: 'addresses', addresses: [...new Set(addresses)] };
    const others = [...kinds].filter((kind) => kind !== target?.kind).map((kind): EmailTarget => ({ kind }));
    return { target, others, unknownPerson };
  }

  /** The words of an e-mail's clause that say what it is about ("a reminder", "a certificate"). */
  private topic(span: readonly number[]): string | null {
    const words: number[] = [];
    for (const position of span.slice(1)) {
      if (!this.isFree(position)) continue;
      const stem = this.stemAt(position);
      if (lex.FILLER.has(stem) || lex.EMAIL_NOUNS.has(stem) || lex.LEARNER_RECIPIENTS.has(stem)) continue;
      // A count with no event to count ("e-mail them twice") is not what the e-mail is about.
      if (lex.TWICE.has(stem) || lex.THRICE.has(stem) || this.tokens[position]?.number != null) continue;
      if (this.surfaceAt(position) === 'about' || this.surfaceAt(position) === 'with') continue;
      words.push(position);
    }
    if (words.length === 0 || words.length > 4) return null;
    this.claim(words, 'action');
    return words.map((position) => this.surfaceAt(position)).join(' ');
  }

  private newAction(
    head: { position: number; kind: HeadKind },
    span: number[],
    context: RunContext,
  ): PlanAction | null {
    const spanText = () =>
      span
        .filter((position) => this.isFree(position) && !lex.FILLER.has(this.stemAt(position)))
        .map((position) => originalCasing(this.prompt, this.surfaceAt(position)))
        .join(' ');
    const hasWord = (words: ReadonlySet<string>) => span.some((position) => words.has(this.stemAt(position)));
    const quote = span.map((position) => this.markerAt(position)).find((marker) => marker?.kind === 'quote');
    const url = span.map((position) => this.markerAt(position)).find((marker) => marker?.kind === 'url');
    this.claim([head.position], 'action');

    if (
      hasWord(lex.BROADCAST_WORDS) &&
      (head.kind === 'set' || head.kind === 'clear' || head.kind === 'send' || head.kind === 'notify')
    ) {
      const courseMention = this.mentions.find(
        (mention) =>
          mention.kind === 'course' &&
          mention.start > head.position &&
          mention.start < (span.at(-1) ?? 0) + 1,
      );
      const course = courseMention ? (this.resolveCourses(courseMention)?.[0] ?? null) : null;
      this.claimSpan(span, [...lex.BROADCAST_WORDS]);
      if (quote)
        this.claim(
          span.filter((position) => this.markerAt(position)?.kind === 'quote'),
          'action',
        );
      const message = quote ? (this.extracted.quotes[quote.index] ?? null) : null;
      if (head.kind === 'set' && !message) {
        this.unmapped.push(
          "The broadcast’s message: write it in quotes, such as “set the broadcast to 'Live Q&A on Thursday'”",
        );
      }
      return proposeBroadcast(head.kind === 'clear' ? 'clear' : 'set', course, message);
    }
    if (head.kind === 'set' || head.kind === 'clear') {
      // A "set" that readSets could not read: what to set, to what.
      const words = spanText();
      if (words)
        this.unmapped.push(
          `“${this.surfaceAt(head.position)} ${words}”: say it as “set <variable> to <value>”`,
        );
      this.claim(span, 'action');
      return null;
    }
    if (url) {
      this.claim(
        span.filter((position) => this.markerAt(position)?.kind === 'url'),
        'action',
      );
      this.claimSpan(span, [...lex.WEBHOOK_WORDS]);
      return proposeWebhook(this.extracted.urls[url.index] ?? null);
    }
    if (hasWord(lex.WEBHOOK_WORDS) && head.kind !== 'email') {
      this.claimSpan(span, [...lex.WEBHOOK_WORDS]);
      const rest = spanText();
      const about = rest || null;
      if (about) {
        this.unmapped.push(
          `“${about}”: none of your actions has this name, so a new webhook is proposed: give its address`,
        );
      }
      this.claim(span, 'action');
      return proposeWebhook(null, about);
    }
    const { target, others, unknownPerson } = this.recipients(span);
    const isEmail = head.kind === 'email' || hasWord(lex.EMAIL_NOUNS) || target?.kind === 'addresses';
    if (isEmail) {
      this.claimSpan(span, [...lex.EMAIL_NOUNS]);
      const to: EmailTarget = target ?? (context.kind === 'event' ? { kind: 'learner' } : { kind: 'team' });
      if (unknownPerson) {
        this.unmapped.push(
          `${unknownPerson}: CourseLens does not know learners’ managers; the e-mail goes to your team`,
        );
      }
      const topic = this.topic(span) ?? (this.stemAt(head.position) === 'remind' ? 'reminder' : null);
      this.extraEmails = others.map((other) => proposeEmail(other, context, topic));
      return proposeEmail(to, context, topic);
    }
    if (head.kind === 'notify') {
      if (this.stemAt(head.position) === 'let') {
        this.claim(
          span.filter((position) => this.surfaceAt(position) === 'know'),
          'action',
        );
      }
      if (unknownPerson) {
        this.unmapped.push(
          `${unknownPerson}: CourseLens does not know learners’ managers; the notification goes to your team`,
        );
      }
      if (target?.kind === 'learner') return proposeEmail(target, context, this.topic(span));
      return proposeNotifyTeam(context);
    }
    // "send it to Zapier": nothing of the organization's has that name.
    const rest = spanText();
    this.unmapped.push(
      rest
        ? `“${this.surfaceAt(head.position)} ${rest}”: none of your actions has this name`
        : `“${this.surfaceAt(head.position)}”: say what to send, or name one of your actions`,
    );
    this.claim(span, 'action');
    return null;
  }

  // ---- what is left -----------------------------------------------------------------------------

  /** Words nobody used, in runs, said back as not understood. */
  private reportLeftovers() {
    let run: number[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const phrase = run.map((position) => this.surfaceAt(position)).join(' ');
      const next = this.stemAt((run.at(-1) ?? 0) + 1);
      if (lex.COURSE_NOUNS.has(next))
        this.unmapped.push(
          `“${phrase} ${this.surfaceAt((run.at(-1) ?? 0) + 1)}”: no course of yours has this name`,
        );
      else
        this.unmapped.push(
          `“${phrase}”: not a course, variable or action of yours, nor a step CourseLens knows`,
        );
      run = [];
    };
    this.tokens.forEach((token, i) => {
      const isLeft =
        this.isFree(i) &&
        !lex.FILLER.has(token.stem) &&
        !lex.NEGATIONS.has(token.stem) &&
        !markerOf(token.surface);
      if (isLeft) run.push(i);
      else flush();
    });
    flush();
  }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}

const EVENT_ORDER: readonly CourseTriggerEvent[] = [
  'course.started',
  'slide.viewed',
  'variable.set',
  'question.answered',
  'course.progressed',
  'course.passed',
  'course.failed',
  'course.exited',
  'course.completed',
];

function ordered(events: readonly CourseTriggerEvent[]): CourseTriggerEvent[] {
  return EVENT_ORDER.filter((event) => events.includes(event));
}

export type { PlanSource };
