import type { DashboardResponse } from '@courselens/contracts';

import { BarChart } from '@/components/ui/bar-chart';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

export type RunsChartCardProps = { dashboard: DashboardResponse };

/** Course runs per day of the period (days in UTC, as the server counts them). */
export function RunsChartCard({ dashboard }: RunsChartCardProps) {
  // Today's runs are still coming in: its bar is marked as a part of a day, not read as a drop.
  const today = new Date().toISOString().slice(0, 10);
  const data = dashboard.runsOverTime.map((entry) => {
    const date = new Date(`${entry.date}T00:00:00Z`);
    return {
      key: entry.date,
      label: shortDay.format(date),
      fullLabel: longDay.format(date),
      value: entry.runs,
      isPartial: entry.date === today,
    };
  });
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Course runs over time</CardTitle>
        <CardDescription>
          {formatNumber(dashboard.inPeriod.courseRuns)} runs started in the last {dashboard.period.days} days
          (per day, UTC)
        </CardDescription>
      </CardHeader>
      <CardContent>
        <BarChart
          title="Course runs per day"
          data={data}
          valueLabel="runs"
          valueAxisTitle="Course runs"
          categoryLabel="Day (UTC)"
        />
      </CardContent>
    </Card>
  );
}
