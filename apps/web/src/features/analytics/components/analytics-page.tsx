import type { AnalyticsBasis } from '@courselens/contracts';
import { Settings2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { ReportTabs } from '@/components/report-tabs';
import { paths } from '@/config/paths';

export type AnalyticsSection =
  'overview' | 'funnels' | 'heatmaps' | 'questions' | 'learningPaths' | 'insights' | 'settings';

const sections: readonly { id: AnalyticsSection; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'funnels', label: 'Funnels' },
  { id: 'heatmaps', label: 'Heatmaps' },
  { id: 'questions', label: 'Questions' },
  { id: 'learningPaths', label: 'Learning paths' },
  { id: 'insights', label: 'Insights' },
  { id: 'settings', label: 'Settings' },
];

const tabs = sections.map((section) => ({
  id: section.id,
  label: section.label,
  href: paths.analytics[section.id].href(),
}));

export type AnalyticsPageProps = {
  section: AnalyticsSection;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
};

/** The frame of every analytics screen: its title, the sections as tabs, and the screen. */
export function AnalyticsPage({ section, title, description, actions, children }: AnalyticsPageProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${title} · Analytics · CourseLens`}</title>
      <PageHeader title={title} description={description} actions={actions} />
      <div className="mt-6">
        <ReportTabs tabs={tabs} current={section} label="Analytics sections" />
      </div>
      <div className="mt-6">{children}</div>
    </div>
  );
}

const completionWords: Record<AnalyticsBasis['completion'], string> = {
  completed: 'completion as the course reports it',
  passed: 'completion means passing',
  last_slide: 'completion means reaching the last slide',
};

/**
 * How the figures on a screen were counted, from the analytics settings:
 * the time zone, what completes a course and the test accounts left out,
 * with a link to change them.
 */
export function AnalyticsBasisNote({
  basis,
  showCompletion = false,
}: {
  basis: AnalyticsBasis;
  showCompletion?: boolean;
}) {
  const parts = [`Times in ${basis.timeZone.replaceAll('_', ' ')}`];
  if (showCompletion) parts.push(completionWords[basis.completion]);
  if (basis.excludedLearners > 0) {
    parts.push(
      `${basis.excludedLearners.toLocaleString('en-US')} test ${basis.excludedLearners === 1 ? 'account' : 'accounts'} left out`,
    );
  }
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-subtle"
      data-testid="analytics-basis"
    >
      <span>{parts.join(' · ')}</span>
      <Link
        to={paths.analytics.settings.href()}
        className="inline-flex items-center gap-1 rounded font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-focus dark:text-brand-300"
      >
        <Settings2 aria-hidden="true" className="size-3.5" />
        Analytics settings
      </Link>
    </p>
  );
}
