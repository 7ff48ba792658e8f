/**
 * Undo and redo for the editor: a list of past states, the present, and the
 * states undone. A change may carry a `coalesce` key: changes in a row with
 * the same key (the steps of one drag, the letters typed in one field) make
 * one entry, so undo takes back the drag or the word, not one pixel or one
 * letter. The states are kept whole (they are small), which makes "is this
 * the saved state?" a reference comparison.
 */

export const MAX_HISTORY = 100;

export type History<T> = {
  past: T[];
  present: T;
  future: T[];
  /** The coalesce key of the last change, while the next one may join it. */
  lastKey: string | null;
};

export type HistoryAction<T> =
  | { type: 'change'; update: (present: T) => T; coalesce?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  /** Starts again from a state (loaded, or just saved): nothing to undo. */
  | { type: 'reset'; present: T }
  /** Ends the current run of coalesced changes (a drag ended, a field lost focus). */
  | { type: 'seal' };

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], lastKey: null };
}

export function historyReducer<T>(state: History<T>, action: HistoryAction<T>): History<T> {
  switch (action.type) {
    case 'change': {
      const next = action.update(state.present);
      if (Object.is(next, state.present)) return state;
      const key = action.coalesce ?? null;
      if (key !== null && key === state.lastKey && state.past.length > 0) {
        return { ...state, present: next, future: [] };
      }
      return {
        past: [...state.past, state.present].slice(-MAX_HISTORY),
        present: next,
        future: [],
        lastKey: key,
      };
    }
    case 'undo': {
      const previous = state.past.at(-1);
      if (previous === undefined) return state;
      return {
        past: state.past.slice(0, -1),
        present: previous,
        future: [state.present, ...state.future],
        lastKey: null,
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (next === undefined) return state;
      return { past: [...state.past, state.present], present: next, future: rest, lastKey: null };
    }
    case 'reset':
      return createHistory(action.present);
    case 'seal':
      return state.lastKey === null ? state : { ...state, lastKey: null };
  }
}

export function canUndo(state: History<unknown>): boolean {
  return state.past.length > 0;
}

export function canRedo(state: History<unknown>): boolean {
  return state.future.length > 0;
}
