import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BANNER_ID } from './broadcast';
import { installGlobal, TRACKER_VERSION, type CourseLensGlobal } from './index';
import { baseOptions, fakeFetch } from './test/fakes';
import type { StorylinePlayer } from './types';

type Page = Window & { CourseLens?: CourseLensGlobal; GetPlayer?: () => StorylinePlayer };

let api: CourseLensGlobal | undefined;
// Slide views have their own tests below; elsewhere they would only add events.
const pageOptions = { ...baseOptions, autoSlides: false };

function install(fetchFn: typeof fetch, scriptSrc?: string) {
  api = installGlobal(window, { fetch: fetchFn, scriptSrc });
  return api;
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  document.body.innerHTML = '';
});

afterEach(async () => {
  // Stop the previous test's tracker (its listeners) by pointing it at a throwaway course.
  api?.init({ ...pageOptions, course: { externalCourseId: 'teardown' }, autoStart: false });
  api = undefined;
  delete (window as Page).GetPlayer;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('window.CourseLens', () => {
  it('exposes the tracker on the given global object', () => {
    const target: Page = {} as Page;
    installGlobal(target, { fetch: fakeFetch().fetch });
    expect(target.CourseLens?.version).toBe(TRACKER_VERSION);
    expect(typeof target.CourseLens?.init).toBe('function');
  });

  it('init sends course.started; a second init with the same settings changes nothing', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init(pageOptions);
    lens.init(pageOptions);
    lens.start();
    await lens.flush();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.events.map((event) => event.type)).toEqual(['course.started']);
  });

  it('init with autoStart: false waits for start()', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init({ ...pageOptions, autoStart: false });
    lens.setVariable('score', 1);
    await lens.flush();
    expect(requests[0]!.events.map((event) => event.type)).toEqual(['variable.set']);
    lens.start();
    await lens.flush();
    expect(requests[1]!.events.map((event) => event.type)).toEqual(['course.started']);
  });

  it('a new learner or course starts a new tracker', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init(pageOptions);
    lens.init({ ...pageOptions, learner: { email: 'kim@example.com' } });
    await lens.flush();
    const learners = requests.flatMap((request) => request.events.map((event) => event.learner.email));
    expect(learners.sort()).toEqual(['kim@example.com', 'lee@example.com']);
  });

  it('uses the folder tracker.js came from when no endpoint is given', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch, 'https://lens.example.org/tracker.js?v=2');
    lens.init({ key: 'k', course: pageOptions.course, learner: pageOptions.learner, autoSlides: false });
    await lens.flush();
    expect(requests[0]!.url).toBe('https://lens.example.org/api/v1/events');
  });

  it('warns instead of throwing when a course calls it before init', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.setVariable('score', 1);
    await lens.flush();
    await lens.complete();
    expect(await lens.showBroadcast()).toBeNull();
    expect(lens.pending()).toBe(0);
    expect(requests).toHaveLength(0);
    expect(warn).toHaveBeenCalledWith('CourseLens.setVariable: call CourseLens.init({...}) first');
  });
});

describe('Storyline helper', () => {
  function player(values: Record<string, unknown>): StorylinePlayer {
    return {
      GetVar: (name) => {
        if (name === 'Broken') throw new Error('no such variable');
        return values[name] ?? null;
      },
    };
  }

  it('sends the listed player variables, then only those that changed', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init({ ...pageOptions, autoStart: false });
    const values: Record<string, unknown> = { Score: 40, Department: 'Sales', Passed: false };
    const storyline = player(values);

    expect(lens.fromStoryline(storyline, ['Score', 'Department', 'Passed', 'Broken'])).toBe(3);
    expect(lens.fromStoryline(storyline, ['Score', 'Department', 'Passed'])).toBe(0);
    values.Score = 85;
    values.Passed = true;
    expect(lens.fromStoryline(storyline, ['Score', 'Department', 'Passed'])).toBe(2);
    await lens.flush();

    const sent = requests.flatMap((request) => request.events.map((event) => event.variable));
    expect(sent).toEqual([
      { name: 'Score', value: 40 },
      { name: 'Department', value: 'Sales' },
      { name: 'Passed', value: false },
      { name: 'Score', value: 85 },
      { name: 'Passed', value: true },
    ]);
  });

  it('syncStorylineVariables reads GetPlayer() of the page', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init({ ...pageOptions, autoStart: false });
    (window as Page).GetPlayer = () => player({ Score: 12 });
    expect(lens.syncStorylineVariables(['Score'])).toBe(1);
    await lens.flush();
    expect(requests[0]!.events[0]!.variable).toEqual({ name: 'Score', value: 12 });
  });

  it('warns when the page has no Storyline player', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const lens = install(fakeFetch().fetch);
    lens.init({ ...pageOptions, autoStart: false });
    expect(lens.syncStorylineVariables(['Score'])).toBe(0);
    expect(warn).toHaveBeenCalledWith(
      'CourseLens.syncStorylineVariables: GetPlayer() is not available on this page',
    );
  });
});

describe('broadcast banner', () => {
  function broadcastFetch(message: string | null, status = 200) {
    const calls: { url: string; headers: Record<string, string> }[] = [];
    const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: input as string, headers: (init?.headers ?? {}) as Record<string, string> });
      return { ok: status === 200, status, json: async () => ({ message }) } as unknown as Response;
    });
    return { fetch: fn as unknown as typeof fetch, calls };
  }

  it('fetches the course message and shows it in a dismissible live region', async () => {
    const { fetch, calls } = broadcastFetch('New module <b>released</b> on Monday');
    const lens = install(fetch);
    lens.init({ ...pageOptions, course: { externalCourseId: 'safety 101/a' }, autoStart: false });

    await expect(lens.showBroadcast()).resolves.toBe('New module <b>released</b> on Monday');
    expect(calls[0]).toEqual({
      url: 'https://cl.example.com/api/v1/courses/safety%20101%2Fa/broadcast',
      headers: { authorization: 'Bearer cl_test_key' },
    });
    const banner = document.getElementById(BANNER_ID)!;
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.getAttribute('aria-label')).toBe('Message from your course team');
    // Plain text, never HTML.
    expect(banner.textContent).toContain('New module <b>released</b> on Monday');
    expect(banner.querySelector('b')).toBeNull();

    const dismiss = banner.querySelector('button')!;
    expect(dismiss.getAttribute('aria-label')).toBe('Dismiss message');
    dismiss.click();
    expect(document.getElementById(BANNER_ID)).toBeNull();

    // The same message stays dismissed on the next page load...
    await lens.showBroadcast();
    expect(document.getElementById(BANNER_ID)).toBeNull();
  });

  it('shows a new message even after the previous one was dismissed, and closes on Escape', async () => {
    const lens = install(broadcastFetch('First').fetch);
    lens.init({ ...pageOptions, autoStart: false });
    await lens.showBroadcast();
    document.getElementById(BANNER_ID)!.querySelector('button')!.click();

    api = installGlobal(window, { fetch: broadcastFetch('Second').fetch });
    api.init({ ...pageOptions, autoStart: false });
    await api.showBroadcast();
    const banner = document.getElementById(BANNER_ID)!;
    expect(banner.textContent).toContain('Second');
    banner
      .querySelector('button')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(document.getElementById(BANNER_ID)).toBeNull();
  });

  it('shows nothing when no message is set or the server fails', async () => {
    const lens = install(broadcastFetch(null).fetch);
    lens.init({ ...pageOptions, autoStart: false });
    await expect(lens.showBroadcast()).resolves.toBeNull();
    api = installGlobal(window, { fetch: broadcastFetch('x', 500).fetch });
    api.init({ ...pageOptions, autoStart: false });
    await expect(api.showBroadcast()).resolves.toBeNull();
    expect(document.getElementById(BANNER_ID)).toBeNull();
  });

  it('sends the queue first, so a new course is known before its message is asked for', async () => {
    const { fetch, calls } = broadcastFetch('Hi');
    const lens = install(fetch);
    lens.init(pageOptions); // queues course.started
    await lens.showBroadcast();
    expect(calls.map((call) => call.url)).toEqual([
      'https://cl.example.com/api/v1/events',
      'https://cl.example.com/api/v1/courses/safety-101/broadcast',
    ]);
  });

  it('replaces a banner already on the page instead of stacking two', async () => {
    const lens = install(broadcastFetch('Hello').fetch);
    lens.init({ ...pageOptions, autoStart: false });
    await lens.showBroadcast();
    await lens.showBroadcast();
    expect(document.querySelectorAll(`#${BANNER_ID}`)).toHaveLength(1);
  });
});

describe('slide views and outcomes', () => {
  it('sends a slide view per new address of the page, numbered in the order first seen, with the time on the previous', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    history.replaceState(null, '', '/course/index.html#/intro');
    document.title = 'Welcome';
    lens.init({ ...baseOptions, autoStart: false });
    vi.advanceTimersByTime(3000);
    history.replaceState(null, '', '/course/index.html#/hazards');
    document.title = 'Hazards';
    vi.advanceTimersByTime(600);
    history.replaceState(null, '', '/course/index.html#/intro');
    document.title = 'Welcome';
    vi.advanceTimersByTime(600);
    await lens.flush();
    const slides = requests
      .flatMap((request) => request.events)
      .filter((event) => event.type === 'slide.viewed');
    expect(slides.map((event) => event.slide)).toEqual([
      { number: 1, title: 'Welcome' },
      { number: 2, title: 'Hazards', secondsOnPrevious: 4 },
      { number: 1, title: 'Welcome', secondsOnPrevious: 1 },
    ]);
  });

  it('lets the course number its slides itself, which stops the automatic views', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    history.replaceState(null, '', '/story.html');
    lens.init({ ...baseOptions, autoStart: false });
    lens.slide({ number: 7, title: 'Summary', scene: 'Quiz' });
    history.replaceState(null, '', '/story.html#/next');
    vi.advanceTimersByTime(1500);
    await lens.flush();
    const slides = requests
      .flatMap((request) => request.events)
      .filter((event) => event.type === 'slide.viewed');
    expect(slides.map((event) => event.slide?.number)).toEqual([1, 7]);
  });

  it('sends progress, a pass or a fail with its score, and an exit', async () => {
    const { fetch, requests } = fakeFetch();
    const lens = install(fetch);
    lens.init({ ...pageOptions, autoStart: false });
    lens.progress(50);
    lens.progress(140);
    lens.pass({ score: 82, passMark: 70 });
    lens.fail();
    lens.exit();
    await lens.flush();
    const events = requests.flatMap((request) => request.events) as unknown as Record<string, unknown>[];
    expect(events.map(({ type, progress, result }) => ({ type, progress, result }))).toEqual([
      { type: 'course.progressed', progress: { percent: 50 }, result: undefined },
      { type: 'course.passed', progress: undefined, result: { score: 82, passMark: 70 } },
      { type: 'course.failed', progress: undefined, result: undefined },
      { type: 'course.exited', progress: undefined, result: undefined },
    ]);
  });
});
