import type { ReactNode } from 'react';

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

export { AnalyticsBasisNote } from '@/components/analytics-basis-note';
