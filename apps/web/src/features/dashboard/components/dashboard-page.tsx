import { DASHBOARD_PERIODS, DEFAULT_DASHBOARD_PERIOD, type DashboardPeriod } from '@courselens/contracts';
import { useSearchParams } from 'react-router';

import { AnalyticsBasisNote } from '@/components/analytics-basis-note';
import { PageHeader } from '@/components/page-header';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';

import { useDashboard } from '../api/get-dashboard';

import { GettingStarted } from './getting-started';
import { HardestQuestionsCard } from './hardest-questions-card';
import { parsePeriod } from './parse-period';
import { RecentActivityCard } from './recent-activity-card';
import { RunsChartCard } from './runs-chart-card';
import { StatCards } from './stat-cards';
import { TopCoursesCard } from './top-courses-card';

type PeriodSwitchProps = { value: DashboardPeriod; onChange: (days: DashboardPeriod) => void };

function PeriodSwitch({ value, onChange }: PeriodSwitchProps) {
  return (
    <div
      role="group"
      aria-label="Period"
      className="inline-flex rounded-lg border border-line-strong bg-surface p-0.5 shadow-xs"
    >
      {DASHBOARD_PERIODS.map((days) => (
        <button
          key={days}
          type="button"
          aria-pressed={value === days}
          onClick={() => onChange(days)}
          className={cn(
            'h-8 rounded-md px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus',
            value === days
              ? 'bg-brand-600 text-white dark:bg-brand-500'
              : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
          )}
        >
          {days} days
        </button>
      ))}
    </div>
  );
}

/** `/dashboard`: the organization's figures for a period kept in the URL, or how to get started. */
export function DashboardPage() {
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const organizationName = session.currentOrganization?.name;
  const [searchParams, setSearchParams] = useSearchParams();
  const days = parsePeriod(searchParams.get('days'));
  const dashboard = useDashboard(organizationId, days);
  const data = dashboard.data;

  function handlePeriodChange(next: DashboardPeriod) {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        if (next === DEFAULT_DASHBOARD_PERIOD) params.delete('days');
        else params.set('days', String(next));
        return params;
      },
      { replace: true },
    );
  }

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Dashboard · CourseLens</title>
      <PageHeader
        title="Dashboard"
        description={
          organizationName ? `What is happening in ${organizationName}.` : 'Welcome to CourseLens.'
        }
        actions={data && !data.isEmpty ? <PeriodSwitch value={days} onChange={handlePeriodChange} /> : null}
      />
      <div className="mt-6">
        {dashboard.isPending ? (
          <Card className="flex justify-center py-16 text-fg-muted">
            <Spinner label="Loading the dashboard" />
          </Card>
        ) : dashboard.isError ? (
          <Card className="p-6">
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {dashboard.error.message}
            </p>
          </Card>
        ) : data?.isEmpty ? (
          <GettingStarted
            origin={window.location.origin}
            onCheckAgain={() => void dashboard.refetch()}
            isChecking={dashboard.isFetching}
          />
        ) : data ? (
          <div
            className={cn(
              'flex flex-col gap-4 transition-opacity sm:gap-6',
              dashboard.isPlaceholderData && 'opacity-60',
            )}
            aria-busy={dashboard.isFetching}
          >
            {data.pendingFacts > 0 ? (
              <p
                role="status"
                className="flex items-center gap-2 rounded-lg border border-line bg-surface-muted px-3 py-2 text-sm text-fg-muted"
              >
                <Spinner size="sm" label={null} />
                Processing {data.pendingFacts.toLocaleString('en-US')} new{' '}
                {data.pendingFacts === 1 ? 'record' : 'records'}: these figures update in a few seconds.
              </p>
            ) : null}
            <StatCards dashboard={data} />
            <AnalyticsBasisNote basis={data.basis} />
            <div className="grid gap-4 sm:gap-6 lg:grid-cols-3">
              <div className="min-w-0 lg:col-span-2">
                <RunsChartCard dashboard={data} />
              </div>
              <TopCoursesCard dashboard={data} />
            </div>
            <div className="grid gap-4 sm:gap-6 lg:grid-cols-2">
              <HardestQuestionsCard dashboard={data} />
              <RecentActivityCard dashboard={data} />
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
