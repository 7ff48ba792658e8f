import type { DashboardResponse } from '@courselens/contracts';
import { Activity, BookOpen, CircleCheck, PlayCircle, UserCheck, Users, type LucideIcon } from 'lucide-react';

import { Card } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';

type Stat = { id: string; label: string; value: number; note: string; icon: LucideIcon };

function stats(dashboard: DashboardResponse): Stat[] {
  const { totals, inPeriod, period } = dashboard;
  const inDays = `in the last ${period.days} days`;
  return [
    {
      id: 'learners',
      label: 'Learners',
      value: totals.learners,
      note: `${formatNumber(inPeriod.newLearners)} new ${inDays}`,
      icon: Users,
    },
    {
      id: 'courses',
      label: 'Courses',
      value: totals.courses,
      note: 'Live courses',
      icon: BookOpen,
    },
    {
      id: 'course-runs',
      label: 'Course runs',
      value: totals.courseRuns,
      note: `${formatNumber(inPeriod.courseRuns)} ${inDays}`,
      icon: PlayCircle,
    },
    {
      id: 'responses',
      label: 'Responses',
      value: totals.responses,
      note: `${formatNumber(inPeriod.responses)} ${inDays}`,
      icon: CircleCheck,
    },
    {
      id: 'active-7',
      label: 'Active learners, 7 days',
      value: totals.activeLearners7d,
      note: 'Any activity in the last 7 days',
      icon: Activity,
    },
    {
      id: 'active-30',
      label: 'Active learners, 30 days',
      value: totals.activeLearners30d,
      note: 'Any activity in the last 30 days',
      icon: UserCheck,
    },
  ];
}

export type StatCardsProps = { dashboard: DashboardResponse };

/** The organization's headline figures: totals, with what happened in the period underneath. */
export function StatCards({ dashboard }: StatCardsProps) {
  return (
    <ul aria-label="Key figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-6">
      {stats(dashboard).map((stat) => (
        <li key={stat.id} className="min-w-0">
          <Card className="flex h-full flex-col gap-1 p-4" data-testid={`stat-${stat.id}`}>
            <div className="flex items-start justify-between gap-2">
              <h2 className="text-xs font-medium text-fg-muted sm:text-sm">{stat.label}</h2>
              <stat.icon aria-hidden="true" className="size-4 shrink-0 text-brand-600 dark:text-brand-300" />
            </div>
            <p className="text-2xl font-bold tracking-tight text-fg tabular-nums">
              {formatNumber(stat.value)}
            </p>
            <p className="text-xs text-fg-subtle">{stat.note}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
