import { describe, expect, it } from 'vitest';

import { MAX_HISTORY, canRedo, canUndo, createHistory, historyReducer, type History } from './history';

type Doc = { value: number };

const set = (value: number, coalesce?: string) =>
  ({ type: 'change', update: () => ({ value }), coalesce }) as const;

function run(
  actions: Parameters<typeof historyReducer<Doc>>[1][],
  start: History<Doc> = createHistory({ value: 0 }),
) {
  return actions.reduce((state, action) => historyReducer(state, action), start);
}

describe('the editor history', () => {
  it('undoes and redoes changes in order', () => {
    const state = run([set(1), set(2), set(3), { type: 'undo' }, { type: 'undo' }]);
    expect(state.present.value).toBe(1);
    expect(canRedo(state)).toBe(true);
    const redone = run([{ type: 'redo' }], state);
    expect(redone.present.value).toBe(2);
  });

  it('does nothing when there is nothing to undo or redo', () => {
    const start = createHistory({ value: 0 });
    expect(run([{ type: 'undo' }], start)).toBe(start);
    expect(run([{ type: 'redo' }], start)).toBe(start);
    expect(canUndo(start)).toBe(false);
  });

  it('forgets what was undone once something new changes', () => {
    const state = run([set(1), set(2), { type: 'undo' }, set(5)]);
    expect(state.present.value).toBe(5);
    expect(canRedo(state)).toBe(false);
    expect(run([{ type: 'undo' }], state).present.value).toBe(1);
  });

  it('makes changes in a row with the same key one step (one drag, one word typed)', () => {
    const state = run([set(1), set(2, 'drag:a'), set(3, 'drag:a'), set(4, 'drag:a')]);
    expect(state.past.map((doc) => doc.value)).toEqual([0, 1]);
    expect(run([{ type: 'undo' }], state).present.value).toBe(1);
  });

  it('starts a new step after a seal, or when the key changes', () => {
    const sealed = run([set(1, 'drag:a'), { type: 'seal' }, set(2, 'drag:a')]);
    expect(sealed.past.map((doc) => doc.value)).toEqual([0, 1]);
    const otherKey = run([set(1, 'name'), set(2, 'description')]);
    expect(otherKey.past.map((doc) => doc.value)).toEqual([0, 1]);
  });

  it('keeps a change that returns the same state out of the history', () => {
    const start = createHistory({ value: 0 });
    const state = historyReducer(start, { type: 'change', update: (doc) => doc });
    expect(state).toBe(start);
  });

  it('keeps the last 100 steps', () => {
    const state = run(Array.from({ length: MAX_HISTORY + 20 }, (_, i) => set(i + 1)));
    expect(state.past).toHaveLength(MAX_HISTORY);
    expect(state.past[0]?.value).toBe(20);
  });

  it('starts afresh on reset (a pipeline loaded)', () => {
    const state = run([set(1), set(2), { type: 'reset', present: { value: 9 } }]);
    expect(state).toEqual({ past: [], present: { value: 9 }, future: [], lastKey: null });
  });

  it('gives back the very object that was saved, so "unsaved changes" goes away on undo', () => {
    const saved = { value: 0 };
    const state = run([set(1), { type: 'undo' }], createHistory(saved));
    expect(state.present).toBe(saved);
  });
});
