import { vi } from 'vitest';

import type { AnyTrackerEvent, TrackerOptions } from '../types';

export type SentRequest = {
  url: string;
  headers: Record<string, string>;
  events: AnyTrackerEvent[];
};

type Reply = { status: number; body?: unknown } | 'network-error';

/**
 * A fetch that records each request and answers from a script of replies
 * (the last one repeats); by default every batch is accepted.
 */
export function fakeFetch(...replies: Reply[]) {
  const requests: SentRequest[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(init.body as string) as { events?: AnyTrackerEvent[] }) : {};
    requests.push({
      url: input as string,
      headers: (init?.headers ?? {}) as Record<string, string>,
      events: body.events ?? [],
    });
    const reply = replies.length > 1 ? replies.shift()! : (replies[0] ?? { status: 200 });
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    const events = body.events ?? [];
    const json = reply.body ?? { accepted: events.length, duplicates: 0, rejected: [] };
    return {
      ok: reply.status >= 200 && reply.status < 300,
      status: reply.status,
      json: async () => json,
      headers: new Headers(),
    } as unknown as Response;
  });
  return { fetch: fn as unknown as typeof fetch, requests };
}

/** Makes document.visibilityState report `state` and fires visibilitychange. */
export function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

export const course = { externalCourseId: 'safety-101', title: 'Safety 101' };
export const learner = { email: 'lee@example.com', name: 'Lee Learner' };
export const baseOptions: TrackerOptions & { endpoint: string } = {
  endpoint: 'https://cl.example.com/',
  key: 'cl_test_key',
  course,
  learner,
};
