import type { AnalyticsInsight, AnalyticsInsightsResponse, InsightStatus } from '@courselens/contracts';
import { Lightbulb, Mail, MailX, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';

import { parseInsightStatus, useAnalyticsInsights } from '../api/get-analytics-insights';
import { useChangeInsightDismissal, useRefreshAnalyticsInsights } from '../api/update-analytics-insight';
import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { InsightCard } from './insight-card';

/** `/analytics/insights`: the findings of the scheduled job, most important first, with dismiss and "Refresh now". */
export function InsightsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [searchParams, setSearchParams] = useSearchParams();
  const status = parseInsightStatus(searchParams.get('status'));
  const insights = useAnalyticsInsights(organizationId, status);
  const refresh = useRefreshAnalyticsInsights(organizationId);

  function handleStatusChange(next: InsightStatus) {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        if (next === 'open') params.delete('status');
        else params.set('status', next);
        return params;
      },
      { replace: true },
    );
  }

  function handleRefresh() {
    refresh.mutate(undefined, {
      onSuccess: (response) => {
        const open = response.counts.open;
        toast.success(
          open === 0 ? 'Insights refreshed: nothing stands out' : `Insights refreshed: ${open} open`,
        );
      },
      onError: (error) => toast.error(error.message),
    });
  }

  return (
    <AnalyticsPage
      section="insights"
      title="Insights"
      description="Findings worth a look, computed from your learners’ data every six hours."
      actions={
        <Button variant="outline" onClick={handleRefresh} isLoading={refresh.isPending}>
          {refresh.isPending ? null : <RefreshCw aria-hidden="true" className="size-4" />}
          Refresh now
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <StatusSwitch value={status} counts={insights.data?.counts} onChange={handleStatusChange} />
          {insights.data ? <ComputedNote response={insights.data} /> : null}
        </div>
        {insights.isPending ? (
          <Card className="flex justify-center py-16 text-fg-muted">
            <Spinner label="Loading the insights" />
          </Card>
        ) : insights.isError ? (
          <Card className="px-6 py-10 text-center" role="alert">
            <p className="font-medium text-fg">The insights could not be loaded.</p>
            <p className="mt-1 text-sm text-fg-muted">{insights.error.message}</p>
            <Button variant="outline" className="mt-4" onClick={() => void insights.refetch()}>
              Try again
            </Button>
          </Card>
        ) : (
          <InsightList response={insights.data} onRefresh={handleRefresh} isRefreshing={refresh.isPending} />
        )}
        {insights.data ? (
          <>
            <DigestNote response={insights.data} />
            <AnalyticsBasisNote basis={insights.data.basis} showCompletion />
          </>
        ) : null}
      </div>
    </AnalyticsPage>
  );
}

type StatusSwitchProps = {
  value: InsightStatus;
  counts: AnalyticsInsightsResponse['counts'] | undefined;
  onChange: (status: InsightStatus) => void;
};

function StatusSwitch({ value, counts, onChange }: StatusSwitchProps) {
  const options: { id: InsightStatus; label: string }[] = [
    { id: 'open', label: 'Open' },
    { id: 'dismissed', label: 'Dismissed' },
  ];
  return (
    <div
      role="group"
      aria-label="Which insights"
      className="inline-flex rounded-lg border border-line-strong bg-surface p-0.5 shadow-xs"
    >
      {options.map((option) => (
        <button
          key={option.id}
          type="button"
          aria-pressed={value === option.id}
          onClick={() => onChange(option.id)}
          className={cn(
            'h-8 rounded-md px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus',
            value === option.id
              ? 'bg-brand-600 text-white dark:bg-brand-500'
              : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
          )}
        >
          {option.label}
          {counts ? (
            <>
              {' '}
              <span className="ml-0.5 tabular-nums opacity-80">{counts[option.id]}</span>
            </>
          ) : null}
        </button>
      ))}
    </div>
  );
}

function ComputedNote({ response }: { response: AnalyticsInsightsResponse }) {
  return (
    <p className="text-xs text-fg-subtle">
      {response.lastComputedAt ? (
        <>
          Last checked{' '}
          <time dateTime={response.lastComputedAt} title={formatDateTime(response.lastComputedAt)}>
            {formatRelative(response.lastComputedAt)}
          </time>
        </>
      ) : (
        'Not checked yet'
      )}
    </p>
  );
}

type InsightListProps = {
  response: AnalyticsInsightsResponse;
  onRefresh: () => void;
  isRefreshing: boolean;
};

function InsightList({ response, onRefresh, isRefreshing }: InsightListProps) {
  const organizationId = useSession().currentOrganization?.id;
  const change = useChangeInsightDismissal(organizationId);
  const [busyId, setBusyId] = useState<string | null>(null);

  function handleToggle(insight: AnalyticsInsight) {
    const dismiss = insight.dismissedAt === null;
    setBusyId(insight.id);
    change.mutate(
      { insightId: insight.id, dismiss },
      {
        onSuccess: () =>
          toast.success(
            dismiss ? 'Insight dismissed: it comes back if its figures change a lot' : 'Insight restored',
          ),
        onError: (error) => toast.error(error.message),
        onSettled: () => setBusyId(null),
      },
    );
  }

  if (response.insights.length === 0) {
    return (
      <Card className="px-6 py-10">
        {response.status === 'dismissed' ? (
          <EmptyState icon={<Lightbulb />} title="No dismissed insights">
            Insights you dismiss are listed here, so you can bring one back.
          </EmptyState>
        ) : (
          <EmptyState
            icon={<Lightbulb />}
            title={response.lastComputedAt ? 'Nothing stands out right now' : 'No insights yet'}
            action={
              <Button variant="outline" onClick={onRefresh} isLoading={isRefreshing}>
                Check now
              </Button>
            }
          >
            {response.lastComputedAt
              ? 'No suspicious answer keys, unusually hard questions, drop-off slides, significant rate changes or rising inactivity. The next check runs within six hours.'
              : 'Insights appear once learners have taken courses: suspicious answer keys, unusually hard questions, the slides where learners drop off, significant changes in pass and completion rates, and rising inactivity.'}
          </EmptyState>
        )}
      </Card>
    );
  }
  return (
    <ul
      aria-label={response.status === 'open' ? 'Open insights' : 'Dismissed insights'}
      className="flex flex-col gap-3"
    >
      {response.insights.map((insight) => (
        <li key={insight.id}>
          <InsightCard
            insight={insight}
            headingLevel="h2"
            onToggleDismissed={handleToggle}
            isBusy={busyId === insight.id}
          />
        </li>
      ))}
    </ul>
  );
}

function DigestNote({ response }: { response: AnalyticsInsightsResponse }) {
  const { digest } = response;
  return (
    <p className="flex items-start gap-2 text-xs text-fg-muted" data-testid="insights-digest">
      {digest.isEmailConfigured ? (
        <>
          <Mail aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          <span>Owners get the top insights by e-mail every week ({digest.schedule}).</span>
        </>
      ) : (
        <>
          <MailX aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          <span>
            No weekly digest is sent: e-mail is not set up on this server (SMTP_URL). Insights are still
            listed here.
          </span>
        </>
      )}
    </p>
  );
}
