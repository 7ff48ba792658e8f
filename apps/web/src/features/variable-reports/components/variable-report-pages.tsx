import { useParams, useSearchParams } from 'react-router';

import type { ReportView } from '@/config/paths';

import { NotSharedMessage, VariableNotFoundMessage, VariableReportScreen } from './variable-report-screen';

// The server answers 404 for anything else; deciding here saves a request that can only fail.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReportPageProps = { view: ReportView };

/** `/variables/:variable/:view`: a variable across every course that sends it. */
export function VariableReportPage({ view }: ReportPageProps) {
  const name = useParams().variable ?? '';
  return <VariableReportScreen key={name} target={{ kind: 'variable', name }} view={view} />;
}

/** `/course/:courseId/variable/:variableName/:view`: one course's variable. */
export function CourseVariableReportPage({ view }: ReportPageProps) {
  const { courseId = '', variableName = '' } = useParams();
  if (!UUID.test(courseId)) return <VariableNotFoundMessage name={variableName} />;
  return (
    <VariableReportScreen
      key={`${courseId}:${variableName}`}
      target={{ kind: 'course_variable', courseId, name: variableName }}
      view={view}
    />
  );
}

/** `/shared/course/:courseId/variable/:variableName/:view?token=`: the same, without sign-in (names only). */
export function SharedVariableReportPage({ view }: ReportPageProps) {
  const { courseId = '', variableName = '' } = useParams();
  const token = useSearchParams()[0].get('token') ?? '';
  if (!token || !UUID.test(courseId)) return <NotSharedMessage />;
  return (
    <VariableReportScreen
      key={`${courseId}:${variableName}:${token}`}
      target={{ kind: 'shared', courseId, name: variableName, token }}
      view={view}
    />
  );
}
