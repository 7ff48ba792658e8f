// The tracker keeps its own types so the bundle never carries zod; this test
// holds them to the server's contract (packages/contracts/src/ingestion.ts).
import {
  ingestEventsBody,
  ingestEventsResponse,
  ingestionEventSchema,
  type IngestEventsResponse,
  type IngestionEventInput,
} from '@courselens/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { baseOptions, fakeFetch, setVisibility } from './test/fakes';
import { createTracker, type Tracker } from './tracker';
import type { IngestResult, TrackerEvent } from './types';

// Compile-time: what the tracker sends is what the server reads, and back.
const sentIsAccepted = (event: TrackerEvent): IngestionEventInput => event;
const resultIsRead = (result: IngestEventsResponse): IngestResult => result;
void sentIsAccepted;
void resultIsRead;

let tracker: Tracker | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});

afterEach(() => {
  tracker?.destroy();
  vi.useRealTimers();
  setVisibility('visible');
});

describe('the events the tracker sends', () => {
  it('each parse with the server schema, and a request parses as a whole', async () => {
    const { fetch, requests } = fakeFetch();
    tracker = createTracker(baseOptions, { fetch, storage: localStorage, window });
    tracker.start();
    tracker.setVariable('Score', 85);
    tracker.setVariable('Department', 'Sales');
    tracker.setVariable('Passed', true);
    tracker.setVariable('Nothing', undefined);
    tracker.answer({
      interactionId: 'slide3-q1',
      slideNumber: 3,
      questionNumber: 1,
      text: 'Where is the assembly point?',
      answer: ['North car park', 'Gate B'] as unknown as string,
      correct: false,
      correctAnswer: 'North car park',
      points: 0,
    });
    tracker.answer({ interactionId: 'minimal' });
    await tracker.complete();

    const events = requests[0]!.events;
    expect(events).toHaveLength(8);
    for (const event of events) {
      const parsed = ingestionEventSchema.safeParse(event);
      expect(parsed.error?.issues, JSON.stringify(event)).toBeUndefined();
    }
    expect(events[5]!.question!.answer).toBe('North car park, Gate B');
    expect(ingestEventsBody.safeParse({ events }).success).toBe(true);
    expect(ingestEventsResponse.safeParse({ accepted: 8, duplicates: 0, rejected: [] }).success).toBe(true);
  });

  it('a beacon body carries the key the way the server reads it', () => {
    const bodies: string[] = [];
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (_url: string, body: string) => bodies.push(body) > 0,
    });
    tracker = createTracker(baseOptions, { fetch: fakeFetch().fetch, storage: localStorage, window });
    tracker.start();
    setVisibility('hidden');
    const parsed = ingestEventsBody.parse(JSON.parse(bodies[0]!));
    expect(parsed.key).toBe('cl_test_key');
    expect(parsed.events).toHaveLength(1);
  });
});
