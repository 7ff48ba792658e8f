import { describe, expect, it } from 'vitest';

import { isEmbeddedInFrame, resolveLayout } from './layout';

const chrome = (pathname: string, options: { isEmbedded?: boolean; isSharedRoute?: boolean } = {}) => {
  const { showNavbar, showSidebar, kind } = resolveLayout({ pathname, ...options });
  return { kind, showNavbar, showSidebar };
};

describe('resolveLayout', () => {
  it.each(['/', '/features', '/pricing', '/solutions', '/features/'])(
    '%s gets the top navbar only',
    (path) => {
      expect(chrome(path)).toEqual({ kind: 'marketing', showNavbar: true, showSidebar: false });
    },
  );

  it.each([
    '/dashboard',
    '/courses',
    '/blog',
    '/blog/storyline-variables',
    '/login',
    '/signup',
    '/variables/score/report',
    '/course/c1/variable/score/ai-summary',
    '/chatbot/mood/ai-summary',
    '/analytics/funnels',
    '/custom-reports/view/r1',
    '/no-such-page',
    '/featuresx',
  ])('%s gets the sidebar and no navbar', (path) => {
    expect(chrome(path)).toEqual({ kind: 'app', showNavbar: false, showSidebar: true });
  });

  it.each(['/chat/agent-1', '/chat/agent-1/'])('chat page %s gets neither', (path) => {
    expect(chrome(path)).toEqual({ kind: 'chat', showNavbar: false, showSidebar: false });
  });

  it.each([
    // paths containing /public-reports/ or /shared/
    '/public-reports/abc123',
    '/shared/course/c1/variable/score/report',
    '/shared/chatbot/mood/chart',
    '/shared/questions/q1/leaders',
    // /course/{id}/variable/{id}/(report|chart|leaders)
    '/course/c1/variable/score/report',
    '/course/c1/variable/score/chart',
    '/course/c1/variable/score/leaders',
    // /questions/{id}/(report|chart|leaders)
    '/questions/q1/report',
    '/questions/q1/chart',
    '/questions/q1/leaders',
    // /chatbot/{id}/(report|chart|leaders)
    '/chatbot/mood/report',
    '/chatbot/mood/chart',
    '/chatbot/mood/leaders',
  ])('shared view %s gets neither navbar nor sidebar', (path) => {
    expect(chrome(path)).toEqual({ kind: 'shared', showNavbar: false, showSidebar: false });
  });

  it('does not treat look-alikes as shared views', () => {
    expect(chrome('/questions').kind).toBe('app');
    expect(chrome('/questions/q1/other').kind).toBe('app');
    expect(chrome('/course/c1/variables').kind).toBe('app');
    expect(chrome('/chatbots').kind).toBe('app');
  });

  it('a route flagged shared is a shared view whatever its path', () => {
    expect(chrome('/dashboard', { isSharedRoute: true }).kind).toBe('shared');
    expect(chrome('/', { isSharedRoute: true }).showNavbar).toBe(false);
  });

  it.each(['/', '/pricing', '/dashboard', '/courses', '/chat/a'])(
    'embedded in a frame, %s gets neither navbar nor sidebar',
    (path) => {
      expect(chrome(path, { isEmbedded: true })).toEqual({
        kind: 'embedded',
        showNavbar: false,
        showSidebar: false,
      });
    },
  );
});

describe('isEmbeddedInFrame', () => {
  it('is false for a top-level window and true inside a frame', () => {
    expect(isEmbeddedInFrame(window)).toBe(false);
    const framed = { self: {}, top: {} } as unknown as Window;
    expect(isEmbeddedInFrame(framed)).toBe(true);
  });
});
