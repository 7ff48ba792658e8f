import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MAX_QUEUED_EVENTS, uniqueId } from './queue';
import { fakeFetch, baseOptions, setVisibility } from './test/fakes';
import { createTracker, toVariableValue, type Tracker } from './tracker';
import type { AnyTrackerEvent, TrackerOptions } from './types';

const trackers: Tracker[] = [];
function track(fetchFn: typeof fetch, overrides: Partial<TrackerOptions> = {}) {
  const tracker = createTracker(
    { ...baseOptions, ...overrides },
    { fetch: fetchFn, storage: window.localStorage, window, random: () => 0 },
  );
  trackers.push(tracker);
  return tracker;
}

function storedQueues(): AnyTrackerEvent[][] {
  const queues: AnyTrackerEvent[][] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i)!;
    if (name.startsWith('courselens:queue:'))
      queues.push(JSON.parse(localStorage.getItem(name)!) as AnyTrackerEvent[]);
  }
  return queues;
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});

afterEach(() => {
  for (const tracker of trackers.splice(0)) tracker.destroy();
  vi.useRealTimers();
  vi.restoreAllMocks();
  setVisibility('visible');
});

describe('queueing and batching', () => {
  it('waits briefly and sends the events together, with the key as a bearer token', async () => {
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch);
    tracker.start();
    tracker.setVariable('score', 80);
    tracker.answer({ interactionId: 'q1', slideNumber: 3, questionNumber: 1, answer: 'B', correct: true });
    await vi.advanceTimersByTimeAsync(999);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.url).toBe('https://cl.example.com/api/v1/events');
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer cl_test_key',
      'content-type': 'application/json',
    });
    expect(request!.events.map((event) => event.type)).toEqual([
      'course.started',
      'variable.set',
      'question.answered',
    ]);
    const [started, variable, answered] = request!.events;
    expect(started).toMatchObject({
      course: { externalCourseId: 'safety-101', title: 'Safety 101' },
      learner: { email: 'lee@example.com', name: 'Lee Learner' },
    });
    expect(started!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(variable!.variable).toEqual({ name: 'score', value: 80 });
    expect(answered!.question).toEqual({
      interactionId: 'q1',
      slideNumber: 3,
      questionNumber: 1,
      answer: 'B',
      correct: true,
    });
    // One attempt: every event of this page load carries the same run id.
    expect(new Set(request!.events.map((event) => event.run)).size).toBe(1);
    expect(tracker.pending()).toBe(0);
    expect(storedQueues()).toEqual([]);
  });

  it('gives each event its own id, and keeps a run id the course passes', async () => {
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch, { run: 'attempt-7' });
    for (let i = 0; i < 50; i++) tracker.setVariable('clicks', i);
    await tracker.flush();
    const ids = requests[0]!.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(50);
    expect(requests[0]!.events.every((event) => event.run === 'attempt-7')).toBe(true);
  });

  it('sends at most 100 events per request, at once when a batch is full', async () => {
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch);
    for (let i = 0; i < 250; i++) tracker.setVariable('step', i);
    await tracker.flush();
    expect(requests.map((request) => request.events.length)).toEqual([100, 100, 50]);
    const values = requests.flatMap((request) => request.events.map((event) => event.variable?.value));
    expect(values).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(tracker.pending()).toBe(0);
  });

  it('sends course.completed and flushes right away on complete()', async () => {
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch);
    tracker.setVariable('score', 90);
    await tracker.complete();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.events.map((event) => event.type)).toEqual(['variable.set', 'course.completed']);
  });

  it('sends course.started only once per page load', async () => {
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch);
    tracker.start();
    tracker.start();
    await tracker.flush();
    expect(requests[0]!.events.map((event) => event.type)).toEqual(['course.started']);
  });

  it('refuses to start without what the server needs', () => {
    const { fetch } = fakeFetch();
    expect(() => track(fetch, { key: '' })).toThrow('CourseLens.init: key (an ingest API key) is required');
    expect(() => track(fetch, { learner: { email: '' } })).toThrow('learner.email is required');
    expect(() => track(fetch, { course: { externalCourseId: '' } })).toThrow(
      'course.externalCourseId is required',
    );
  });

  it('warns about and skips a variable without a name or an answer without an interaction id', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch, requests } = fakeFetch();
    const tracker = track(fetch);
    tracker.setVariable('', 1);
    tracker.answer({ interactionId: '' });
    await tracker.flush();
    expect(requests).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('retries', () => {
  it('retries network errors with exponential back-off and the same event ids', async () => {
    const { fetch, requests } = fakeFetch('network-error', 'network-error', 'network-error', { status: 200 });
    const tracker = track(fetch);
    tracker.setVariable('score', 1);
    await tracker.flush();
    expect(requests).toHaveLength(1);

    // random() = 0: half of 1 s, 2 s, 4 s.
    await vi.advanceTimersByTimeAsync(499);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests).toHaveLength(4);

    const ids = requests.map((request) => request.events[0]!.id);
    expect(new Set(ids).size).toBe(1);
    expect(tracker.pending()).toBe(0);
  });

  it('adds jitter up to the full delay and caps it at a minute', async () => {
    const { fetch, requests } = fakeFetch('network-error');
    const tracker = createTracker(baseOptions, {
      fetch,
      storage: localStorage,
      window,
      random: () => 0.999,
    });
    trackers.push(tracker);
    tracker.setVariable('score', 1);
    await tracker.flush();
    // First retry between 0.5 and 1 s: here just under 1 s.
    await vi.advanceTimersByTimeAsync(990);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(requests).toHaveLength(2);
    for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(60_000);
    const before = requests.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests.length).toBe(before + 1); // still trying, once a minute at most
  });

  it.each([500, 502, 503, 429, 408])('retries HTTP %i', async (status) => {
    const { fetch, requests } = fakeFetch({ status }, { status: 200 });
    const tracker = track(fetch);
    tracker.setVariable('score', 1);
    await tracker.flush();
    expect(tracker.pending()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(2);
    expect(tracker.pending()).toBe(0);
  });

  it.each([400, 401, 413])('drops the batch on HTTP %i with a console warning', async (status) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch, requests } = fakeFetch({ status, body: { error: 'Invalid API key', code: 'X' } });
    const tracker = track(fetch);
    tracker.setVariable('score', 1);
    await tracker.flush();
    expect(tracker.pending()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      `CourseLens: the server refused 1 event(s) with HTTP ${status} (Invalid API key); they were dropped.`,
    );
  });

  it('does not hammer a failing server with every new event', async () => {
    const { fetch, requests } = fakeFetch('network-error');
    const tracker = track(fetch);
    tracker.setVariable('a', 1);
    await tracker.flush();
    for (let i = 0; i < 300; i++) tracker.setVariable('b', i);
    await vi.advanceTimersByTimeAsync(400);
    expect(requests).toHaveLength(1);
  });

  it('sends at once when the browser comes back online', async () => {
    const { fetch, requests } = fakeFetch('network-error', { status: 200 });
    const tracker = track(fetch);
    tracker.setVariable('a', 1);
    await tracker.flush();
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(2);
    expect(tracker.pending()).toBe(0);
  });

  it('removes events the server rejected, warns, and reports the result', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const result = {
      accepted: 1,
      duplicates: 0,
      rejected: [{ index: 1, id: 'x', error: 'Variable with name score not found' }],
    };
    const { fetch } = fakeFetch({ status: 200, body: result });
    const onResult = vi.fn();
    const tracker = track(fetch, { onResult });
    tracker.start();
    tracker.setVariable('score', 1);
    await tracker.flush();
    expect(tracker.pending()).toBe(0);
    expect(onResult).toHaveBeenCalledWith(result);
    expect(warn).toHaveBeenCalledWith(
      'CourseLens: the server rejected 1 event(s):',
      'Variable with name score not found',
    );
  });
});

describe('persistence', () => {
  it('keeps unsent events in localStorage and the next page load sends them', async () => {
    const offline = fakeFetch('network-error');
    const first = track(offline.fetch);
    first.start();
    first.setVariable('score', 70);
    await first.flush();
    const [stored] = storedQueues();
    expect(stored!.map((event) => event.type)).toEqual(['course.started', 'variable.set']);
    expect(JSON.stringify(localStorage)).not.toContain('cl_test_key');
    first.destroy(); // the tab is closed

    const online = fakeFetch();
    track(online.fetch);
    await vi.advanceTimersByTimeAsync(0);
    expect(online.requests).toHaveLength(1);
    expect(online.requests[0]!.events.map((event) => event.id)).toEqual(stored!.map((event) => event.id));
    expect(storedQueues()).toEqual([]);
  });

  it('keeps one queue per endpoint, key and course', async () => {
    const offline = fakeFetch('network-error');
    track(offline.fetch).setVariable('a', 1);
    track(offline.fetch, { course: { externalCourseId: 'other' } }).setVariable('b', 2);
    track(offline.fetch, { key: 'another-key' }).setVariable('c', 3);
    expect(storedQueues()).toHaveLength(3);
  });

  it('works in memory when localStorage is unavailable', async () => {
    const { fetch, requests } = fakeFetch();
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    const tracker = createTracker(baseOptions, { fetch, storage: broken, window });
    trackers.push(tracker);
    tracker.setVariable('a', 1);
    expect(tracker.pending()).toBe(1);
    await tracker.flush();
    expect(requests[0]!.events).toHaveLength(1);
  });

  it(`drops the oldest events beyond ${MAX_QUEUED_EVENTS}`, () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch } = fakeFetch('network-error');
    const tracker = track(fetch);
    tracker.setVariable('a', 0);
    const queueName = Object.keys(localStorage).find((name) => name.startsWith('courselens:queue:'))!;
    const filler = Array.from({ length: MAX_QUEUED_EVENTS }, (_, i) => ({
      ...storedQueues()[0]![0]!,
      id: `e${i}`,
    }));
    localStorage.setItem(queueName, JSON.stringify(filler));
    tracker.setVariable('a', 1);
    const [stored] = storedQueues();
    expect(stored).toHaveLength(MAX_QUEUED_EVENTS);
    expect(stored![0]!.id).toBe('e1');
    expect(warn).toHaveBeenCalled();
  });
});

describe('beacon on hide', () => {
  function withBeacon() {
    const beacons: { url: string; body: { key: string; events: AnyTrackerEvent[] } }[] = [];
    const sendBeacon = vi.fn((url: string, body: string) => {
      beacons.push({ url, body: JSON.parse(body) as { key: string; events: AnyTrackerEvent[] } });
      return true;
    });
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
    return { beacons, sendBeacon };
  }

  it('sends the queue with the key in the body when the page is hidden, once', () => {
    const { beacons, sendBeacon } = withBeacon();
    const { fetch } = fakeFetch();
    const tracker = track(fetch);
    tracker.start();
    tracker.setVariable('score', 42);

    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));

    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(beacons[0]!.url).toBe('https://cl.example.com/api/v1/events');
    expect(beacons[0]!.body.key).toBe('cl_test_key');
    expect(beacons[0]!.body.events.map((event) => event.type)).toEqual(['course.started', 'variable.set']);
    // Typed as text/plain (a string), which a beacon may send to another origin without a preflight.
    expect(typeof sendBeacon.mock.calls[0]![1]).toBe('string');
    // Still queued until a normal request is acknowledged: a lost beacon loses nothing.
    expect(tracker.pending()).toBe(2);
  });

  it('sends again after the page was visible, and splits big queues into chunks of 100', () => {
    const { beacons } = withBeacon();
    const { fetch } = fakeFetch('network-error');
    const tracker = track(fetch);
    for (let i = 0; i < 150; i++) tracker.setVariable('step', i);
    setVisibility('hidden');
    expect(beacons.map((beacon) => beacon.body.events.length)).toEqual([100, 50]);
    setVisibility('visible');
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(4);
  });

  it('stops when the browser refuses a beacon', () => {
    const sendBeacon = vi.fn(() => false);
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
    const { fetch } = fakeFetch('network-error');
    const tracker = track(fetch);
    for (let i = 0; i < 250; i++) tracker.setVariable('step', i);
    window.dispatchEvent(new Event('pagehide'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pagehide'));
    expect(sendBeacon).toHaveBeenCalledTimes(2); // nothing was marked as sent
  });

  it('sends nothing when the queue is empty', () => {
    const { sendBeacon } = withBeacon();
    track(fakeFetch().fetch);
    setVisibility('hidden');
    expect(sendBeacon).not.toHaveBeenCalled();
  });
});

describe('ids and values', () => {
  it('makes v4 ids without crypto.randomUUID', () => {
    const randomUUID = Object.getOwnPropertyDescriptor(Crypto.prototype, 'randomUUID') ?? {
      value: crypto.randomUUID.bind(crypto),
    };
    Object.defineProperty(crypto, 'randomUUID', { configurable: true, value: undefined });
    try {
      const ids = Array.from({ length: 1000 }, () => uniqueId());
      expect(new Set(ids).size).toBe(1000);
      for (const id of ids)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { ...randomUUID, configurable: true });
    }
  });

  it('turns what a page hands over into string, number, boolean or null', () => {
    expect(toVariableValue(undefined)).toBeNull();
    expect(toVariableValue(null)).toBeNull();
    expect(toVariableValue(Number.NaN)).toBeNull();
    expect(toVariableValue(3.5)).toBe(3.5);
    expect(toVariableValue('x')).toBe('x');
    expect(toVariableValue(false)).toBe(false);
    expect(toVariableValue(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(toVariableValue(['a', 'b'])).toBe('a,b');
  });
});
