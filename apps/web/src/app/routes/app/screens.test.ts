import { describe, expect, it } from 'vitest';

import { screenTexts } from './screen-texts';
import { screenRoutes } from './screens';

describe('placeholder screens', () => {
  it('have a text for every route and a route for every text', () => {
    const routePaths = screenRoutes.map((route) => route.path);
    expect(new Set(routePaths).size).toBe(routePaths.length);
    expect([...routePaths].sort()).toEqual(Object.keys(screenTexts).sort());
  });
});
