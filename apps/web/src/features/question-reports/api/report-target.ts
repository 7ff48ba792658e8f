import type { ReportView } from '@/config/paths';

/** A question's report as a member sees it, or shared without sign-in through its token. */
export type QuestionReportTarget =
  { kind: 'question'; id: string } | { kind: 'shared'; id: string; token: string };

export type QuestionEndpoint = ReportView | 'report/export';

export function questionEndpoint(
  target: QuestionReportTarget,
  endpoint: QuestionEndpoint,
): { path: string; query: Record<string, string> } {
  const id = encodeURIComponent(target.id);
  return target.kind === 'question'
    ? { path: `/questions/${id}/${endpoint}`, query: {} }
    : { path: `/shared/questions/${id}/${endpoint}`, query: { token: target.token } };
}

export function questionReportKey(organizationId: string | null | undefined, target: QuestionReportTarget) {
  return [
    'question-reports',
    { organizationId: target.kind === 'shared' ? null : (organizationId ?? null) },
    target,
  ] as const;
}
