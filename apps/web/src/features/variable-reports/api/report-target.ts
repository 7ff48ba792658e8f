import type { ReportView } from '@/config/paths';

/**
 * Which variable a report screen reads, and through which endpoints: every
 * variable of a name across the organization, one course's variable, or a
 * shared course variable (public, by token).
 */
export type VariableReportTarget =
  | { kind: 'variable'; name: string }
  | { kind: 'course_variable'; courseId: string; name: string }
  | { kind: 'shared'; courseId: string; name: string; token: string };

export type VariableEndpoint = ReportView | 'export' | 'history';

const enc = encodeURIComponent;

/** The API path and the query that names the variable, for one endpoint of a target. */
export function variableEndpoint(
  target: VariableReportTarget,
  endpoint: VariableEndpoint,
): { path: string; query: Record<string, string> } {
  switch (target.kind) {
    case 'variable':
      return { path: `/variable-reports/${endpoint}`, query: { name: target.name } };
    case 'course_variable':
      return {
        path: `/courses/${enc(target.courseId)}/variables/${enc(target.name)}/${endpoint}`,
        query: {},
      };
    case 'shared':
      return {
        path: `/shared/course-variables/${endpoint}`,
        query: { courseId: target.courseId, name: target.name, token: target.token },
      };
  }
}

/** Query keys of every variable report start here. */
export function variableReportKey(organizationId: string | null | undefined, target: VariableReportTarget) {
  return [
    'variable-reports',
    { organizationId: target.kind === 'shared' ? null : (organizationId ?? null) },
    target,
  ] as const;
}
