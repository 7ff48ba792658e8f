import { describe, expect, it } from 'vitest';
import { installGlobal, TRACKER_VERSION } from './index';

describe('installGlobal', () => {
  it('exposes the tracker on the given global object', () => {
    const target: { CourseLens?: { version: string } } = {};
    installGlobal(target);
    expect(target.CourseLens?.version).toBe(TRACKER_VERSION);
  });
});
