import {
  BREAKDOWN_LABELS,
  MAX_QUERY_ROWS,
  MEASURE_LABELS,
  REPORT_CHART_LABELS,
  REPORT_CHARTS,
  TIME_BREAKDOWNS,
  defaultMeasure,
  resolveChart,
  type BreakdownKind,
  type MeasureFn,
  type ReportCatalog,
  type ReportChart,
  type ReportQuery,
  type ReportSort,
  type ResolvedChart,
} from '@courselens/contracts';
import { ChevronDown, SlidersHorizontal } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { Combobox } from '@/components/ui/combobox';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import { FiltersEditor, filterCount, filterSummary } from './filters-editor';
import {
  breakdownsFor,
  effectiveMeasure,
  measuresFor,
  subjectDataType,
  variableNames,
  withSubject,
  type ReportFormItem,
} from './report-form';
import { pickerGrow, pickerSelectClassName, SubjectPicker } from './subject-picker';

type SortChoice = 'auto' | 'measure-desc' | 'measure-asc' | 'label-asc' | 'label-desc';

function sortChoice(sort: ReportSort | null): SortChoice {
  return sort ? (`${sort.by}-${sort.order}` as SortChoice) : 'auto';
}

/** Sort options in the measure's words; questions by correct rate read "hardest first". */
function sortLabels(fn: MeasureFn, breakdown: BreakdownKind): Record<SortChoice, string> {
  const isDifficulty = fn === 'correct_rate' && breakdown === 'question';
  const measure = MEASURE_LABELS[fn].toLowerCase();
  return {
    auto: isDifficulty ? 'Automatic (easiest first)' : `Automatic (highest ${measure} first)`,
    'measure-desc': isDifficulty ? 'Easiest first' : `Highest ${measure} first`,
    'measure-asc': isDifficulty ? 'Hardest first' : `Lowest ${measure} first`,
    'label-asc': 'Name, A to Z',
    'label-desc': 'Name, Z to A',
  };
}

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
}

function shownNumber(value: number | null): string | number {
  return value === null || Number.isNaN(value) ? '' : value;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5 sm:grid sm:grid-cols-[4.5rem_minmax(0,1fr)] sm:items-start sm:gap-3">
      <span className="text-xs font-semibold tracking-wide text-fg-subtle uppercase sm:pt-3">{label}</span>
      <div className="flex min-w-0 flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}

export type QueryItemEditorProps = {
  item: ReportFormItem;
  catalog: ReportCatalog | undefined;
  /** The chart the preview drew the item with, when it has one. */
  previewChart: ResolvedChart | null;
  /** Groups the preview found, to tell which chart Automatic picks. */
  previewGroups: number | null;
  invalid: boolean;
  onChange: (item: ReportFormItem) => void;
};

/**
 * One item as a sentence of pickers: what it reads, what it shows and by
 * what, in which order and how many, how it is drawn, which data it keeps.
 * Each picker offers only what the subject can do.
 */
export function QueryItemEditor({
  item,
  catalog,
  previewChart,
  previewGroups,
  invalid,
  onChange,
}: QueryItemEditorProps) {
  const filtersId = useId();
  const [showFilters, setShowFilters] = useState(() => filterCount(item.query.filters) > 0);
  const { query } = item;
  const kind = query.subject.kind;
  const dataType = subjectDataType(query.subject, catalog);
  const measures = measuresFor(kind, dataType);
  const measure = effectiveMeasure(query, dataType);
  const automaticMeasure = defaultMeasure(kind, dataType);
  const breakdowns = breakdownsFor(kind);
  const isTime = TIME_BREAKDOWNS.includes(query.breakdown.kind);
  const hasBreakdown = query.breakdown.kind !== 'none';
  const names = variableNames(catalog);
  const groups = previewGroups ?? 0;
  const resolved = previewChart ?? resolveChart(item.chart, { ...query, measure }, groups);
  const automatic =
    item.chart === 'auto' && previewChart
      ? previewChart
      : resolveChart('auto', { ...query, measure }, groups);
  const sorts = sortLabels(measure.fn, query.breakdown.kind);
  const activeFilters = filterCount(query.filters);
  const summary = filterSummary(query.filters, catalog);

  function setQuery(next: Partial<ReportQuery>) {
    onChange({ ...item, query: { ...query, ...next } });
  }

  function setChart(chart: ReportChart) {
    onChange({ ...item, chart });
  }

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <Row label="Reads">
        <SubjectPicker
          subject={query.subject}
          catalog={catalog}
          invalid={invalid}
          onChange={(subject) => onChange({ ...item, query: withSubject(query, subject, catalog) })}
        />
      </Row>

      <Row label="Shows">
        <select
          aria-label="Measure"
          className={cn(pickerSelectClassName, 'flex-[1_1_8rem]')}
          value={query.measure?.fn ?? ''}
          onChange={(event) => {
            const fn = event.target.value as MeasureFn | '';
            setQuery({
              measure: fn ? { fn, mark: fn === 'pass_rate' ? (query.measure?.mark ?? null) : null } : null,
            });
          }}
        >
          <option value="">Automatic ({MEASURE_LABELS[automaticMeasure.fn].toLowerCase()})</option>
          {measures.map((fn) => (
            <option key={fn} value={fn}>
              {MEASURE_LABELS[fn]}
            </option>
          ))}
        </select>
        {query.measure?.fn === 'pass_rate' && dataType === 'number' ? (
          <label className="flex min-w-0 items-center gap-2 text-sm text-fg-muted">
            at or above
            <input
              type="number"
              step="any"
              aria-label="Pass mark"
              placeholder="Mark"
              className={cn(inputClassName, 'w-24')}
              aria-invalid={
                query.measure.mark === null || Number.isNaN(query.measure.mark) ? true : undefined
              }
              value={shownNumber(query.measure.mark)}
              onChange={(event) =>
                setQuery({ measure: { fn: 'pass_rate', mark: numberOrNull(event.target.value) } })
              }
            />
          </label>
        ) : null}
        {measure.fn === 'pass_rate' && dataType === 'boolean' ? (
          <span className="text-xs text-fg-muted">true passes</span>
        ) : null}
        <span className="text-sm text-fg-muted">by</span>
        <select
          aria-label="Breakdown"
          className={cn(pickerSelectClassName, 'flex-none')}
          value={query.breakdown.kind}
          onChange={(event) => {
            const next = event.target.value as BreakdownKind;
            setQuery({
              breakdown: {
                kind: next,
                variableName: next === 'variable' ? (query.breakdown.variableName ?? null) : null,
              },
              // Time reads in time order; a sort chosen for groups would not apply.
              sort: TIME_BREAKDOWNS.includes(next) ? null : query.sort,
            });
          }}
        >
          {breakdowns.map((breakdown) => (
            <option key={breakdown} value={breakdown}>
              {BREAKDOWN_LABELS[breakdown]}
            </option>
          ))}
        </select>
        {query.breakdown.kind === 'variable' ? (
          <Combobox
            label="Variable to break down by"
            value={query.breakdown.variableName}
            options={names.map((name) => ({ value: name, label: name }))}
            placeholder="Search variables…"
            emptyText="No variable matches"
            invalid={invalid && query.breakdown.variableName === null}
            onChange={(variableName) => setQuery({ breakdown: { kind: 'variable', variableName } })}
            className={pickerGrow.narrow}
          />
        ) : null}
      </Row>

      {hasBreakdown ? (
        <Row label="Order">
          {isTime ? (
            <span className="py-2 text-sm text-fg-muted">In time order</span>
          ) : (
            <select
              aria-label="Sort"
              className={cn(pickerSelectClassName, pickerGrow.wide)}
              value={sortChoice(query.sort)}
              onChange={(event) => {
                const choice = event.target.value as SortChoice;
                if (choice === 'auto') return setQuery({ sort: null });
                const [by, order] = choice.split('-') as [ReportSort['by'], ReportSort['order']];
                setQuery({ sort: { by, order } });
              }}
            >
              {(Object.keys(sorts) as SortChoice[]).map((choice) => (
                <option key={choice} value={choice}>
                  {sorts[choice]}
                </option>
              ))}
            </select>
          )}
          <label className="flex min-w-0 items-center gap-2 text-sm text-fg-muted">
            top
            <input
              type="number"
              min={1}
              max={MAX_QUERY_ROWS}
              aria-label="Top N"
              placeholder="All"
              className={cn(inputClassName, 'w-20')}
              value={shownNumber(query.limit)}
              onChange={(event) => setQuery({ limit: numberOrNull(event.target.value) })}
            />
          </label>
        </Row>
      ) : null}

      <Row label="Chart">
        <select
          aria-label="Chart"
          className={cn(pickerSelectClassName, pickerGrow.narrow, 'sm:flex-none')}
          value={item.chart}
          onChange={(event) => setChart(event.target.value as ReportChart)}
        >
          {REPORT_CHARTS.map((chart) => (
            <option key={chart} value={chart}>
              {chart === 'auto'
                ? `Automatic (${REPORT_CHART_LABELS[automatic].toLowerCase()})`
                : REPORT_CHART_LABELS[chart]}
            </option>
          ))}
        </select>
        {item.chart !== 'auto' && item.chart !== resolved ? (
          <p className="basis-full text-xs text-amber-700 dark:text-amber-300" data-testid="chart-fallback">
            A {REPORT_CHART_LABELS[item.chart].toLowerCase()} cannot show this
            {item.chart === 'pie' ? ' (a pie shows parts of a count)' : ''}: it shows as a{' '}
            {REPORT_CHART_LABELS[resolved].toLowerCase()}.
          </p>
        ) : null}
      </Row>

      <Row label="Filters">
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <button
            type="button"
            aria-expanded={showFilters}
            aria-controls={filtersId}
            aria-label={`Filters: ${activeFilters === 0 ? 'No filters' : summary.join(', ')}`}
            onClick={() => setShowFilters((value) => !value)}
            className="flex min-h-10 w-fit max-w-full items-center gap-2 rounded-lg border border-line-strong bg-surface px-3 py-1.5 text-left text-sm text-fg hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-focus"
          >
            <SlidersHorizontal aria-hidden="true" className="size-4 shrink-0 text-fg-muted" />
            <span className="min-w-0">{activeFilters === 0 ? 'No filters' : summary.join(' · ')}</span>
            <ChevronDown
              aria-hidden="true"
              className={cn(
                'size-4 shrink-0 text-fg-muted transition-transform',
                showFilters && 'rotate-180',
              )}
            />
          </button>
          <div id={filtersId} hidden={!showFilters}>
            {showFilters ? (
              <FiltersEditor
                filters={query.filters}
                subject={query.subject}
                catalog={catalog}
                onChange={(filters) => setQuery({ filters })}
              />
            ) : null}
          </div>
        </div>
      </Row>
    </div>
  );
}
