import type { IngestionEvent, IngestionEventType } from '@courselens/contracts';
import { toTypedValue } from '../../db/schema';
import type { AnswerRow, ResolvedVariable, ValueRow } from './ingestion.queries';

/** An event ready to be written, with its resolved ids. */
export type ResolvedEvent = {
  event: IngestionEvent;
  at: Date;
  courseId: string;
  learnerId: string;
  runId: string | null;
  questionId: string | null;
  variable: ResolvedVariable | null;
};

/** Changes to a run that events of one batch ask for. */
export type RunOutcome = {
  completedAt?: Date;
  passed?: { at: Date; passed: boolean; score: number | null; passMark: number | null };
  progressPercent?: number;
  exitedAt?: Date;
};

/** What a batch's events turn into, besides their log rows. */
export type Facts = {
  values: ValueRow[];
  answers: AnswerRow[];
  runs: Map<string, RunOutcome>;
};

/** The log columns an event fills besides who, where and when. */
export type LogDetail = {
  slideNumber?: number | null;
  slideTitle?: string | null;
  scene?: string | null;
  value?: unknown;
  correct?: boolean | null;
  points?: number | null;
  score?: number | null;
  passMark?: number | null;
  percent?: number | null;
  seconds?: number | null;
};

type EventHandler<T extends IngestionEventType> = {
  /** A course.started without a run id starts a new run; other events attach to the current one. */
  startsRun?: boolean;
  /** A completion with no run to complete records the attempt it ends. */
  needsRun?: boolean;
  /** Adds the event's facts (values, answers, run changes). */
  collect(facts: Facts, resolved: ResolvedEvent & { event: Extract<IngestionEvent, { type: T }> }): void;
  /** What the event's log row says. */
  log(event: Extract<IngestionEvent, { type: T }>): LogDetail;
};

const runOutcome = (facts: Facts, runId: string | null): RunOutcome | null => {
  if (!runId) return null;
  let outcome = facts.runs.get(runId);
  if (!outcome) facts.runs.set(runId, (outcome = {}));
  return outcome;
};

const recordResult = (facts: Facts, resolved: ResolvedEvent, passed: boolean) => {
  const outcome = runOutcome(facts, resolved.runId);
  if (!outcome || resolved.event.type !== (passed ? 'course.passed' : 'course.failed')) return;
  const result = resolved.event.result;
  // The latest outcome of the attempt wins (a retake within one run).
  if (!outcome.passed || resolved.at >= outcome.passed.at) {
    outcome.passed = {
      at: resolved.at,
      passed,
      score: result?.score ?? null,
      passMark: result?.passMark ?? null,
    };
  }
};

/**
 * One handler per event type: the only place that knows what an event
 * means for the stored facts and the log. The write path resolves courses,
 * learners, runs, questions and variables for every event, then asks these.
 */
export const EVENT_HANDLERS: { [T in IngestionEventType]: EventHandler<T> } = {
  'course.started': {
    startsRun: true,
    collect: () => undefined,
    log: () => ({}),
  },
  'slide.viewed': {
    collect: () => undefined,
    log: (event) => ({
      slideNumber: event.slide.number,
      slideTitle: event.slide.title ?? null,
      scene: event.slide.scene ?? null,
      seconds: event.slide.secondsOnPrevious ?? null,
    }),
  },
  'variable.set': {
    collect: (facts, resolved) => {
      const variable = resolved.variable;
      if (!variable) return;
      facts.values.push({
        variableId: variable.variableId,
        learnerId: resolved.learnerId,
        courseId: variable.variableCourseId,
        courseRunId: resolved.runId,
        ...toTypedValue(variable.dataType, resolved.event.variable.value),
        recordedAt: resolved.at,
      });
    },
    log: (event) => ({ value: event.variable.value }),
  },
  'question.answered': {
    collect: (facts, resolved) => {
      const q = resolved.event.question;
      if (!resolved.questionId) return;
      facts.answers.push({
        questionId: resolved.questionId,
        learnerId: resolved.learnerId,
        courseId: resolved.courseId,
        courseRunId: resolved.runId,
        slideNumber: q.slideNumber ?? null,
        questionNumber: q.questionNumber ?? null,
        questionText: q.text ?? null,
        answerChoice: q.answer === undefined || q.answer === null ? null : String(q.answer),
        correct: q.correct ?? null,
        correctAnswer: q.correctAnswer ?? null,
        pointsAssigned: q.points ?? null,
        answeredAt: resolved.at,
      });
    },
    log: (event) => ({
      slideNumber: event.question.slideNumber ?? null,
      value: event.question.answer ?? null,
      correct: event.question.correct ?? null,
      points: event.question.points ?? null,
    }),
  },
  'course.progressed': {
    collect: (facts, resolved) => {
      const outcome = runOutcome(facts, resolved.runId);
      if (!outcome) return;
      outcome.progressPercent = Math.max(outcome.progressPercent ?? 0, resolved.event.progress.percent);
    },
    log: (event) => ({ percent: event.progress.percent }),
  },
  'course.passed': {
    collect: (facts, resolved) => recordResult(facts, resolved, true),
    log: (event) => ({ score: event.result?.score ?? null, passMark: event.result?.passMark ?? null }),
  },
  'course.failed': {
    collect: (facts, resolved) => recordResult(facts, resolved, false),
    log: (event) => ({ score: event.result?.score ?? null, passMark: event.result?.passMark ?? null }),
  },
  'course.exited': {
    collect: (facts, resolved) => {
      const outcome = runOutcome(facts, resolved.runId);
      if (!outcome) return;
      if (!outcome.exitedAt || resolved.at > outcome.exitedAt) outcome.exitedAt = resolved.at;
    },
    log: () => ({}),
  },
  'course.completed': {
    needsRun: true,
    collect: (facts, resolved) => {
      const outcome = runOutcome(facts, resolved.runId);
      if (!outcome) return;
      if (!outcome.completedAt || resolved.at < outcome.completedAt) outcome.completedAt = resolved.at;
    },
    log: () => ({}),
  },
};

/** The handler of an event, typed for it. */
export function handlerFor(event: IngestionEvent): EventHandler<IngestionEventType> {
  return EVENT_HANDLERS[event.type] as EventHandler<IngestionEventType>;
}
