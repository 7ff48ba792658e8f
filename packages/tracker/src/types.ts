// The wire format of POST /api/v1/events. The server's zod
// contract lives in packages/contracts/src/ingestion.ts; the tracker keeps its
// own plain types so the script never bundles zod.

export type VariableValue = string | number | boolean | null;

export type CourseRef = { externalCourseId: string; title?: string };

export type LearnerRef = { email: string; name?: string };

export type QuestionAnswer = {
  interactionId: string;
  slideNumber?: number;
  questionNumber?: number;
  text?: string;
  answer?: string | number | boolean;
  correct?: boolean;
  correctAnswer?: string;
  points?: number;
};

export type EventType =
  | 'course.started'
  | 'slide.viewed'
  | 'variable.set'
  | 'question.answered'
  | 'course.progressed'
  | 'course.passed'
  | 'course.failed'
  | 'course.exited'
  | 'course.completed';

/** A slide (or page) the learner sees; `number` is its place in the course. */
export type SlideView = { number: number; title?: string; scene?: string };

/** A pass or fail with its score and the mark it was measured against. */
export type CourseResult = { score?: number; passMark?: number };

type EventBase = {
  /** Unique per event, so a retried request never counts twice. */
  id: string;
  timestamp: string;
  course: CourseRef;
  learner: LearnerRef;
  run?: string;
};

/** What an event says, besides who and when. */
export type EventDetail =
  | { type: 'course.started' | 'course.completed' | 'course.exited' }
  | { type: 'slide.viewed'; slide: SlideView & { secondsOnPrevious?: number } }
  | { type: 'course.progressed'; progress: { percent: number } }
  | { type: 'course.passed' | 'course.failed'; result?: CourseResult }
  | { type: 'variable.set'; variable: { name: string; value: VariableValue } }
  | { type: 'question.answered'; question: QuestionAnswer };

export type TrackerEvent = EventBase & EventDetail;

/** An event with every optional part, for code that reads any of them. */
export type AnyTrackerEvent = EventBase & {
  type: EventType;
  variable?: { name: string; value: VariableValue };
  question?: QuestionAnswer;
  slide?: SlideView & { secondsOnPrevious?: number };
  progress?: { percent: number };
  result?: CourseResult;
};

export type IngestResult = {
  accepted: number;
  duplicates: number;
  rejected: { index: number; id: string | null; error: string }[];
};

export type TrackerOptions = {
  /** The CourseLens server, e.g. `https://courselens.example.com`. Default: where tracker.js came from. */
  endpoint?: string;
  /** An API key of scope `ingest`. */
  key: string;
  course: CourseRef;
  learner: LearnerRef;
  /** The client id of this attempt; default: a new id per page load. */
  run?: string;
  /** Send `course.started` from init (default true). */
  autoStart?: boolean;
  /**
   * Send `slide.viewed` by itself whenever the page's address changes (web
   * courses that route, and Storyline's slide navigation), numbering each
   * address in the order first seen (default true). The first call of
   * `CourseLens.slide()` turns it off: the course then numbers its slides.
   */
  autoSlides?: boolean;
  /** How long new events wait to be sent together, in ms (default 1000). */
  flushDelay?: number;
  /** Called with the server's answer to every batch. */
  onResult?: (result: IngestResult) => void;
};

/** What a Storyline player offers (`GetPlayer()`). */
export type StorylinePlayer = { GetVar: (name: string) => unknown };
