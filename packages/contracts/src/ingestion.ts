import { z } from 'zod';

/**
 * The public ingestion API (`/api/v1`), shared by the server and the course
 * tracker (`packages/tracker`).
 */

/** Most events per `POST /api/v1/events`. */
export const MAX_EVENTS_PER_BATCH = 1000;
/** Largest request body of `POST /api/v1/events`, in bytes (bigger answers 413). */
export const MAX_INGEST_BODY_BYTES = 1_048_576;

export const INGESTION_EVENT_TYPES = [
  'course.started',
  'slide.viewed',
  'variable.set',
  'question.answered',
  'course.progressed',
  'course.passed',
  'course.failed',
  'course.exited',
  'course.completed',
] as const;
export type IngestionEventType = (typeof INGESTION_EVENT_TYPES)[number];

/** Messages of the ingestion API; the spec's own texts are verbatim (section 8). */
export const INGESTION_MESSAGES = {
  courseNotFound: (externalCourseId: string) => `Course with externalCourseId ${externalCourseId} not found`,
  variableNotFound: (name: string) => `Variable with name ${name} not found`,
  invalidApiKey: 'Invalid or expired API key',
  eventNotObject: 'An event must be a JSON object',
  timestampInFuture: 'timestamp is more than a day in the future: check the clock of the device that sent it',
  timestampTooOld: 'timestamp is before 2000-01-01: check the clock of the device that sent it',
} as const;

/** Events dated before this are refused (a device clock gone wrong, or a bad conversion). */
export const EARLIEST_EVENT_TIME = Date.UTC(2000, 0, 1);
/** How far in the future an event may be dated (clock skew between devices and the server). */
export const MAX_EVENT_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

const trimmed = (label: string, max: number) =>
  z
    .string({ error: `${label} must be a string` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters long`);

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be a string` })
    .max(max, `${label} must be at most ${max} characters long`)
    .nullish();

const optionalInteger = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must not be negative`)
    .max(1_000_000, `${label} is too large`)
    .nullish();

export const ingestionCourseSchema = z.object({
  externalCourseId: trimmed('course.externalCourseId', 255),
  /** Used as the course's title when the course is registered on first sight (default: the external id). */
  title: optionalText('course.title', 500),
});

export const ingestionLearnerSchema = z.object({
  /** The learner's identity within the organization; compared without case. */
  email: z
    .string({ error: 'learner.email must be a string' })
    .trim()
    .max(320, 'learner.email must be at most 320 characters long')
    .pipe(z.email('learner.email must be an e-mail address')),
  name: optionalText('learner.name', 200),
});

export const ingestionVariableValueSchema = z.union(
  [z.string().max(10_000), z.number(), z.boolean(), z.null()],
  {
    error: 'variable.value must be a string, number, boolean or null (strings up to 10000 characters)',
  },
);

export const ingestionVariableSchema = z.object({
  name: trimmed('variable.name', 255),
  value: ingestionVariableValueSchema,
});

export const ingestionQuestionSchema = z.object({
  /** The course's id of the interaction (e.g. Storyline's); with the course it identifies the question. */
  interactionId: trimmed('question.interactionId', 255),
  slideNumber: optionalInteger('question.slideNumber'),
  questionNumber: optionalInteger('question.questionNumber'),
  text: optionalText('question.text', 5000),
  answer: z
    .union([z.string().max(5000), z.number(), z.boolean()], {
      error: 'question.answer must be a string (up to 5000 characters), number or boolean',
    })
    .nullish(),
  correct: z.boolean({ error: 'question.correct must be true or false' }).nullish(),
  correctAnswer: optionalText('question.correctAnswer', 5000),
  points: z.number({ error: 'question.points must be a number' }).finite().nullish(),
});

const optionalNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)
    .nullish();

export const ingestionSlideSchema = z.object({
  /** The slide's position in the course (Storyline: its number in the scene's order). */
  number: z
    .number({ error: 'slide.number must be a number' })
    .int('slide.number must be a whole number')
    .min(0, 'slide.number must not be negative')
    .max(1_000_000, 'slide.number is too large'),
  title: optionalText('slide.title', 500),
  scene: optionalText('slide.scene', 500),
  /** Seconds the learner spent on the slide viewed before this one. */
  secondsOnPrevious: optionalNumber('slide.secondsOnPrevious', 0, 31_536_000),
});

export const ingestionProgressSchema = z.object({
  percent: z
    .number({ error: 'progress.percent must be a number from 0 to 100' })
    .finite('progress.percent must be a number from 0 to 100')
    .min(0, 'progress.percent must be a number from 0 to 100')
    .max(100, 'progress.percent must be a number from 0 to 100'),
});

/** The outcome of `course.passed` / `course.failed`. */
export const ingestionResultSchema = z.object({
  score: optionalNumber('result.score', -1_000_000_000, 1_000_000_000),
  passMark: optionalNumber('result.passMark', -1_000_000_000, 1_000_000_000),
});

const eventBase = {
  /** The client's unique id of the event (idempotency key), 1 to 128 characters. */
  id: z
    .string({ error: 'id must be a string of 1 to 128 characters' })
    .min(1, 'id must be a string of 1 to 128 characters')
    .max(128, 'id must be a string of 1 to 128 characters'),
  /** ISO 8601 date-time with a zone (`Z` or an offset); default: when the server receives it. */
  timestamp: z.iso
    .datetime({ offset: true, error: 'timestamp must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z' })
    .optional(),
  course: ingestionCourseSchema,
  learner: ingestionLearnerSchema,
  /** The client's id of one attempt at the course (a course run). */
  run: z
    .string({ error: 'run must be a string' })
    .min(1, 'run must be 1 to 128 characters')
    .max(128, 'run must be 1 to 128 characters')
    .optional(),
};

/** One event of `POST /api/v1/events`. */
export const ingestionEventSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ ...eventBase, type: z.literal('course.started') }),
    z.object({ ...eventBase, type: z.literal('slide.viewed'), slide: ingestionSlideSchema }),
    z.object({ ...eventBase, type: z.literal('variable.set'), variable: ingestionVariableSchema }),
    z.object({ ...eventBase, type: z.literal('question.answered'), question: ingestionQuestionSchema }),
    z.object({ ...eventBase, type: z.literal('course.progressed'), progress: ingestionProgressSchema }),
    z.object({ ...eventBase, type: z.literal('course.passed'), result: ingestionResultSchema.optional() }),
    z.object({ ...eventBase, type: z.literal('course.failed'), result: ingestionResultSchema.optional() }),
    z.object({ ...eventBase, type: z.literal('course.exited') }),
    z.object({ ...eventBase, type: z.literal('course.completed') }),
  ],
  { error: `type must be one of ${INGESTION_EVENT_TYPES.join(', ')}` },
);
export type IngestionEvent = z.infer<typeof ingestionEventSchema>;
/** What a client may send (before defaults and trimming). */
export type IngestionEventInput = z.input<typeof ingestionEventSchema>;

/**
 * The body of `POST /api/v1/events` as documented: 1 to 1000 events. `key`
 * carries the API key for `navigator.sendBeacon`, which cannot set an
 * Authorization header; it is read only when that header is absent.
 */
export const ingestEventsBody = z.object({
  events: z
    .array(ingestionEventSchema)
    .min(1, 'events must hold 1 to 1000 events')
    .max(MAX_EVENTS_PER_BATCH, 'events must hold 1 to 1000 events'),
  key: z.string().max(200).optional(),
});
export type IngestEventsBody = z.input<typeof ingestEventsBody>;

/**
 * What the server checks for the whole request: the shape of the batch only.
 * Each event is then checked on its own, so one bad event never rejects the
 * batch.
 */
export const ingestEventsRequest = z.object(
  {
    events: z
      .array(z.unknown(), { error: 'events must be an array of 1 to 1000 events' })
      .min(1, 'events must hold 1 to 1000 events')
      .max(MAX_EVENTS_PER_BATCH, 'events must hold 1 to 1000 events'),
    key: z.string().max(200).optional(),
  },
  { error: 'The body must be a JSON object with an events array' },
);

export const rejectedEventSchema = z.object({
  /** Position of the event in the request's `events`. */
  index: z.number().int(),
  /** The event's id when it had a usable one. */
  id: z.string().nullable(),
  error: z.string(),
});
export type RejectedEvent = z.infer<typeof rejectedEventSchema>;

/** 200 of `POST /api/v1/events`. */
export const ingestEventsResponse = z.object({
  /** Events stored by this request (committed before the response). */
  accepted: z.number().int(),
  /** Events whose id was already stored (earlier, or earlier in this request): nothing changed. */
  duplicates: z.number().int(),
  rejected: z.array(rejectedEventSchema),
});
export type IngestEventsResponse = z.infer<typeof ingestEventsResponse>;

export const externalCourseParams = z.object({ externalCourseId: z.string().min(1).max(255) });

/** `GET /api/v1/courses/:externalCourseId/broadcast`: the message the tracker shows. */
export const courseBroadcastResponse = z.object({
  message: z.string().nullable(),
  /** When the course (and so its message) last changed. */
  updatedAt: z.string(),
});
export type CourseBroadcastResponse = z.infer<typeof courseBroadcastResponse>;
