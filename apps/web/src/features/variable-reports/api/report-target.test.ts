import { describe, expect, it } from 'vitest';

import { variableEndpoint, variableReportKey, variableReportTargetOf } from './report-target';

const none = new URLSearchParams();

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

  it('keeps the agents’ and the courses’ answers of one name apart in the cache', () => {
    expect(variableReportKey('o1', agents)).not.toEqual(variableReportKey('o1', courses));
  });
});
