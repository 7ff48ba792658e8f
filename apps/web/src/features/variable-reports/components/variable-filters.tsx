import type { VariableReportSubject } from '@courselens/contracts';
import { SlidersHorizontal } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import type { VariableFilterParams } from '../api/get-variable-report';

import type { SourceWords } from './source-words';

export type VariableFiltersProps = {
  variable: VariableReportSubject | undefined;
  filters: VariableFilterParams;
  /** The organization-wide report filters by course (by agent for an agent's variable). */
  canFilterCourse: boolean;
  sourceWords: SourceWords;
  /** A word beside the course (agent) filter, on what choosing one offers. */
  courseNote?: string | null;
  onApply: (filters: VariableFilterParams) => void;
};

const labelClass = 'text-xs font-medium text-fg-muted';

/**
 * The filters shared by report, chart and leaders: course, recorded from/to,
 * and the value by type (a range for numbers, a word for text, true/false).
 * Applied together, so typing does not fire a request per keystroke.
 */
export function VariableFilters({
  variable,
  filters,
  canFilterCourse,
  sourceWords,
  courseNote = null,
  onApply,
}: VariableFiltersProps) {
  const id = useId();
  const [draft, setDraft] = useState(filters);
  const [applied, setApplied] = useState(filters);
  // The URL changed under the form (back button, a tab): start from it again.
  if (applied !== filters) {
    setApplied(filters);
    setDraft(filters);
  }
  const dataType = variable?.dataType;
  const set = (key: keyof VariableFilterParams, value: string) =>
    setDraft((previous) => ({ ...previous, [key]: value || undefined }));
  const activeCount = Object.values(filters).filter(Boolean).length;
  const hasFilters = activeCount > 0;
  // Under 768 px the form folds behind a button so the figures come first.
  const [isOpen, setIsOpen] = useState(false);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <div>
      <Button
        variant="outline"
        className="md:hidden"
        aria-expanded={isOpen}
        aria-controls={`${id}-form`}
        onClick={() => setIsOpen((open) => !open)}
      >
        <SlidersHorizontal aria-hidden="true" />
        Filters{hasFilters ? ` (${activeCount})` : ''}
      </Button>
      <form
        id={`${id}-form`}
        onSubmit={handleSubmit}
        aria-label="Filters"
        className={cn(
          'flex-col gap-3 rounded-2xl border border-line bg-surface p-4 md:flex md:flex-row md:flex-wrap md:items-end',
          isOpen ? 'mt-3 flex' : 'hidden',
        )}
      >
        {canFilterCourse && variable && variable.courses.length > 1 ? (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-course`} className={labelClass}>
                {sourceWords.label}
              </label>
              <select
                id={`${id}-course`}
                value={draft.courseId ?? ''}
                onChange={(event) => set('courseId', event.target.value)}
                aria-describedby={courseNote ? `${id}-course-note` : undefined}
                className={cn(inputClassName, 'md:w-52')}
              >
                <option value="">{sourceWords.all}</option>
                {variable.courses.map((course) => (
                  <option key={course.id} value={course.id}>
                    {course.courseTitle}
                  </option>
                ))}
              </select>
            </div>
            {courseNote ? (
              <p id={`${id}-course-note`} className="text-xs text-fg-muted md:max-w-40 md:self-center">
                {courseNote}
              </p>
            ) : null}
          </>
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-from`} className={labelClass}>
            Recorded from
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={draft.from ?? ''}
            onChange={(event) => set('from', event.target.value)}
            className={cn(inputClassName, 'md:w-40')}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-to`} className={labelClass}>
            Recorded to
          </label>
          <input
            id={`${id}-to`}
            type="date"
            value={draft.to ?? ''}
            onChange={(event) => set('to', event.target.value)}
            className={cn(inputClassName, 'md:w-40')}
          />
        </div>
        {dataType === 'number' ? (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-min`} className={labelClass}>
                Minimum value
              </label>
              <input
                id={`${id}-min`}
                type="number"
                step="any"
                inputMode="decimal"
                value={draft.min ?? ''}
                onChange={(event) => set('min', event.target.value)}
                className={cn(inputClassName, 'md:w-32')}
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-max`} className={labelClass}>
                Maximum value
              </label>
              <input
                id={`${id}-max`}
                type="number"
                step="any"
                inputMode="decimal"
                value={draft.max ?? ''}
                onChange={(event) => set('max', event.target.value)}
                className={cn(inputClassName, 'md:w-32')}
              />
            </div>
          </>
        ) : null}
        {dataType === 'text' ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-contains`} className={labelClass}>
              Value contains
            </label>
            <input
              id={`${id}-contains`}
              type="text"
              value={draft.contains ?? ''}
              onChange={(event) => set('contains', event.target.value)}
              className={cn(inputClassName, 'md:w-44')}
            />
          </div>
        ) : null}
        {dataType === 'boolean' ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-value`} className={labelClass}>
              Value
            </label>
            <select
              id={`${id}-value`}
              value={draft.value ?? ''}
              onChange={(event) => set('value', event.target.value)}
              className={cn(inputClassName, 'md:w-36')}
            >
              <option value="">True or false</option>
              <option value="true">True</option>
              <option value="false">False</option>
            </select>
          </div>
        ) : null}
        <div className="flex gap-2">
          <Button type="submit">Apply</Button>
          {hasFilters ? (
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                const cleared: VariableFilterParams = {};
                setDraft(cleared);
                onApply(cleared);
              }}
            >
              Clear
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
