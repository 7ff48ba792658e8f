import { Navigate, useParams, useSearchParams } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { Spinner } from '@/components/ui/spinner';
import { paths, type ReportView } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

import { useVariableReport } from '../api/get-variable-report';
import { variableReportTargetOf, type VariableReportTarget } from '../api/report-target';

import { useVariableReportParams } from './use-variable-report-params';
import {
  NotSharedMessage,
  summaryVariableId,
  VariableNotFoundMessage,
  VariableReportScreen,
} from './variable-report-screen';

export type ReportPageProps = { view: ReportView };

/** `/variables/:variable/:view`: a variable across every course that sends it. */
export function VariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('variable', params, searchParams);
  if (!target) return <VariableNotFoundMessage name={params.variable ?? ''} />;
  return <VariableReportScreen key={target.name} target={target} view={view} />;
}

/** `/chatbot/:variableName/:view`: a variable across every custom AI agent that captures it. */
export function ChatbotVariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('chatbot_variable', params, searchParams);
  if (!target) return <VariableNotFoundMessage name={params.variableName ?? ''} source="chatbot" />;
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

/**
 * `/shared/chatbot/:variableName/:view?token=&courseId=`: one custom AI
 * agent's variable (the agent in `courseId`), without sign-in (names only).
 */
export function SharedChatbotVariableReportPage({ view }: ReportPageProps) {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('shared_chatbot_variable', params, searchParams);
  if (target?.kind !== 'shared') return <NotSharedMessage />;
  return (
    <VariableReportScreen
      key={`${target.courseId}:${target.name}:${target.token}`}
      target={target}
      view={view}
    />
  );
}

/**
 * `/chatbot/:variableName/ai-summary`: the server summarizes one agent's
 * variable (by id), so this opens the summary page of the agent `?courseId=`
 * names, else of the first agent that captures the name. The ids come from
 * the variable's report, the answer the report screen reads too.
 */
export function ChatbotVariableAiSummaryPage() {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const target = variableReportTargetOf('chatbot_variable', params, searchParams);
  if (!target) return <VariableNotFoundMessage name={params.variableName ?? ''} source="chatbot" />;
  return <ChatbotSummaryRedirect key={target.name} target={target} />;
}

function ChatbotSummaryRedirect({ target }: { target: VariableReportTarget }) {
  const organizationId = useSession().currentOrganization?.id;
  const state = useVariableReportParams();
  const report = useVariableReport(organizationId, target, state.report);
  const variableId = report.data ? summaryVariableId(report.data.variable, state.filters.courseId) : null;

  if (variableId) return <Navigate to={paths.variables.aiSummary.href(variableId, 'chatbot')} replace />;
  if ((isApiError(report.error) && report.error.status === 404) || report.data) {
    return <VariableNotFoundMessage name={target.name} source="chatbot" />;
  }
  if (report.error) {
    return (
      <PageMessage title="The summary could not be opened">
        {isApiError(report.error) ? report.error.message : 'Something went wrong. Try again.'}
      </PageMessage>
    );
  }
  return (
    <div className="flex flex-1 justify-center py-16">
      <title>AI summary · CourseLens</title>
      <Spinner label="Opening the AI summary" />
    </div>
  );
}
