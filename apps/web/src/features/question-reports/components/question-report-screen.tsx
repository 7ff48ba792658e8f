import { sharedViewOrganizationName, type QuestionReportSubject } from '@courselens/contracts';
import { ArrowLeft, CircleHelp, SlidersHorizontal } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { PageMessage } from '@/components/page-message';
import { ReportTabs } from '@/components/report-tabs';
import { ShareControl } from '@/components/share-control';
import { SharedBy } from '@/components/shared-by';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { inputClassName } from '@/components/ui/text-field';
import { paths, reportViews, type ReportView } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import {
  questionReportQuery,
  useQuestionChart,
  useQuestionLeaders,
  useQuestionReport,
  type QuestionRangeParams,
} from '../api/get-question-report';
import { useChangeQuestionShare, useQuestionShare } from '../api/question-share';
import { questionEndpoint, type QuestionReportTarget } from '../api/report-target';

import { QuestionChartView, QuestionLeadersView, QuestionReportView } from './question-report-views';
import { LEADER_LIMITS, useQuestionReportParams } from './use-question-report-params';

const VIEW_LABELS: Record<ReportView, string> = { report: 'Report', chart: 'Chart', leaders: 'Leaders' };

export function QuestionNotSharedMessage() {
  return (
    <PageMessage title="This view is not shared">
      The link may be incomplete, or its owner has switched sharing off or replaced the link. Ask them for a
      new one.
    </PageMessage>
  );
}

export function QuestionNotFoundMessage() {
  return (
    <PageMessage
      title="Question not found"
      actions={
        <Link to={paths.questions.list.href()} className={buttonClassName({ variant: 'outline' })}>
          Back to questions
        </Link>
      }
    >
      This question does not exist in your organization, or its course was deleted.
    </PageMessage>
  );
}

function questionTitle(question: QuestionReportSubject | undefined): string {
  if (!question) return 'Question';
  return question.questionText?.trim() || question.interactionId;
}

export type QuestionReportScreenProps = { target: QuestionReportTarget; view: ReportView };

/** A question's answers, chart or leaders (one URL each, the date range in the query string). */
export function QuestionReportScreen({ target, view }: QuestionReportScreenProps) {
  const organizationId = useSession().currentOrganization?.id;
  const state = useQuestionReportParams();
  const report = useQuestionReport(organizationId, target, state.report, view === 'report');
  const chart = useQuestionChart(organizationId, target, state.chart, view === 'chart');
  const leaders = useQuestionLeaders(organizationId, target, state.leaders, view === 'leaders');
  const current = view === 'report' ? report : view === 'chart' ? chart : leaders;
  const question = current.data?.question;
  const isShared = target.kind === 'shared';

  if (isApiError(current.error) && current.error.status === 404) {
    return isShared ? <QuestionNotSharedMessage /> : <QuestionNotFoundMessage />;
  }

  const viewHref = (id: ReportView) =>
    `${isShared ? paths.shared.question.href(target.id, id) : paths.questions.report.href(target.id, id)}${state.tabSearch}`;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>{`${questionTitle(question)} · ${VIEW_LABELS[view]}${isShared ? '' : ' · CourseLens'}`}</title>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          {isShared ? (
            <SharedBy organizationName={sharedViewOrganizationName(current.data)} />
          ) : (
            <Link
              to={paths.questions.list.href()}
              className="mb-2 inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg hover:underline"
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              Questions
            </Link>
          )}
          <h1 className="flex items-start gap-2 text-2xl font-bold tracking-tight text-balance text-fg sm:text-3xl">
            <CircleHelp aria-hidden="true" className="mt-1 size-6 shrink-0 text-accent" />
            <span className="min-w-0 break-words">{questionTitle(question)}</span>
          </h1>
          {question ? (
            <p className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-fg-muted">
              <span>{question.courseTitle}</span>
              {question.slideNumber !== null ? <span>Slide {question.slideNumber}</span> : null}
              <code className="font-mono text-[13px]">{question.interactionId}</code>
              {question.correctAnswer ? (
                <Badge variant="success">Correct answer: {question.correctAnswer}</Badge>
              ) : null}
            </p>
          ) : null}
        </div>
        {isShared ? null : (
          <div className="flex shrink-0 flex-wrap gap-2">
            <QuestionShare organizationId={organizationId} questionId={target.id} view={view} />
            {view === 'report' ? (
              <ExportCsvButton
                path={questionEndpoint(target, 'report/export').path}
                query={questionReportQuery(target, state.report, false)}
                fileName={`question-${question?.interactionId ?? target.id}-answers.csv`}
              />
            ) : null}
          </div>
        )}
      </div>

      <ReportTabs
        label="Report views"
        current={view}
        tabs={reportViews.map((id) => ({ id, label: VIEW_LABELS[id], href: viewHref(id) }))}
      />

      <DateRangeFilter
        range={state.range}
        onApply={(range) => state.update({ from: range.from, to: range.to })}
      />

      {view === 'report' ? (
        <QuestionReportView
          params={state.report}
          data={report.data}
          isPending={report.isPending}
          isFetching={report.isFetching}
          error={report.error}
          onChange={state.update}
          canSearch={!isShared}
        />
      ) : view === 'chart' ? (
        <QuestionChartView data={chart.data} isPending={chart.isPending} error={chart.error} />
      ) : (
        <QuestionLeadersView
          data={leaders.data}
          isPending={leaders.isPending}
          isFetching={leaders.isFetching}
          error={leaders.error}
          limit={state.leaders.limit}
          limits={LEADER_LIMITS}
          onChange={state.update}
        />
      )}
    </div>
  );
}

function DateRangeFilter({
  range,
  onApply,
}: {
  range: QuestionRangeParams;
  onApply: (range: QuestionRangeParams) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(range);
  const [applied, setApplied] = useState(range);
  // Under 768 px the form folds behind a button so the figures come first.
  const [isOpen, setIsOpen] = useState(false);
  if (applied !== range) {
    setApplied(range);
    setDraft(range);
  }
  const activeCount = [range.from, range.to].filter(Boolean).length;
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }
  return (
    <div>
      <Button
        variant="outline"
        className="md:hidden"
        aria-expanded={isOpen}
        aria-controls={`${id}-form`}
        onClick={() => setIsOpen((open) => !open)}
      >
        <SlidersHorizontal aria-hidden="true" />
        Filters{activeCount > 0 ? ` (${activeCount})` : ''}
      </Button>
      <form
        id={`${id}-form`}
        onSubmit={handleSubmit}
        aria-label="Filters"
        className={cn(
          'flex-col gap-3 rounded-2xl border border-line bg-surface p-4 md:flex md:flex-row md:flex-wrap md:items-end',
          isOpen ? 'mt-3 flex' : 'hidden',
        )}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-from`} className="text-xs font-medium text-fg-muted">
            Answered from
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={draft.from ?? ''}
            onChange={(event) =>
              setDraft((previous) => ({ ...previous, from: event.target.value || undefined }))
            }
            className={cn(inputClassName, 'md:w-40')}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-to`} className="text-xs font-medium text-fg-muted">
            Answered to
          </label>
          <input
            id={`${id}-to`}
            type="date"
            value={draft.to ?? ''}
            onChange={(event) =>
              setDraft((previous) => ({ ...previous, to: event.target.value || undefined }))
            }
            className={cn(inputClassName, 'md:w-40')}
          />
        </div>
        <div className="flex gap-2">
          <Button type="submit">Apply</Button>
          {range.from || range.to ? (
            <Button type="button" variant="ghost" onClick={() => onApply({})}>
              Clear
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  );
}

function QuestionShare({
  organizationId,
  questionId,
  view,
}: {
  organizationId: string | null | undefined;
  questionId: string;
  view: ReportView;
}) {
  const share = useQuestionShare(organizationId, questionId);
  const change = useChangeQuestionShare(organizationId, questionId);
  const sharing = useCanManage('sharing');
  const settings = share.data;
  const link = settings?.token
    ? `${window.location.origin}${paths.shared.question.href(questionId, view)}?token=${encodeURIComponent(settings.token)}`
    : null;
  const onError = (cause: unknown) =>
    toast.error(isApiError(cause) ? cause.message : 'Sharing could not be changed. Please try again.');
  return (
    <ShareControl
      subject="this question"
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
