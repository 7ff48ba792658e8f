import { sharedViewOrganizationName, type VariableReportSubject } from '@courselens/contracts';
import { ArrowLeft, Bot, Sparkles, Variable as VariableIcon } from 'lucide-react';
import { useMemo } from 'react';
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

import { reportQuery, useVariableReport, type VariableFilterParams } from '../api/get-variable-report';
import { useVariableChart } from '../api/get-variable-chart';
import { useVariableLeaders } from '../api/get-variable-leaders';
import {
  isChatbotTarget,
  sourceOf,
  variableEndpoint,
  type VariableReportTarget,
  type VariableSource,
} from '../api/report-target';
import { useChangeVariableShare, useVariableShare, type VariableShareSubject } from '../api/variable-share';

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
      // The agent is in the query (`?courseId=`), which the tabs keep with the token.
      return target.source === 'chatbot'
        ? paths.shared.chatbotVariable.href(target.name, view)
        : paths.shared.courseVariable.href(target.courseId, target.name, view);
  }
}

/**
 * The agent whose variable a report of the agents' variables can share: the
 * one the agent filter names, else the only agent capturing it. Null while
 * the report names several: the server shares one agent's variable, never
 * all of a name at once.
 */
function agentToShare(
  variable: VariableReportSubject,
  courseId: string | undefined,
): VariableReportSubject['courses'][number] | null {
  if (courseId) return variable.courses.find((agent) => agent.id === courseId) ?? null;
  return variable.courses.length === 1 ? (variable.courses[0] ?? null) : null;
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
  const isAgentVariable = sourceOf(target) === 'chatbot';
  const sourceWords = sourceWordsOf(target);
  const canFilterCourse = target.kind === 'variable';
  // Only the organization-wide reports filter by course (or agent). Elsewhere
  // `courseId` is no filter to count or clear: a shared agent's link names
  // its agent with it, and clearing it would break the link.
  const filters = useMemo<VariableFilterParams>(
    () => (canFilterCourse ? state.filters : { ...state.filters, courseId: undefined }),
    [canFilterCourse, state.filters],
  );
  const hasFilters = Object.values(filters).some(Boolean);

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
  const agent = isChatbot && variable ? agentToShare(variable, state.filters.courseId) : null;
  const share: ShareProps | null =
    target.kind === 'course_variable'
      ? {
          subject: { kind: 'variable', id: variable?.courses[0]?.variableId ?? null },
          label: 'this variable',
          linkOf: (token) =>
            `${paths.shared.courseVariable.href(target.courseId, target.name, view)}?${new URLSearchParams({ token })}`,
        }
      : agent
        ? {
            subject: { kind: 'chatbot_variable', id: agent.variableId },
            label: 'this agent’s variable',
            linkOf: (token) =>
              `${paths.shared.chatbotVariable.href(target.name, view)}?${new URLSearchParams({ token, courseId: agent.id })}`,
          }
        : null;
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
            {courseTitle && !isAgentVariable ? <span>{courseTitle}</span> : null}
          </p>
          {isAgentVariable && variable ? (
            <CapturingAgents agents={variable.courses} hasLinks={!isShared} />
          ) : null}
        </div>
        {isShared ? null : (
          <div className="flex shrink-0 flex-wrap gap-2">
            {aiSummaryHref ? (
              <Link to={aiSummaryHref} className={buttonClassName({ variant: 'outline' })}>
                <Sparkles aria-hidden="true" />
                AI summary
              </Link>
            ) : null}
            {share ? <VariableShare organizationId={organizationId} {...share} /> : null}
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
        filters={filters}
        canFilterCourse={canFilterCourse}
        sourceWords={sourceWords}
        courseNote={isChatbot && variable && !agent ? 'Choose an agent to share its report' : null}
        onApply={(applied) =>
          state.update({
            ...(canFilterCourse ? { courseId: applied.courseId } : {}),
            from: applied.from,
            to: applied.to,
            min: applied.min,
            max: applied.max,
            contains: applied.contains,
            value: applied.value,
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

/**
 * Says an agent's variable comes from custom AI agents, naming each agent
 * that captures it: linked for members, plain text in a shared view (its
 * visitors cannot open an agent).
 */
function CapturingAgents({
  agents,
  hasLinks,
}: {
  agents: VariableReportSubject['courses'];
  hasLinks: boolean;
}) {
  return (
    <p className="mt-1.5 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm text-fg-muted">
      <Bot aria-hidden="true" className="size-4 shrink-0 text-accent" />
      <span>Captured by custom AI {agents.length === 1 ? 'agent' : 'agents'}:</span>
      {agents.map((agent, index) => (
        <span key={agent.id}>
          {hasLinks ? (
            <Link
              to={paths.chatbots.edit.href(agent.id)}
              className="font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-focus"
            >
              {agent.courseTitle}
            </Link>
          ) : (
            <span className="font-medium text-fg">{agent.courseTitle}</span>
          )}
          {index < agents.length - 1 ? ',' : null}
        </span>
      ))}
    </p>
  );
}

/** What a report shares and where its public link leads (the token added). */
type ShareProps = {
  subject: VariableShareSubject;
  /** For the control's labels ("Share this variable"). */
  label: string;
  /** The public page's path and query for a token, without the origin. */
  linkOf: (token: string) => string;
};

function VariableShare({
  organizationId,
  subject,
  label,
  linkOf,
}: ShareProps & { organizationId: string | null | undefined }) {
  const share = useVariableShare(organizationId, subject);
  const change = useChangeVariableShare(organizationId, subject);
  const sharing = useCanManage('sharing');
  const settings = share.data;
  const link =
    settings?.token && typeof window !== 'undefined'
      ? `${window.location.origin}${linkOf(settings.token)}`
      : null;
  const onError = (cause: unknown) =>
    toast.error(isApiError(cause) ? cause.message : 'Sharing could not be changed. Please try again.');
  return (
    <ShareControl
      subject={label}
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
