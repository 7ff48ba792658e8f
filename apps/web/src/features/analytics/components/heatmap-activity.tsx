import { WEEKDAY_LABELS, type HeatmapActivityResponse } from '@courselens/contracts';
import { useId, useMemo } from 'react';

import { HeatGrid, type HeatGridCell, type HeatGridRow } from '@/components/charts';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

export type ActivityMetric = 'events' | 'learners';
export type ActivityScope = 'course' | 'organization';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const full = new Intl.NumberFormat('en-US');

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * The legend of a count scale: the five steps' ranges of 0..max ("1–20",
 * …), so a colour reads as a number. Counts of 0 stay blank.
 */
export function countLegend(max: number) {
  if (max <= 0) return [{ label: '0', intensity: 0 }];
  const bounds = [0, 1, 2, 3, 4, 5].map((step) => Math.round((max * step) / 5));
  return [0, 1, 2, 3, 4].map((step) => {
    const low = Math.max(1, (bounds[step] ?? 0) + (step === 0 ? 0 : 1));
    const high = Math.max(low, bounds[step + 1] ?? max);
    return {
      label: low === high ? full.format(low) : `${full.format(low)}–${full.format(high)}`,
      intensity: step / 5 + 0.1,
    };
  });
}

export type HeatmapActivityProps = {
  data: HeatmapActivityResponse;
  metric: ActivityMetric;
  onMetricChange: (metric: ActivityMetric) => void;
  scope: ActivityScope;
  onScopeChange: (scope: ActivityScope) => void;
  hasCourse: boolean;
};

/** Activity by weekday × hour in the organization's time zone: events or distinct learners per slot. */
export function HeatmapActivity({
  data,
  metric,
  onMetricChange,
  scope,
  onScopeChange,
  hasCourse,
}: HeatmapActivityProps) {
  const metricId = useId();
  const scopeId = useId();
  const { rows, columns, max, table } = useMemo(() => {
    const values = new Map(data.cells.map((cell) => [`${cell.weekday}:${cell.hour}`, cell]));
    const max = Math.max(0, ...data.cells.map((cell) => cell[metric]));
    const columns = Array.from({ length: 24 }, (_, hour) => ({
      key: String(hour),
      label: String(hour).padStart(2, '0'),
      title: `${hourLabel(hour)}–${String(hour).padStart(2, '0')}:59`,
    }));
    const rows: HeatGridRow[] = WEEKDAY_LABELS.map((day, index) => ({
      key: day,
      label: (
        <>
          <span aria-hidden="true">{day.slice(0, 3)}</span>
          <span className="sr-only">{day}</span>
        </>
      ),
      title: day,
      cells: columns.map((_, hour): HeatGridCell => {
        const cell = values.get(`${index + 1}:${hour}`);
        const value = cell?.[metric] ?? 0;
        return {
          intensity: value === 0 || max === 0 ? null : value / max,
          text: value === 0 ? '' : compact.format(value),
          label: `${day} ${hourLabel(hour)}: ${full.format(cell?.events ?? 0)} events, ${full.format(cell?.learners ?? 0)} learners`,
        };
      }),
    }));
    const table = {
      columns: ['Weekday', 'Hour', 'Events', 'Learners'],
      rows: data.cells.map((cell) => [
        WEEKDAY_LABELS[cell.weekday - 1] ?? String(cell.weekday),
        hourLabel(cell.hour),
        cell.events,
        cell.learners,
      ]),
    };
    return { rows, columns, max, table };
  }, [data, metric]);

  const controls = (
    <div className="flex flex-wrap items-center gap-2">
      {hasCourse ? (
        <div className="flex items-center gap-1.5">
          <label htmlFor={scopeId} className="text-xs font-medium text-fg-muted">
            Of
          </label>
          <select
            id={scopeId}
            value={scope}
            onChange={(event) => onScopeChange(event.target.value as ActivityScope)}
            className={cn(inputClassName, 'h-8 w-auto py-0 text-xs')}
          >
            <option value="course">This course</option>
            <option value="organization">All courses</option>
          </select>
        </div>
      ) : null}
      <div className="flex items-center gap-1.5">
        <label htmlFor={metricId} className="text-xs font-medium text-fg-muted">
          Count
        </label>
        <select
          id={metricId}
          value={metric}
          onChange={(event) => onMetricChange(event.target.value as ActivityMetric)}
          className={cn(inputClassName, 'h-8 w-auto py-0 text-xs')}
        >
          <option value="events">Events</option>
          <option value="learners">Learners</option>
        </select>
      </div>
    </div>
  );

  const where = data.course ? data.course.title : 'all courses';
  return (
    <HeatGrid
      title="Activity by weekday and hour"
      description={
        <>
          {metric === 'events' ? 'Learning events' : 'Distinct learners'} of {where} per hour, in{' '}
          {data.basis.timeZone.replaceAll('_', ' ')} time. In the period: {full.format(data.totals.events)}{' '}
          events from {full.format(data.totals.learners)} learners.
        </>
      }
      headingLevel="h2"
      rowHeader="Day"
      columns={columns}
      rows={data.totals.events === 0 ? [] : rows}
      scale="sequential"
      legend={countLegend(max)}
      table={table}
      actions={controls}
      cellClassName="min-w-8"
      emptyText="No learning activity in this period."
    />
  );
}
