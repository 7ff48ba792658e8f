import type { TrackerEvent } from './types';

/** Oldest events are dropped beyond this, so a course offline for days cannot fill localStorage. */
export const MAX_QUEUED_EVENTS = 5000;

export type EventQueue = {
  /** Every event not yet acknowledged by the server, oldest first. */
  read(): TrackerEvent[];
  /** Returns how many events are queued now. */
  add(event: TrackerEvent): number;
  remove(ids: Set<string>): void;
};

/**
 * The queue lives in localStorage, read and written on every change, so a
 * closed tab loses nothing, the next page load resends it, and two tabs of
 * the same course share it (a double send is harmless: ids make it
 * idempotent). Where storage is missing or full it falls back to memory.
 */
export function createQueue(storage: Storage | undefined, storageKey: string): EventQueue {
  let memory: TrackerEvent[] = [];
  let store = storage;

  const read = (): TrackerEvent[] => {
    if (store) {
      try {
        const raw = store.getItem(storageKey);
        const parsed: unknown = raw ? JSON.parse(raw) : [];
        return Array.isArray(parsed) ? (parsed as TrackerEvent[]) : [];
      } catch {
        // Unreadable (disabled storage or corrupted value): start again in memory.
        store = undefined;
      }
    }
    return memory.slice();
  };

  const write = (events: TrackerEvent[]) => {
    memory = events;
    if (!store) return;
    try {
      if (events.length) store.setItem(storageKey, JSON.stringify(events));
      else store.removeItem(storageKey);
    } catch {
      store = undefined; // quota exceeded: keep going in memory
    }
  };

  return {
    read,
    add(event) {
      const events = read();
      events.push(event);
      if (events.length > MAX_QUEUED_EVENTS) {
        console.warn(`CourseLens: more than ${MAX_QUEUED_EVENTS} events waiting; the oldest was dropped.`);
        events.shift();
      }
      write(events);
      return events.length;
    },
    remove(ids) {
      write(read().filter((event) => !ids.has(event.id)));
    },
  };
}

/** A short, stable name for a queue (FNV-1a), so the API key is not spelled out in storage keys. */
export function hashKey(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** crypto.randomUUID where it exists (secure contexts), else a v4 id from getRandomValues or Math.random. */
export function uniqueId(): string {
  const c = typeof crypto === 'undefined' ? undefined : crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
