import { describe, expect, it } from 'vitest';

import { variableEndpoint, variableReportKey, variableReportTargetOf } from './report-target';

const none = new URLSearchParams();
const AGENT = '11111111-1111-4111-8111-111111111111';

describe('variableReportTargetOf', () => {
  it('reads an agent variable from the chatbot route, and a course variable from the variables route', () => {
    expect(variableReportTargetOf('chatbot_variable', { variableName: 'mood' }, none)).toEqual({
      kind: 'variable',
      source: 'chatbot',
      name: 'mood',
    });
    expect(variableReportTargetOf('variable', { variable: 'mood' }, none)).toEqual({
      kind: 'variable',
      source: 'course',
      name: 'mood',
    });
  });

  it('reads a shared agent variable’s agent from the query, and a shared course variable’s from the path', () => {
    expect(
      variableReportTargetOf(
        'shared_chatbot_variable',
        { variableName: 'mood' },
        new URLSearchParams({ token: 't', courseId: AGENT }),
      ),
    ).toEqual({ kind: 'shared', source: 'chatbot', courseId: AGENT, name: 'mood', token: 't' });
    expect(
      variableReportTargetOf(
        'shared',
        { courseId: AGENT, variableName: 'mood' },
        new URLSearchParams({ token: 't' }),
      ),
    ).toEqual({ kind: 'shared', source: 'course', courseId: AGENT, name: 'mood', token: 't' });
  });

  it.each([
    ['no agent', { token: 't' }],
    ['an agent that is no id', { token: 't', courseId: 'buddy' }],
    ['no token', { courseId: AGENT }],
  ])('names no shared agent variable with %s', (_, query) => {
    expect(
      variableReportTargetOf('shared_chatbot_variable', { variableName: 'mood' }, new URLSearchParams(query)),
    ).toBeNull();
  });
});

describe('variableEndpoint', () => {
  const agents = { kind: 'variable', source: 'chatbot', name: 'mood' } as const;
  const courses = { kind: 'variable', source: 'course', name: 'mood' } as const;

  it.each(['report', 'chart', 'leaders', 'export', 'history'] as const)(
    'asks %s of the organization-wide endpoint with source=chatbot for an agent variable',
    (endpoint) => {
      expect(variableEndpoint(agents, endpoint)).toEqual({
        path: `/variable-reports/${endpoint}`,
        query: { name: 'mood', source: 'chatbot' },
      });
    },
  );

  it('keeps the course variable requests as they were (the server defaults to courses)', () => {
    expect(variableEndpoint(courses, 'report')).toEqual({
      path: '/variable-reports/report',
      query: { name: 'mood' },
    });
  });

  it('reads a shared agent variable from the public agent endpoints, by token, agent and name', () => {
    const shared = { kind: 'shared', source: 'chatbot', courseId: AGENT, name: 'mood', token: 't' } as const;
    expect(variableEndpoint(shared, 'leaders')).toEqual({
      path: '/shared/chatbot-variables/leaders',
      query: { courseId: AGENT, name: 'mood', token: 't' },
    });
    expect(variableEndpoint({ ...shared, source: 'course' }, 'leaders').path).toBe(
      '/shared/course-variables/leaders',
    );
    expect(variableReportKey(null, shared)).not.toEqual(
      variableReportKey(null, { ...shared, source: 'course' }),
    );
  });

  it('keeps the agents’ and the courses’ answers of one name apart in the cache', () => {
    expect(variableReportKey('o1', agents)).not.toEqual(variableReportKey('o1', courses));
  });
});
