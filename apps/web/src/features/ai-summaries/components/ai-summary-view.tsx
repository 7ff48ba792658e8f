import { AI_SUMMARY_MESSAGES, type VariableAiSummary } from '@courselens/contracts';
import { AlertTriangle, ChevronRight, FileQuestion, RefreshCw, Sparkles } from 'lucide-react';
import { Link } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { Button, buttonClassName } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';

import { useAiSummary, type AiSummarySource } from '../api/get-ai-summary';
import { useRegenerateAiSummary } from '../api/regenerate-ai-summary';

import { StatisticsPanel } from './statistics-panel';
import { SummaryNarrative } from './summary-narrative';

export type AiSummaryViewProps = {
  source: AiSummarySource;
};

const REPORT_VIEWS = [
  { view: 'report', label: 'Report' },
  { view: 'chart', label: 'Chart' },
  { view: 'leaders', label: 'Leaders' },
] as const;

/** "Written by the built-in engine" or "Written by <model>". */
export function engineLabel(summary: Pick<VariableAiSummary, 'engine' | 'model'>): string {
  return summary.engine === 'llm' && summary.model
    ? `Written by ${summary.model}`
    : 'Written by the built-in engine';
}

function errorMessage(error: unknown): string {
  return isApiError(error) ? error.message : 'Something went wrong. Try again.';
}

/** A variable's AI summary: the narrative, the figures it was written from, and a way to write it again. */
export function AiSummaryView({ source }: AiSummaryViewProps) {
  const organizationId = useSession().currentOrganization?.id;
  const summary = useAiSummary(organizationId, source);
  const regenerate = useRegenerateAiSummary(organizationId, source);

  const handleRegenerate = () => {
    regenerate.mutate(undefined, {
      onSuccess: (next) =>
        toast.success(next.notice ? 'Summary rewritten by the built-in engine' : 'Summary regenerated'),
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  if (summary.isError) {
    const { error } = summary;
    if (isApiError(error) && (error.status === 404 || error.status === 400)) {
      return (
        <PageMessage
          icon={<FileQuestion aria-hidden="true" />}
          eyebrow={String(error.status)}
          title={source.kind === 'chatbot-variable' ? 'Agent variable not found' : 'Variable not found'}
          actions={
            <Link to={paths.variables.list.href()} className={buttonClassName({ variant: 'outline' })}>
              Back to variables
            </Link>
          }
        >
          {error.message}
        </PageMessage>
      );
    }
    return (
      <PageMessage
        icon={<AlertTriangle aria-hidden="true" />}
        title="The summary could not be loaded"
        actions={
          <Button variant="outline" onClick={() => void summary.refetch()}>
            Try again
          </Button>
        }
      >
        {errorMessage(error)}
      </PageMessage>
    );
  }

  const data = summary.data;
  const subject = data?.statistics.subject;
  const heading = subject ? (subject.variableTitle ?? subject.variableName) : null;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${heading ? `${heading} · ` : ''}AI summary · CourseLens`}</title>
      <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1 text-sm text-fg-muted">
        <Link
          to={paths.variables.list.href()}
          className="shrink-0 rounded hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
        >
          Variables
        </Link>
        {subject?.courseId ? (
          <>
            <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
            <Link
              to={paths.courses.variables.href(subject.courseId)}
              className="min-w-0 truncate rounded hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
            >
              {subject.courseTitle}
            </Link>
          </>
        ) : null}
        <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
        <span aria-current="page" className="shrink-0 text-fg">
          AI summary
        </span>
      </nav>

      <div className="mt-5 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 text-sm font-semibold text-accent">
            <Sparkles aria-hidden="true" className="size-4" />
            AI summary
          </p>
          {/* The heading comes with the data, so "the page has its h1" means it is ready. */}
          {heading ? (
            <h1 className="mt-1 text-2xl font-bold tracking-tight text-balance break-words text-fg sm:text-3xl">
              {heading}
            </h1>
          ) : (
            <div
              aria-hidden="true"
              className="mt-2 h-8 w-56 max-w-full animate-pulse rounded-lg bg-surface-muted"
            />
          )}
          {subject ? (
            <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted">
              <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs break-all">
                {subject.variableName}
              </code>
              {subject.courseTitle ? <span>in {subject.courseTitle}</span> : null}
              <span aria-hidden="true">·</span>
              <span>{subject.dataType}</span>
            </p>
          ) : null}
        </div>
        <Button
          variant="outline"
          onClick={handleRegenerate}
          isLoading={regenerate.isPending}
          disabled={!data}
          className="shrink-0 self-start sm:self-auto"
        >
          {regenerate.isPending ? null : <RefreshCw aria-hidden="true" className="size-4" />}
          {regenerate.isPending ? 'Regenerating…' : 'Regenerate'}
        </Button>
      </div>

      {subject?.courseId ? (
        <nav aria-label="Variable reports" className="mt-4 flex flex-wrap gap-2">
          {REPORT_VIEWS.map(({ view, label }) => (
            <Link
              key={view}
              to={paths.variables.courseReport.href(subject.courseId ?? '', subject.variableName, view)}
              className={buttonClassName({ variant: 'ghost', size: 'sm' })}
            >
              {label}
            </Link>
          ))}
        </nav>
      ) : null}

      {!data ? (
        <Card className="mt-6">
          <CardContent className="flex items-center justify-center gap-3 py-16 text-fg-muted">
            <Spinner label={null} />
            <span role="status">Reading the data and writing the summary…</span>
          </CardContent>
        </Card>
      ) : (
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
          <Card className="min-w-0 lg:col-span-2">
            <CardContent className="flex flex-col gap-5">
              <p
                className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted"
                data-testid="summary-engine"
              >
                <span className="inline-flex items-center gap-1.5 font-medium text-fg">
                  <Sparkles aria-hidden="true" className="size-4 shrink-0 text-accent" />
                  {engineLabel(data)}
                </span>
                <span aria-hidden="true">·</span>
                <time dateTime={data.generatedAt} title={formatDateTime(data.generatedAt)}>
                  {formatRelative(data.generatedAt)}
                </time>
              </p>
              {data.notice ? (
                <p
                  role="note"
                  className="rounded-xl border border-amber-300/60 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100"
                >
                  {data.notice}
                </p>
              ) : null}
              {data.hasNewerData ? (
                <p
                  role="note"
                  className="rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900 dark:border-brand-300/25 dark:bg-brand-400/10 dark:text-brand-100"
                >
                  New values arrived since this summary was written. Regenerate to include them.
                </p>
              ) : null}
              <section
                aria-label="Summary"
                aria-busy={regenerate.isPending}
                className={cn('transition-opacity', regenerate.isPending && 'opacity-50')}
              >
                <SummaryNarrative content={data.content} />
              </section>
            </CardContent>
          </Card>
          <StatisticsPanel statistics={data.statistics} />
        </div>
      )}
    </div>
  );
}

/** `/variable/:variableId/:variableType/ai-summary` with a type that is neither course nor chatbot. */
export function UnknownVariableTypeMessage() {
  return (
    <PageMessage
      icon={<FileQuestion aria-hidden="true" />}
      eyebrow="404"
      title="Variable not found"
      actions={
        <Link to={paths.variables.list.href()} className={buttonClassName({ variant: 'outline' })}>
          Back to variables
        </Link>
      }
    >
      {AI_SUMMARY_MESSAGES.unknownVariableType}
    </PageMessage>
  );
}
