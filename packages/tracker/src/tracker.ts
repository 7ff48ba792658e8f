import { createQueue, hashKey, uniqueId } from './queue';
import type {
  CourseResult,
  EventDetail,
  SlideView,
  IngestResult,
  QuestionAnswer,
  TrackerEvent,
  TrackerOptions,
  VariableValue,
} from './types';

/** Events per request (the server takes up to 1000; small batches keep retries cheap). */
export const BATCH_SIZE = 100;
/** First retry after about this long, doubling up to MAX_RETRY_DELAY_MS. */
export const BASE_RETRY_DELAY_MS = 1000;
export const MAX_RETRY_DELAY_MS = 60_000;
/** Browsers refuse beacons above 64 KB in flight; stay below it. */
export const MAX_BEACON_BYTES = 60_000;

export type TrackerEnv = {
  fetch: typeof fetch;
  storage?: Storage;
  /** Where the lifecycle listeners go and sendBeacon comes from (absent in tests that do not need it). */
  window?: Window;
  random?: () => number;
};

export type Tracker = {
  readonly configKey: string;
  readonly endpoint: string;
  readonly options: TrackerOptions;
  start(): void;
  setVariable(name: string, value: unknown): void;
  answer(question: QuestionAnswer): void;
  /** A slide view; the seconds spent on the previous one are measured here. */
  slide(view: SlideView): void;
  progress(percent: number): void;
  result(passed: boolean, result?: CourseResult): void;
  exit(): void;
  complete(): Promise<void>;
  flush(): Promise<void>;
  /** How many events wait to be acknowledged. */
  pending(): number;
  /** Removes the page listeners and timers (the queue stays stored). */
  destroy(): void;
};

type Outcome = 'sent' | 'dropped' | 'retry';

export function normalizeEndpoint(endpoint: string): string {
  return endpoint.replace(/\/+$/, '');
}

/**
 * One tracker for one course and learner: events go into a persistent queue
 * and leave in batches; failures back off exponentially with jitter.
 */
export function createTracker(options: TrackerOptions, env: TrackerEnv): Tracker {
  const { key, course, learner } = options;
  if (!options.endpoint) throw new Error('CourseLens.init: endpoint is required');
  if (!key) throw new Error('CourseLens.init: key (an ingest API key) is required');
  if (!course?.externalCourseId) throw new Error('CourseLens.init: course.externalCourseId is required');
  if (!learner?.email) throw new Error('CourseLens.init: learner.email is required');

  const endpoint = normalizeEndpoint(options.endpoint);
  const eventsUrl = `${endpoint}/api/v1/events`;
  const run = options.run ?? uniqueId();
  const flushDelay = options.flushDelay ?? 1000;
  const random = env.random ?? Math.random;
  const configKey = [endpoint, key, course.externalCourseId].join('|');
  const queue = createQueue(env.storage, `courselens:queue:${hashKey(configKey)}`);
  const win = env.window;

  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let sending: Promise<void> | undefined;
  let started = false;
  let lastSlideAt: number | undefined;
  // Ids already handed to a beacon since the page was last visible, so
  // visibilitychange and pagehide on one close do not send them twice.
  const beaconed = new Set<string>();

  const enqueue = (detail: EventDetail) => {
    const queued = queue.add({
      id: uniqueId(),
      timestamp: new Date().toISOString(),
      course: clean(course),
      learner: clean(learner),
      run,
      ...detail,
    });
    if (failures > 0) return; // the back-off timer sends it
    if (queued >= BATCH_SIZE) void flush();
    else if (timer === undefined) schedule(flushDelay);
  };

  const schedule = (delay: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, delay);
  };

  const post = async (batch: TrackerEvent[]): Promise<Outcome> => {
    let response: Response;
    try {
      response = await env.fetch(eventsUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ events: batch }),
      });
    } catch {
      return 'retry'; // offline, DNS, CORS or a reset connection
    }
    if (response.ok) {
      const result = (await response.json().catch(() => null)) as IngestResult | null;
      if (result?.rejected?.length) {
        console.warn(
          `CourseLens: the server rejected ${result.rejected.length} event(s):`,
          result.rejected.map((rejection) => rejection.error).join('; '),
        );
      }
      if (result) options.onResult?.(result);
      return 'sent';
    }
    if (response.status === 429 || response.status === 408 || response.status >= 500) return 'retry';
    // 400, 401, 413...: sending the same batch again cannot succeed.
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    console.warn(
      `CourseLens: the server refused ${batch.length} event(s) with HTTP ${response.status}` +
        `${body?.error ? ` (${body.error})` : ''}; they were dropped.`,
    );
    return 'dropped';
  };

  const drain = async () => {
    for (;;) {
      const batch = queue.read().slice(0, BATCH_SIZE);
      if (!batch.length) return;
      const outcome = await post(batch);
      if (outcome === 'retry') {
        failures++;
        const ceiling = Math.min(MAX_RETRY_DELAY_MS, BASE_RETRY_DELAY_MS * 2 ** (failures - 1));
        // "Equal jitter": half the delay fixed, half random, so many
        // learners cut off together do not come back in one wave.
        schedule(ceiling / 2 + random() * (ceiling / 2));
        return;
      }
      failures = 0;
      queue.remove(new Set(batch.map((event) => event.id)));
    }
  };

  const flush = (): Promise<void> => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    sending ??= drain().finally(() => {
      sending = undefined;
    });
    return sending;
  };

  /**
   * A beacon survives the page being closed but cannot carry headers, so the
   * key travels in the body. Beaconed events stay queued until a normal
   * request is acknowledged: if the beacon is lost, the next page load sends
   * them again, and their ids make a second arrival a no-op.
   */
  const sendBeacon = () => {
    const nav = win?.navigator;
    if (!nav || typeof nav.sendBeacon !== 'function') return;
    const events = queue.read().filter((event) => !beaconed.has(event.id));
    let chunk: TrackerEvent[] = [];
    let bytes = 0;
    const send = (): boolean => {
      if (!chunk.length) return true;
      const isQueued = nav.sendBeacon(eventsUrl, JSON.stringify({ key, events: chunk }));
      if (isQueued) for (const event of chunk) beaconed.add(event.id);
      chunk = [];
      bytes = 0;
      return isQueued;
    };
    for (const event of events) {
      const size = JSON.stringify(event).length + 1;
      if (chunk.length >= BATCH_SIZE || bytes + size > MAX_BEACON_BYTES) {
        if (!send()) return;
      }
      chunk.push(event);
      bytes += size;
    }
    send();
  };

  const handleVisibility = () => {
    if (win?.document.visibilityState === 'hidden') sendBeacon();
    else beaconed.clear();
  };
  const handleOnline = () => {
    failures = 0;
    void flush();
  };
  win?.document.addEventListener('visibilitychange', handleVisibility);
  win?.addEventListener('pagehide', sendBeacon);
  win?.addEventListener('online', handleOnline);

  // Whatever an earlier page load left behind goes out now.
  if (queue.read().length) schedule(0);

  return {
    configKey,
    endpoint,
    options,
    start() {
      if (started) return;
      started = true;
      enqueue({ type: 'course.started' });
    },
    setVariable(name, value) {
      if (typeof name !== 'string' || !name) {
        console.warn('CourseLens.setVariable: a variable name is required');
        return;
      }
      enqueue({ type: 'variable.set', variable: { name, value: toVariableValue(value) } });
    },
    answer(question) {
      if (!question || !question.interactionId) {
        console.warn('CourseLens.answer: interactionId is required');
        return;
      }
      // Storyline hands multiple-response answers over as arrays.
      const raw: unknown = question.answer;
      const answer = Array.isArray(raw) ? raw.join(', ') : question.answer;
      enqueue({ type: 'question.answered', question: clean({ ...question, answer }) });
    },
    slide(view) {
      if (!view || typeof view.number !== 'number' || !(view.number >= 0)) {
        console.warn('CourseLens.slide: a slide number (0 or more) is required');
        return;
      }
      const now = Date.now();
      const secondsOnPrevious =
        lastSlideAt === undefined ? undefined : Math.round((now - lastSlideAt) / 1000);
      lastSlideAt = now;
      enqueue({
        type: 'slide.viewed',
        slide: clean({
          number: Math.floor(view.number),
          title: view.title,
          scene: view.scene,
          secondsOnPrevious,
        }),
      });
    },
    progress(percent) {
      if (typeof percent !== 'number' || !(percent >= 0 && percent <= 100)) {
        console.warn('CourseLens.progress: a percentage from 0 to 100 is required');
        return;
      }
      enqueue({ type: 'course.progressed', progress: { percent } });
    },
    result(passed, result) {
      enqueue({
        type: passed ? 'course.passed' : 'course.failed',
        ...(result ? { result: clean(result) } : {}),
      });
    },
    exit() {
      enqueue({ type: 'course.exited' });
      void flush();
    },
    complete() {
      enqueue({ type: 'course.completed' });
      return flush();
    },
    flush: () => {
      failures = 0;
      return flush();
    },
    pending: () => queue.read().length,
    destroy() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      win?.document.removeEventListener('visibilitychange', handleVisibility);
      win?.removeEventListener('pagehide', sendBeacon);
      win?.removeEventListener('online', handleOnline);
    },
  };
}

/** Storyline and plain pages hand over numbers, strings, booleans, dates or nothing. */
export function toVariableValue(value: unknown): VariableValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.join(',');
  return JSON.stringify(value);
}

/** Drops undefined fields so the JSON stays minimal and optional fields are really absent. */
function clean<T extends object>(value: T): T {
  const copy = {} as T;
  for (const name of Object.keys(value) as (keyof T)[]) {
    if (value[name] !== undefined) copy[name] = value[name];
  }
  return copy;
}
