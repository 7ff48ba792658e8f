import type { ActionEvent, Condition } from '@courselens/contracts';

/**
 * What a run is about: the event the actions get (a learning event of the
 * log, or what a schedule or a person started), and the ids the conditions
 * look things up with.
 */
export type RunSubject = {
  event: ActionEvent;
  learnerId: string | null;
  courseId: string | null;
  /** When it happened: `learner.count` counts the events up to it. */
  occurredAt: Date;
};

/** A learning event of the log with what an action shows of it (see `selectLoggedEvents`). */
export type LoggedEventRow = {
  event_id: string;
  type: string;
  source: string;
  occurred_at: Date | string;
  /** Null for chatbot events, which belong to no course (their course columns are null too). */
  course_id: string | null;
  learner_id: string;
  value: unknown;
  correct: boolean | null;
  points: number | null;
  score: number | null;
  pass_mark: number | null;
  percent: number | null;
  slide_number: number | null;
  slide_title: string | null;
  external_course_id: string | null;
  course_title: string | null;
  learner_email: string;
  learner_name: string | null;
  variable_name: string | null;
  question_interaction_id: string | null;
  question_text: string | null;
  /** Chatbot events: the agent that captured the value, and the conversation it was said in. */
  chatbot_id: string | null;
  chatbot_name: string | null;
  chat_session_id: string | null;
};

type Scalar = string | number | boolean | null;

function scalar(value: unknown): Scalar {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * The event as the actions get it (a webhook without a body template sends
 * this JSON): the fields of `ActionEvent`, and what the event type carries in
 * the ingestion API's own words (`result`, `question`, `progress`, `slide`);
 * a chatbot's capture carries the variable and its value as `variable.set`
 * does, with the agent (`chatbot`) and the conversation (`chat`).
 */
export function subjectOfLoggedEvent(row: LoggedEventRow): RunSubject {
  const occurredAt = toDate(row.occurred_at);
  const event: ActionEvent = {
    id: row.event_id,
    type: row.type,
    occurredAt: occurredAt.toISOString(),
    // A chatbot event belongs to no course, and its agent is not passed off as one (a
    // set-variable action would register a course under the agent's name): see `chatbot`.
    course:
      row.course_id === null
        ? null
        : { id: row.course_id, externalCourseId: row.external_course_id ?? '', title: row.course_title },
    learner: { email: row.learner_email, name: row.learner_name },
  };
  const value = scalar(row.value);
  switch (row.type) {
    case 'variable.set':
      event.variable = { name: row.variable_name ?? '', value };
      event.value = value;
      break;
    case 'chatbot.variable.captured':
      event.variable = { name: row.variable_name ?? '', value };
      event.value = value;
      event.chatbot = { id: row.chatbot_id, name: row.chatbot_name };
      event.chat = { sessionId: row.chat_session_id };
      break;
    case 'question.answered':
      event.question = {
        interactionId: row.question_interaction_id,
        text: row.question_text,
        answer: value,
        correct: row.correct,
        points: row.points,
      };
      event.value = value;
      break;
    case 'course.passed':
    case 'course.failed':
      event.result = { score: row.score, passMark: row.pass_mark };
      event.value = row.score;
      break;
    case 'course.progressed':
      event.progress = { percent: row.percent };
      event.value = row.percent;
      break;
    case 'slide.viewed':
      event.slide = { number: row.slide_number, title: row.slide_title };
      break;
    default:
      break;
  }
  return { event, learnerId: row.learner_id, courseId: row.course_id, occurredAt };
}

/** What a schedule or a button starts: no course, perhaps a learner. */
export function subjectOfTrigger(input: {
  id: string;
  type: 'schedule' | 'manual';
  at: Date;
  learner: { id: string; email: string; name: string | null } | null;
}): RunSubject {
  return {
    event: {
      id: input.id,
      type: input.type,
      occurredAt: input.at.toISOString(),
      course: null,
      learner: input.learner ? { email: input.learner.email, name: input.learner.name } : null,
    },
    learnerId: input.learner?.id ?? null,
    courseId: null,
    occurredAt: input.at,
  };
}

const read = (value: unknown, ...path: string[]): unknown => {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
};

/** The value a condition on the event, the learner or the course compares (not the looked-up ones). */
export function eventFieldValue(condition: Condition, subject: RunSubject): unknown {
  const { event } = subject;
  switch (condition.field) {
    case 'event.type':
      return event.type;
    case 'event.value':
      return event.value ?? event.variable?.value ?? null;
    case 'event.variable':
      return event.variable?.name ?? null;
    case 'event.score':
      return read(event, 'result', 'score');
    case 'event.correct':
      return read(event, 'question', 'correct');
    case 'event.slide':
      return read(event, 'slide', 'number');
    case 'event.percent':
      return read(event, 'progress', 'percent');
    case 'learner.email':
      return event.learner?.email ?? null;
    case 'learner.name':
      return event.learner?.name ?? null;
    case 'course.id':
      return subject.courseId;
    case 'learner.variable':
    case 'learner.count':
      return undefined;
  }
}
