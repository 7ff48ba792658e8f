import {
  ACTIVITY_EVENTS,
  PERIOD_UNITS,
  VALUE_OPERATOR_LABELS,
  VALUE_OPERATORS,
  VARIABLE_SUBJECTS,
  type ActivityCondition,
  type ActivityEvent,
  type ReportCatalog,
  type ReportFilters,
  type ReportPeriod,
  type ReportSubject,
  type ValueCondition,
  type ValueOperator,
} from '@courselens/contracts';
import { Plus, X } from 'lucide-react';
import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import { periodLabel, subjectDataType, variableNames } from './report-form';
import { CourseMultiPicker, pickerSelectClassName } from './subject-picker';

const PERIOD_PRESETS: { value: string; period: ReportPeriod }[] = [
  { value: 'all', period: null },
  { value: 'last_days:7', period: { kind: 'last_days', days: 7 } },
  { value: 'last_days:30', period: { kind: 'last_days', days: 30 } },
  { value: 'last_days:90', period: { kind: 'last_days', days: 90 } },
  ...PERIOD_UNITS.flatMap((unit) => [
    { value: `this:${unit}`, period: { kind: 'this' as const, unit } },
    { value: `last:${unit}`, period: { kind: 'last' as const, unit } },
  ]),
];

const ACTIVITY_WORDS: Record<ActivityEvent, string> = {
  started: 'start',
  completed: 'complete',
  passed: 'pass',
  failed: 'fail',
};

function periodValue(period: ReportPeriod): string {
  if (!period) return 'all';
  if (period.kind === 'between') return 'between';
  if (period.kind === 'last_days') {
    return [7, 30, 90].includes(period.days) ? `last_days:${period.days}` : 'last_days:custom';
  }
  return `${period.kind}:${period.unit}`;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** How many filters are on, for the toggle's badge. */
export function filterCount(filters: ReportFilters): number {
  return (
    (filters.courseIds.length > 0 ? 1 : 0) +
    (filters.period ? 1 : 0) +
    filters.values.length +
    filters.activity.length
  );
}

/** The filters in a few words, shown while the panel is closed. */
export function filterSummary(filters: ReportFilters, catalog: ReportCatalog | undefined): string[] {
  const parts: string[] = [];
  if (filters.period) parts.push(periodLabel(filters.period));
  if (filters.courseIds.length > 0) {
    parts.push(
      filters.courseIds
        .map((id) => catalog?.courses.find((course) => course.id === id)?.courseTitle ?? 'a deleted course')
        .join(', '),
    );
  }
  for (const condition of filters.values) {
    parts.push(
      `${condition.variableName ?? 'value'} ${VALUE_OPERATOR_LABELS[condition.op]} ${String(condition.value)}`,
    );
  }
  for (const condition of filters.activity) {
    const course = condition.courseId
      ? (catalog?.courses.find((entry) => entry.id === condition.courseId)?.courseTitle ?? 'a deleted course')
      : 'any course';
    parts.push(`${condition.did ? 'did' : 'did not'} ${ACTIVITY_WORDS[condition.event]} ${course}`);
  }
  return parts;
}

export type FiltersEditorProps = {
  filters: ReportFilters;
  subject: ReportSubject;
  catalog: ReportCatalog | undefined;
  onChange: (filters: ReportFilters) => void;
};

/** The item's filters: courses, a period (presets or dates), value conditions, and what learners did or did not do. */
export function FiltersEditor({ filters, subject, catalog, onChange }: FiltersEditorProps) {
  const listId = useId();
  const names = variableNames(catalog);
  const period = filters.period;
  const periodChoice = periodValue(period);
  const canUseOwnValue = VARIABLE_SUBJECTS.includes(subject.kind);
  // An agent's values belong to no course (the contract refuses the filter).
  const canFilterCourses = subject.kind !== 'chatbot_variable';

  /** The known values of a category variable (department), offered while typing a condition. */
  function knownValues(name: string | null): readonly string[] {
    const variableName = name ?? (subject.kind === 'variable' ? subjectVariableName() : null);
    return catalog?.values?.find((entry) => entry.variableName === variableName)?.values ?? [];
  }

  function subjectVariableName(): string | null {
    if (subject.kind !== 'variable') return null;
    return catalog?.variables.find((variable) => subject.variableIds.includes(variable.id))?.name ?? null;
  }

  function typeOfVariable(name: string | null): string | null {
    if (name === null) return subjectDataType(subject, catalog);
    return catalog?.variables.find((variable) => variable.name === name)?.dataType ?? null;
  }

  /** A typed value as the condition keeps it: a number or true/false when the variable is one. */
  function conditionValue(raw: string, name: string | null): ValueCondition['value'] {
    const dataType = typeOfVariable(name);
    if (dataType === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
    if (dataType === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
    return raw;
  }

  function setValueCondition(index: number, condition: ValueCondition) {
    onChange({ ...filters, values: filters.values.map((entry, at) => (at === index ? condition : entry)) });
  }

  function setActivity(index: number, condition: ActivityCondition) {
    onChange({
      ...filters,
      activity: filters.activity.map((entry, at) => (at === index ? condition : entry)),
    });
  }

  return (
    <div className="flex flex-col gap-4 rounded-xl border border-line bg-surface-muted/40 p-3">
      {canFilterCourses ? (
        <div className="flex flex-col gap-1.5">
          <span className="text-xs font-semibold text-fg-muted">Courses</span>
          <CourseMultiPicker
            label="Only these courses"
            emptyLabel="Any course"
            value={filters.courseIds}
            catalog={catalog}
            onChange={(courseIds) => onChange({ ...filters, courseIds })}
          />
        </div>
      ) : null}

      <div className="flex flex-col gap-1.5">
        <span className="text-xs font-semibold text-fg-muted">Period</span>
        <div className="flex flex-wrap items-center gap-2">
          <select
            aria-label="Period"
            className={pickerSelectClassName}
            value={periodChoice}
            onChange={(event) => {
              const choice = event.target.value;
              if (choice === 'between') {
                const today = new Date();
                const from = new Date(today.getTime() - 29 * 86_400_000);
                return onChange({
                  ...filters,
                  period: { kind: 'between', from: isoDay(from), to: isoDay(today) },
                });
              }
              if (choice === 'last_days:custom') {
                return onChange({ ...filters, period: { kind: 'last_days', days: 14 } });
              }
              const preset = PERIOD_PRESETS.find((entry) => entry.value === choice);
              onChange({ ...filters, period: preset?.period ?? null });
            }}
          >
            {PERIOD_PRESETS.map((preset) => (
              <option key={preset.value} value={preset.value}>
                {preset.period
                  ? periodLabel(preset.period).replace(/^./, (c) => c.toUpperCase())
                  : 'All time'}
              </option>
            ))}
            <option value="last_days:custom">The last N days…</option>
            <option value="between">Between dates…</option>
          </select>
          {period?.kind === 'last_days' && periodChoice === 'last_days:custom' ? (
            <label className="flex min-w-0 max-w-full items-center gap-2 text-sm text-fg-muted">
              <input
                type="number"
                min={1}
                max={3660}
                aria-label="Number of days"
                className={cn(inputClassName, 'w-24')}
                value={Number.isNaN(period.days) ? '' : period.days}
                onChange={(event) =>
                  onChange({
                    ...filters,
                    period: {
                      kind: 'last_days',
                      days: event.target.value === '' ? Number.NaN : Number(event.target.value),
                    },
                  })
                }
              />
              days
            </label>
          ) : null}
          {period?.kind === 'between' ? (
            <>
              <input
                type="date"
                aria-label="From"
                className={cn(inputClassName, 'w-auto')}
                value={period.from}
                onChange={(event) =>
                  onChange({ ...filters, period: { ...period, from: event.target.value } })
                }
              />
              <span className="text-sm text-fg-muted">to</span>
              <input
                type="date"
                aria-label="To"
                className={cn(inputClassName, 'w-auto')}
                value={period.to}
                onChange={(event) => onChange({ ...filters, period: { ...period, to: event.target.value } })}
              />
            </>
          ) : null}
        </div>
      </div>

      <div className="flex flex-col gap-1.5">
        <span className="text-xs font-semibold text-fg-muted">Values</span>
        {filters.values.map((condition, index) => {
          const dataType = typeOfVariable(condition.variableName);
          return (
            <div key={index} className="flex flex-wrap items-center gap-2" data-testid="value-condition">
              <select
                aria-label={`Variable of condition ${index + 1}`}
                className={pickerSelectClassName}
                value={condition.variableName ?? ''}
                onChange={(event) =>
                  setValueCondition(index, { ...condition, variableName: event.target.value || null })
                }
              >
                {canUseOwnValue ? <option value="">its own value</option> : null}
                {names.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
              <select
                aria-label={`Operator of condition ${index + 1}`}
                className={pickerSelectClassName}
                value={condition.op}
                onChange={(event) =>
                  setValueCondition(index, { ...condition, op: event.target.value as ValueOperator })
                }
              >
                {VALUE_OPERATORS.map((op) => (
                  <option key={op} value={op}>
                    {VALUE_OPERATOR_LABELS[op]}
                  </option>
                ))}
              </select>
              {dataType === 'boolean' ? (
                <select
                  aria-label={`Value of condition ${index + 1}`}
                  className={pickerSelectClassName}
                  value={String(condition.value)}
                  onChange={(event) =>
                    setValueCondition(index, { ...condition, value: event.target.value === 'true' })
                  }
                >
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  aria-label={`Value of condition ${index + 1}`}
                  className={cn(inputClassName, 'w-40')}
                  list={
                    knownValues(condition.variableName).length > 0 ? `${listId}-values-${index}` : undefined
                  }
                  inputMode={dataType === 'number' ? 'decimal' : undefined}
                  value={String(condition.value)}
                  onChange={(event) =>
                    setValueCondition(index, {
                      ...condition,
                      value: conditionValue(event.target.value, condition.variableName),
                    })
                  }
                />
              )}
              {knownValues(condition.variableName).length > 0 ? (
                <datalist id={`${listId}-values-${index}`}>
                  {knownValues(condition.variableName).map((value) => (
                    <option key={value} value={value} />
                  ))}
                </datalist>
              ) : null}
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Remove condition ${index + 1}`}
                onClick={() =>
                  onChange({ ...filters, values: filters.values.filter((_, at) => at !== index) })
                }
              >
                <X aria-hidden="true" />
              </Button>
            </div>
          );
        })}
        <Button
          variant="ghost"
          size="sm"
          className="self-start"
          disabled={filters.values.length >= 10 || (!canUseOwnValue && names.length === 0)}
          onClick={() =>
            onChange({
              ...filters,
              values: [
                ...filters.values,
                { variableName: canUseOwnValue ? null : (names[0] ?? null), op: 'eq', value: '' },
              ],
            })
          }
        >
          <Plus aria-hidden="true" />
          Add a value condition
        </Button>
      </div>

      <div className="flex flex-col gap-1.5">
        <span className="text-xs font-semibold text-fg-muted">Learners who…</span>
        {filters.activity.map((condition, index) => (
          <div key={index} className="flex flex-wrap items-center gap-2" data-testid="activity-condition">
            <span className="text-sm text-fg-muted">Learners who</span>
            <select
              aria-label={`Did or did not, condition ${index + 1}`}
              className={pickerSelectClassName}
              value={condition.did ? 'did' : 'did_not'}
              onChange={(event) => setActivity(index, { ...condition, did: event.target.value === 'did' })}
            >
              <option value="did">did</option>
              <option value="did_not">did not</option>
            </select>
            <select
              aria-label={`Activity of condition ${index + 1}`}
              className={pickerSelectClassName}
              value={condition.event}
              onChange={(event) =>
                setActivity(index, { ...condition, event: event.target.value as ActivityEvent })
              }
            >
              {ACTIVITY_EVENTS.map((event) => (
                <option key={event} value={event}>
                  {ACTIVITY_WORDS[event]}
                </option>
              ))}
            </select>
            <select
              aria-label={`Course of activity condition ${index + 1}`}
              className={cn(pickerSelectClassName, 'max-w-[16rem]')}
              value={condition.courseId ?? ''}
              onChange={(event) => setActivity(index, { ...condition, courseId: event.target.value || null })}
            >
              <option value="">any course</option>
              {(catalog?.courses ?? []).map((course) => (
                <option key={course.id} value={course.id}>
                  {course.courseTitle}
                </option>
              ))}
            </select>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove activity condition ${index + 1}`}
              onClick={() =>
                onChange({ ...filters, activity: filters.activity.filter((_, at) => at !== index) })
              }
            >
              <X aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          variant="ghost"
          size="sm"
          className="self-start"
          disabled={filters.activity.length >= 5}
          onClick={() =>
            onChange({
              ...filters,
              activity: [...filters.activity, { did: true, event: 'completed', courseId: null }],
            })
          }
        >
          <Plus aria-hidden="true" />
          Add an activity condition
        </Button>
      </div>
    </div>
  );
}
