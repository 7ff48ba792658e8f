import { sharedViewOrganizationName, type VariableReportSubject } from '@courselens/contracts';
import { ArrowLeft, Bot, Sparkles, Variable as VariableIcon } from 'lucide-react';
import { Link } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { PageMessage } from '@/components/page-message';
import { ReportTabs } from '@/components/report-tabs';
import { ShareControl } from '@/components/share-control';
import { SharedBy } from '@/components/shared-by';
import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths, reportViews, type ReportView } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { reportQuery, useVariableReport } from '../api/get-variable-report';
import { useVariableChart } from '../api/get-variable-chart';
import { useVariableLeaders } from '../api/get-variable-leaders';
import {
  isChatbotTarget,
  variableEndpoint,
  type VariableReportTarget,
  type VariableSource,
} from '../api/report-target';
import { useChangeVariableShare, useVariableShare } from '../api/variable-share';

import { VariableChartView } from './variable-chart-view';
import { VariableFilters } from './variable-filters';
import { VariableLeadersView } from './variable-leaders-view';
import { sourceWordsOf } from './source-words';
import { VariableReportView } from './variable-report-view';
import { useVariableReportParams } from './use-variable-report-params';

const VIEW_LABELS: Record<ReportView, string> = { report: 'Report', chart: 'Chart', leaders: 'Leaders' };

function viewHref(target: VariableReportTarget, view: ReportView): string {
  switch (target.kind) {
    case 'variable':
      return target.source === 'chatbot'
        ? paths.variables.chatbotReport.href(target.name, view)
        : paths.variables.report.href(target.name, view);
    case 'course_variable':
      return paths.variables.courseReport.href(target.courseId, target.name, view);
    case 'shared':
      return paths.shared.courseVariable.href(target.courseId, target.name, view);
  }
}

export function NotSharedMessage() {
  return (
    <PageMessage title="This view is not shared">
      The link may be incomplete, or its owner has switched sharing off or replaced the link. Ask them for a
      new one.
    </PageMessage>
  );
}

export type VariableNotFoundMessageProps = { name: string; source?: VariableSource };

export function VariableNotFoundMessage({ name, source = 'course' }: VariableNotFoundMessageProps) {
  return (
    <PageMessage
      title="Variable not found"
      actions={
        source === 'chatbot' ? (
          <Link to={paths.chatbots.list.href()} className={buttonClassName({ variant: 'outline' })}>
            Back to agents
          </Link>
        ) : (
          <Link to={paths.variables.list.href()} className={buttonClassName({ variant: 'outline' })}>
            Back to variables
          </Link>
        )
      }
    >
      {source === 'chatbot'
        ? `No custom AI agent of your organization captures a variable named “${name}”.`
        : `No course of your organization sends a variable named “${name}”.`}
    </PageMessage>
  );
}

/**
 * The variable an organization-wide report's AI summary reads: the one of
 * the course (or agent) the filter names, else the first. A summary is
 * about one course's or one agent's variable, never every one of a name.
 */
export function summaryVariableId(
  variable: VariableReportSubject,
  courseId: string | undefined,
): string | null {
  return (
    (courseId && variable.courses.find((course) => course.id === courseId)?.variableId) ||
    variable.courses[0]?.variableId ||
    null
  );
}

export type VariableReportScreenProps = { target: VariableReportTarget; view: ReportView };

/**
 * A variable's report, chart or leaders (one URL each, filters in the
 * query string): organization-wide (the courses' or the agents'), one
 * course's, or shared without sign-in.
 */
export function VariableReportScreen({ target, view }: VariableReportScreenProps) {
  const organizationId = useSession().currentOrganization?.id;
  const state = useVariableReportParams();
  const report = useVariableReport(organizationId, target, state.report, view === 'report');
  const chart = useVariableChart(organizationId, target, state.chart, view === 'chart');
  const leaders = useVariableLeaders(organizationId, target, state.leaders, view === 'leaders');
  const current = view === 'report' ? report : view === 'chart' ? chart : leaders;
  const variable: VariableReportSubject | undefined = current.data?.variable;
  const isShared = target.kind === 'shared';
  const isChatbot = isChatbotTarget(target);
  const sourceWords = sourceWordsOf(target);
  const hasFilters = Object.values(state.filters).some(Boolean);

  if (isApiError(current.error) && current.error.status === 404) {
    return isShared ? (
      <NotSharedMessage />
    ) : (
      <VariableNotFoundMessage name={target.name} source={isChatbot ? 'chatbot' : 'course'} />
    );
  }

  const courseTitle =
    target.kind === 'variable'
      ? variable?.courses.length === 1
        ? variable.courses[0]?.courseTitle
        : variable
          ? `${variable.courses.length} courses`
          : undefined
      : variable?.courses[0]?.courseTitle;
  const back = isChatbot
    ? { href: paths.chatbots.list.href(), label: 'Custom AI Agents' }
    : target.kind === 'variable'
      ? { href: paths.variables.list.href(), label: 'Variables' }
      : target.kind === 'course_variable'
        ? { href: paths.courses.variables.href(target.courseId), label: courseTitle ?? 'Course variables' }
        : null;
  const summaryId =
    target.kind === 'variable' && variable ? summaryVariableId(variable, state.filters.courseId) : null;
  const aiSummaryHref =
    target.kind === 'course_variable'
      ? paths.variables.courseAiSummary.href(target.courseId, target.name)
      : target.kind === 'variable' && summaryId
        ? paths.variables.aiSummary.href(summaryId, target.source)
        : null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>{`${target.name} · ${VIEW_LABELS[view]}${isShared ? '' : ' · CourseLens'}`}</title>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          {back ? (
            <Link
              to={back.href}
              className="mb-2 inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg hover:underline"
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              {back.label}
            </Link>
          ) : (
            <SharedBy organizationName={sharedViewOrganizationName(current.data)} />
          )}
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold tracking-tight text-fg sm:text-3xl">
            <VariableIcon aria-hidden="true" className="size-6 shrink-0 text-accent" />
            <span className="min-w-0 break-all">{variable?.title ?? target.name}</span>
          </h1>
          <p className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-fg-muted">
            {variable?.title ? <code className="font-mono text-[13px]">{target.name}</code> : null}
            {variable ? <Badge>{variable.dataType}</Badge> : null}
            {courseTitle && !isChatbot ? <span>{courseTitle}</span> : null}
          </p>
          {isChatbot && variable ? <CapturingAgents agents={variable.courses} /> : null}
        </div>
        {isShared ? null : (
          <div className="flex shrink-0 flex-wrap gap-2">
            {aiSummaryHref ? (
              <Link to={aiSummaryHref} className={buttonClassName({ variant: 'outline' })}>
                <Sparkles aria-hidden="true" />
                AI summary
              </Link>
            ) : null}
            {/* Only a course's variable can be shared: the server serves no shared agent variable yet. */}
            {target.kind === 'course_variable' ? (
              <VariableShare
                organizationId={organizationId}
                variableId={variable?.courses[0]?.variableId ?? null}
                target={target}
                view={view}
              />
            ) : null}
            {view === 'report' ? (
              <ExportCsvButton
                path={variableEndpoint(target, 'export').path}
                query={reportQuery(target, state.report, false)}
                fileName={`${target.name}-report.csv`}
              />
            ) : null}
          </div>
        )}
      </div>

      <ReportTabs
        label="Report views"
        current={view}
        tabs={reportViews.map((id) => ({
          id,
          label: VIEW_LABELS[id],
          href: `${viewHref(target, id)}${state.tabSearch}`,
        }))}
      />

      <VariableFilters
        variable={variable}
        filters={state.filters}
        canFilterCourse={target.kind === 'variable'}
        sourceWords={sourceWords}
        onApply={(filters) =>
          state.update({
            courseId: filters.courseId,
            from: filters.from,
            to: filters.to,
            min: filters.min,
            max: filters.max,
            contains: filters.contains,
            value: filters.value,
          })
        }
      />

      {current.isPending && !current.data && view !== 'report' ? (
        <div className="flex justify-center py-16">
          <Spinner label={`Loading the ${view}`} />
        </div>
      ) : view === 'report' ? (
        <VariableReportView
          organizationId={organizationId}
          target={target}
          params={state.report}
          data={report.data}
          isPending={report.isPending}
          isFetching={report.isFetching}
          error={report.error}
          onChange={state.update}
          hasFilters={hasFilters}
        />
      ) : view === 'chart' ? (
        <VariableChartView
          data={chart.data}
          isPending={chart.isPending}
          error={chart.error}
          interval={state.chart.interval}
          onIntervalChange={(interval) => state.update({ interval })}
        />
      ) : (
        <VariableLeadersView
          data={leaders.data}
          isPending={leaders.isPending}
          isFetching={leaders.isFetching}
          error={leaders.error}
          order={state.leaders.order}
          limit={state.leaders.limit}
          limits={state.limits}
          showCourse={target.kind === 'variable'}
          sourceWords={sourceWords}
          isDate={leaders.data?.variable.dataType === 'date'}
          onChange={state.update}
        />
      )}
    </div>
  );
}

/** Says an agent's variable comes from custom AI agents, with a link to each agent that captures it. */
function CapturingAgents({ agents }: { agents: VariableReportSubject['courses'] }) {
  return (
    <p className="mt-1.5 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm text-fg-muted">
      <Bot aria-hidden="true" className="size-4 shrink-0 text-accent" />
      <span>Captured by custom AI {agents.length === 1 ? 'agent' : 'agents'}:</span>
      {agents.map((agent, index) => (
        <span key={agent.id}>
          <Link
            to={paths.chatbots.edit.href(agent.id)}
            className="font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          >
            {agent.courseTitle}
          </Link>
          {index < agents.length - 1 ? ',' : null}
        </span>
      ))}
    </p>
  );
}

function VariableShare({
  organizationId,
  variableId,
  target,
  view,
}: {
  organizationId: string | null | undefined;
  variableId: string | null;
  target: { courseId: string; name: string };
  view: ReportView;
}) {
  const share = useVariableShare(organizationId, variableId);
  const change = useChangeVariableShare(organizationId, variableId);
  const sharing = useCanManage('sharing');
  const settings = share.data;
  const link =
    settings?.token && typeof window !== 'undefined'
      ? `${window.location.origin}${paths.shared.courseVariable.href(target.courseId, target.name, view)}?token=${encodeURIComponent(settings.token)}`
      : null;
  const onError = (cause: unknown) =>
    toast.error(isApiError(cause) ? cause.message : 'Sharing could not be changed. Please try again.');
  return (
    <ShareControl
      subject="this variable"
      enabled={settings?.enabled ?? false}
      link={link}
      viewCount={settings?.viewCount ?? 0}
      isLoading={share.isPending}
      isSaving={change.isPending}
      disabledReason={sharing.reason}
      onToggle={(enabled) => change.mutate({ enabled }, { onError })}
      onRotate={() =>
        change.mutate('rotate', {
          onError,
          onSuccess: () => toast.success('New link ready: the old one no longer works'),
        })
      }
    />
  );
}
