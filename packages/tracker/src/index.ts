// The course tracker: the small script courses load (served at /tracker.js)
// to report what learners do. `window.CourseLens` queues events in
// localStorage, sends them in batches with retries, flushes with a beacon
// when the page is hidden, reads Storyline variables and shows the course's
// broadcast message.
import { fetchBroadcast, showBanner } from './broadcast';
import { createTracker, normalizeEndpoint, type Tracker } from './tracker';
import type { CourseResult, QuestionAnswer, SlideView, StorylinePlayer, TrackerOptions } from './types';

export type * from './types';
export { createTracker, type Tracker, type TrackerEnv } from './tracker';

export const TRACKER_VERSION = '1.0.0';

export type CourseLensGlobal = {
  version: string;
  /** Starts tracking one learner in one course; calling it again with the same settings does nothing. */
  init(options: TrackerOptions): void;
  /** Sends `course.started` (init does unless `autoStart: false`); once per page load. */
  start(): void;
  setVariable(name: string, value: unknown): void;
  answer(question: QuestionAnswer): void;
  /** Sends `slide.viewed` (and stops the automatic slide views of `autoSlides`). */
  slide(view: SlideView): void;
  /** Sends `course.progressed` with a percentage from 0 to 100. */
  progress(percent: number): void;
  /** Sends `course.passed` with the score and pass mark, if known. */
  pass(result?: CourseResult): void;
  /** Sends `course.failed` with the score and pass mark, if known. */
  fail(result?: CourseResult): void;
  /** Sends `course.exited`: the learner leaves without completing (suspend). */
  exit(): void;
  /** Sends `course.completed` and everything still queued. */
  complete(): Promise<void>;
  /** Sends everything queued now, skipping any back-off wait. */
  flush(): Promise<void>;
  /** How many events wait for the server. */
  pending(): number;
  /** Shows the course's broadcast message, if one is set; resolves to it (or null). */
  showBroadcast(): Promise<string | null>;
  /** Sends the listed Storyline variables whose value changed since the last call. */
  fromStoryline(player: StorylinePlayer, names: string[]): number;
  /** `fromStoryline` with the page's `GetPlayer()`. */
  syncStorylineVariables(names: string[], player?: StorylinePlayer): number;
};

type GlobalTarget = Partial<Window> & {
  CourseLens?: CourseLensGlobal;
  GetPlayer?: () => StorylinePlayer;
};

export type InstallOptions = {
  /** The src the script was loaded from: its folder is the default endpoint. */
  scriptSrc?: string;
  fetch?: typeof fetch;
};

/** Creates `CourseLens` on the page's global object and returns it. */
export function installGlobal(target: GlobalTarget, install: InstallOptions = {}): CourseLensGlobal {
  let tracker: Tracker | undefined;
  let storylineValues = new Map<string, string>();
  let stopSlides: (() => void) | undefined;
  const storage = readStorage(target);
  const defaultEndpoint = install.scriptSrc?.replace(/\/tracker\.js([?#].*)?$/, '');

  const current = (method: string): Tracker | undefined => {
    if (!tracker) console.warn(`CourseLens.${method}: call CourseLens.init({...}) first`);
    return tracker;
  };
  const doFetch: typeof fetch = (input, init) => (install.fetch ?? target.fetch!.bind(target))(input, init);

  const api: CourseLensGlobal = {
    version: TRACKER_VERSION,
    init(options) {
      const endpoint = normalizeEndpoint(options.endpoint ?? defaultEndpoint ?? '');
      const configKey = [endpoint, options.key, options.course?.externalCourseId].join('|');
      const sameLearner = tracker?.options.learner?.email === options.learner?.email;
      if (tracker && tracker.configKey === configKey && sameLearner) return;
      tracker?.destroy();
      tracker = createTracker(
        { ...options, endpoint },
        { fetch: doFetch, storage, window: target.document ? (target as Window) : undefined },
      );
      storylineValues = new Map();
      if (options.autoStart !== false) tracker.start();
      stopSlides?.();
      stopSlides = options.autoSlides === false ? undefined : watchAddress(target, tracker);
    },
    start: () => current('start')?.start(),
    setVariable: (name, value) => current('setVariable')?.setVariable(name, value),
    answer: (question) => current('answer')?.answer(question),
    slide(view) {
      stopSlides?.();
      stopSlides = undefined;
      current('slide')?.slide(view);
    },
    progress: (percent) => current('progress')?.progress(percent),
    pass: (result) => current('pass')?.result(true, result),
    fail: (result) => current('fail')?.result(false, result),
    exit: () => current('exit')?.exit(),
    complete: () => current('complete')?.complete() ?? Promise.resolve(),
    flush: () => current('flush')?.flush() ?? Promise.resolve(),
    pending: () => tracker?.pending() ?? 0,
    async showBroadcast() {
      const active = current('showBroadcast');
      if (!active || !target.document) return null;
      const { endpoint, options } = active;
      // Send what is queued first: a course's first course.started registers
      // it, so its very first page asks about a course the server knows.
      await active.flush();
      const message = await fetchBroadcast({
        fetch: doFetch,
        endpoint,
        key: options.key,
        externalCourseId: options.course.externalCourseId,
      });
      if (message) showBanner(target.document, message, storage, active.configKey);
      return message;
    },
    fromStoryline(player, names) {
      const active = current('fromStoryline');
      if (!active) return 0;
      let sent = 0;
      for (const name of names) {
        let value: unknown;
        try {
          value = player.GetVar(name);
        } catch {
          continue;
        }
        const seen = JSON.stringify(value ?? null);
        if (storylineValues.get(name) === seen) continue;
        storylineValues.set(name, seen);
        active.setVariable(name, value);
        sent++;
      }
      return sent;
    },
    syncStorylineVariables(names, player) {
      const found = player ?? target.GetPlayer?.();
      if (!found) {
        console.warn('CourseLens.syncStorylineVariables: GetPlayer() is not available on this page');
        return 0;
      }
      return api.fromStoryline(found, names);
    },
  };
  target.CourseLens = api;
  return api;
}

/**
 * Automatic slide views: each new address of the page (path and hash, which
 * routed web courses and Storyline's player change per slide) is a slide,
 * numbered in the order first seen, titled with the page title. Checked
 * twice a second: no history patching, nothing to break in the course.
 */
function watchAddress(target: GlobalTarget, tracker: Tracker): (() => void) | undefined {
  const location = target.location;
  if (!location || typeof target.setInterval !== 'function') return undefined;
  const numbers = new Map<string, number>();
  let shown = '';
  const check = () => {
    const address = location.pathname + location.hash;
    if (address === shown) return;
    shown = address;
    if (!numbers.has(address)) numbers.set(address, numbers.size + 1);
    const title = target.document?.title || undefined;
    tracker.slide({ number: numbers.get(address)!, ...(title ? { title } : {}) });
  };
  check();
  const timer = target.setInterval(check, 500);
  return () => target.clearInterval?.(timer);
}

function readStorage(target: GlobalTarget): Storage | undefined {
  try {
    return target.localStorage ?? undefined;
  } catch {
    return undefined; // blocked (sandboxed frame, cookies off)
  }
}
