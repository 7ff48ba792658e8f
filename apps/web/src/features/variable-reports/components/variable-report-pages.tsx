import { useParams, useSearchParams } from 'react-router';

import type { ReportView } from '@/config/paths';

import { variableReportTargetOf } from '../api/report-target';

import { NotSharedMessage, VariableNotFoundMessage, VariableReportScreen } from './variable-report-screen';

export type ReportPageProps = { view: ReportView };

/** `/variables/:variable/:view`: a variable across every course that sends it. */
export function VariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('variable', params, searchParams);
  if (!target) return <VariableNotFoundMessage name={params.variable ?? ''} />;
  return <VariableReportScreen key={target.name} target={target} view={view} />;
}

/** `/course/:courseId/variable/:variableName/:view`: one course's variable. */
export function CourseVariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('course_variable', params, searchParams);
  if (!target) return <VariableNotFoundMessage name={params.variableName ?? ''} />;
  return <VariableReportScreen key={`${params.courseId}:${target.name}`} target={target} view={view} />;
}

/** `/shared/course/:courseId/variable/:variableName/:view?token=`: the same, without sign-in (names only). */
export function SharedVariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('shared', params, searchParams);
  if (target?.kind !== 'shared') return <NotSharedMessage />;
  return (
    <VariableReportScreen
      key={`${target.courseId}:${target.name}:${target.token}`}
      target={target}
      view={view}
    />
  );
}
