import type { IngestionEvent } from '@courselens/contracts';
import type { MappedFact, StatementMapping } from './statement-mapping';

/** What every learning event of one statement (or state document) shares. */
export type EventBase = {
  id: string;
  timestamp: string;
  course: { externalCourseId: string; title?: string };
  learner: { email: string; name?: string };
  run?: string;
};

/** The shared part of the events of a mapped statement, dated `at`. */
export function eventBase(
  mapping: Extract<StatementMapping, { mapped: true }>,
  at: Date,
): Omit<EventBase, 'id'> {
  return {
    timestamp: at.toISOString(),
    course: {
      externalCourseId: mapping.course.activityId,
      ...(mapping.course.title ? { title: mapping.course.title.slice(0, 500) } : {}),
    },
    learner: {
      email: mapping.learner.email,
      ...(mapping.learner.name ? { name: mapping.learner.name.slice(0, 200) } : {}),
    },
    ...(mapping.registration ? { run: mapping.registration } : {}),
  };
}

/** A number the event log's columns take (the ingestion API's range), else null. */
const inRange = (value: number | null) =>
  value !== null && Number.isFinite(value) && Math.abs(value) <= 1_000_000_000 ? value : null;

/**
 * The learning event of a fact, built typed rather than parsed: the mapping
 * already keeps every field within the ingestion contract's limits (ids and
 * e-mails checked, texts cut), so the per-event validation the public event
 * API needs would only cost time here.
 */
export function toIngestionEvent(
  fact: MappedFact,
  base: EventBase,
  slides: ReadonlyMap<string, number>,
): IngestionEvent {
  switch (fact.type) {
    case 'slide.viewed':
      return {
        ...base,
        type: fact.type,
        slide: {
          number: slides.get(`${base.course.externalCourseId}\n${fact.slide.activityId}`) ?? 0,
          title: fact.slide.title?.slice(0, 500) ?? null,
          scene: fact.slide.scene?.slice(0, 500) ?? null,
        },
      };
    case 'question.answered':
      return {
        ...base,
        type: fact.type,
        question: {
          interactionId: fact.question.interactionId,
          text: fact.question.text?.slice(0, 5000) ?? null,
          answer: fact.question.answer?.slice(0, 5000) ?? null,
          correct: fact.question.correct,
          correctAnswer: fact.question.correctAnswer?.slice(0, 5000) ?? null,
          points: inRange(fact.question.points),
        },
      };
    case 'course.passed':
    case 'course.failed':
      return {
        ...base,
        type: fact.type,
        result: { score: inRange(fact.result.score), passMark: inRange(fact.result.passMark) },
      };
    case 'variable.set':
      return {
        ...base,
        type: fact.type,
        variable: { name: fact.variable.name.slice(0, 255), value: fact.variable.value },
      };
    case 'course.progressed':
      return {
        ...base,
        type: fact.type,
        progress: { percent: Math.min(100, Math.max(0, fact.progress.percent)) },
      };
    case 'course.started':
    case 'course.exited':
    case 'course.completed':
      return { ...base, type: fact.type };
  }
}
