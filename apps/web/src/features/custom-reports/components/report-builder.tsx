import {
  COMPARISON_TYPE_LABELS,
  COMPARISON_TYPES,
  CUSTOM_REPORT_TYPE_LABELS,
  CUSTOM_REPORT_TYPES,
  MAX_REPORT_ITEMS,
  customReportInput,
  type CustomReport,
  type CustomReportDraft,
  type ReportCatalog,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowDown, ArrowUp, GripVertical, Plus, X } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { inputClassName, TextField } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

export type ReportFormValues = z.input<typeof customReportInput>;
type ReportFormItem = NonNullable<ReportFormValues['items']>[number];

const selectClassName = cn(inputClassName, 'pr-8');

/** The form's starting values from a saved report (edit) or a generated draft. */
export function formValuesFromReport(report: CustomReport): ReportFormValues {
  return {
    name: report.name,
    description: report.description ?? '',
    reportType: report.reportType,
    config: report.config,
    items: report.items.map((item): ReportFormItem => {
      const common = { displayName: item.displayName ?? '', comparisonType: item.comparisonType };
      if (item.kind === 'variable') return { kind: 'variable', variableId: item.variableId ?? '', ...common };
      if (item.kind === 'question') return { kind: 'question', questionId: item.questionId ?? '', ...common };
      return {
        kind: 'identifier',
        courseId: item.courseId ?? '',
        slideNumber: item.slideNumber,
        questionNumber: item.questionNumber,
        questionText: item.questionText,
        ...common,
      };
    }),
  };
}

export function formValuesFromDraft(draft: CustomReportDraft | null): ReportFormValues {
  return {
    name: draft?.name ?? '',
    description: draft?.description ?? '',
    reportType: draft?.reportType ?? 'table',
    config: draft?.config ?? { periodDays: null, limit: null },
    items: (draft?.items ?? []).map((item) => ({ ...item, displayName: item.displayName ?? '' })),
  };
}

function questionLabel(parts: {
  slideNumber?: number | null | undefined;
  questionNumber?: number | null | undefined;
  questionText?: string | null | undefined;
}): string {
  const where = [
    parts.slideNumber != null ? `Slide ${parts.slideNumber}` : null,
    parts.questionNumber != null ? `Question ${parts.questionNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const text = parts.questionText?.trim();
  if (where && text) return `${where}: ${text}`;
  return where || text || 'Question';
}

/** What an item is called in the builder, from the catalog. */
export function describeItem(
  item: ReportFormItem,
  catalog: ReportCatalog | undefined,
): { label: string; course: string | null; kind: string } {
  if (item.kind === 'variable') {
    const variable = catalog?.variables.find((candidate) => candidate.id === item.variableId);
    return {
      label: variable ? (variable.title ?? variable.name) : 'Variable',
      course: variable?.courseTitle ?? null,
      kind: 'Variable',
    };
  }
  if (item.kind === 'question') {
    const question = catalog?.questions.find((candidate) => candidate.id === item.questionId);
    return {
      label: question ? questionLabel(question) : 'Question',
      course: question?.courseTitle ?? null,
      kind: 'Question',
    };
  }
  const course = catalog?.courses.find((candidate) => candidate.id === item.courseId);
  return { label: questionLabel(item), course: course?.courseTitle ?? null, kind: 'Question by identifier' };
}

function groupByCourse<Entry extends { courseTitle: string }>(entries: readonly Entry[]) {
  const groups = new Map<string, Entry[]>();
  for (const entry of entries)
    groups.set(entry.courseTitle, [...(groups.get(entry.courseTitle) ?? []), entry]);
  return [...groups.entries()];
}

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
}

export type ReportBuilderProps = {
  defaultValues: ReportFormValues;
  catalog: ReportCatalog | undefined;
  submitLabel: string;
  onSubmit: (values: CustomReportDraft) => Promise<void>;
  onCancel: () => void;
};

/**
 * The report builder: name, description, type, period and top N, and the
 * ordered items (drag, or the move buttons from the keyboard), each with its
 * display name and breakdown. Validation is the contract's, as on the server.
 */
export function ReportBuilder({
  defaultValues,
  catalog,
  submitLabel,
  onSubmit,
  onCancel,
}: ReportBuilderProps) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ReportFormValues, unknown, CustomReportDraft>({
    resolver: zodResolver(customReportInput),
    defaultValues,
  });
  const { fields, append, remove, move } = useFieldArray({ control, name: 'items' });
  const items = useWatch({ control, name: 'items' }) ?? [];
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const isFull = fields.length >= MAX_REPORT_ITEMS;
  const listId = useId();

  function moveItem(from: number, to: number) {
    if (to < 0 || to >= fields.length || from === to) return;
    move(from, to);
    const item = items[from];
    const label = item ? describeItem(item, catalog).label : 'Item';
    setAnnouncement(`${label} moved to position ${to + 1} of ${fields.length}`);
  }

  const itemErrors = errors.items;
  const listError =
    itemErrors && !Array.isArray(itemErrors) ? (itemErrors.message ?? itemErrors.root?.message) : null;

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="flex flex-col gap-6">
      <Card className="flex flex-col gap-5 p-5 sm:p-6">
        <TextField
          label="Name"
          placeholder="Safety scores by course"
          autoComplete="off"
          error={errors.name?.message}
          {...register('name')}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="report-description" className="text-sm font-medium text-fg">
            Description <span className="text-xs font-normal text-fg-subtle">Optional</span>
          </label>
          <textarea
            id="report-description"
            rows={2}
            className={cn(inputClassName, 'h-auto py-2')}
            aria-invalid={errors.description ? true : undefined}
            {...register('description')}
          />
          {errors.description ? (
            <p className="text-sm text-rose-600 dark:text-rose-400">{errors.description.message}</p>
          ) : null}
        </div>
        <div className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="report-type" className="text-sm font-medium text-fg">
              Report type
            </label>
            <select id="report-type" className={selectClassName} {...register('reportType')}>
              {CUSTOM_REPORT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CUSTOM_REPORT_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Last N days"
            labelAside="Empty: all time"
            type="number"
            inputMode="numeric"
            min={1}
            error={errors.config?.periodDays?.message}
            {...register('config.periodDays', {
              setValueAs: (value: string) => numberOrNull(String(value ?? '')),
            })}
          />
          <TextField
            label="Top N rows"
            labelAside="Empty: all"
            type="number"
            inputMode="numeric"
            min={1}
            error={errors.config?.limit?.message}
            {...register('config.limit', {
              setValueAs: (value: string) => numberOrNull(String(value ?? '')),
            })}
          />
        </div>
      </Card>

      <Card className="flex flex-col gap-4 p-5 sm:p-6">
        <div>
          <h2 className="text-lg font-semibold text-fg" id={`${listId}-title`}>
            Variables and questions
          </h2>
          <p className="text-sm text-fg-muted">
            In the order the report shows them: drag a row, or use its move buttons. At most{' '}
            {MAX_REPORT_ITEMS}.
          </p>
        </div>
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
        {fields.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-fg-muted">
            Nothing yet: add a variable or a question below.
          </p>
        ) : (
          <ol aria-labelledby={`${listId}-title`} className="flex flex-col gap-2">
            {fields.map((field, index) => {
              const item = items[index] ?? field;
              const described = describeItem(item, catalog);
              const rowError = errors.items?.[index];
              const rowMessage = rowError ? (rowError.message ?? 'Check this item') : null;
              return (
                <li
                  key={field.id}
                  onDragOver={(event) => {
                    event.preventDefault();
                    event.dataTransfer.dropEffect = 'move';
                  }}
                  onDrop={(event) => {
                    event.preventDefault();
                    if (dragged !== null) moveItem(dragged, index);
                    setDragged(null);
                  }}
                  data-testid="report-item"
                  className={cn(
                    'flex flex-col gap-3 rounded-xl border border-line bg-surface p-3 xl:flex-row xl:items-start',
                    dragged === index && 'opacity-50',
                  )}
                >
                  <div className="flex min-w-0 flex-1 items-start gap-2">
                    {/* Only the grip drags, so the row's text fields keep their own mouse behaviour. */}
                    <span
                      draggable
                      data-testid="drag-handle"
                      title="Drag to reorder"
                      onDragStart={(event: DragEvent<HTMLSpanElement>) => {
                        setDragged(index);
                        event.dataTransfer.effectAllowed = 'move';
                        // Firefox starts a drag only with data; a private type no text field accepts.
                        event.dataTransfer.setData('application/x-courselens-report-item', String(index));
                        const row = event.currentTarget.closest('li');
                        if (row) event.dataTransfer.setDragImage(row, 16, 16);
                      }}
                      onDragEnd={() => setDragged(null)}
                      className="mt-0.5 -ml-1 flex size-7 shrink-0 cursor-grab items-center justify-center rounded text-fg-subtle hover:bg-surface-muted active:cursor-grabbing"
                    >
                      <GripVertical aria-hidden="true" className="size-4" />
                    </span>
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-words text-fg">
                        <span className="sr-only">{index + 1}. </span>
                        {described.label}
                      </p>
                      <p className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
                        <Badge>{described.kind}</Badge>
                        {described.course ?? null}
                      </p>
                      {rowMessage ? (
                        <p className="mt-1 text-sm text-rose-600 dark:text-rose-400">{rowMessage}</p>
                      ) : null}
                    </div>
                  </div>
                  <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:w-[26rem]">
                    <input
                      aria-label={`Display name of ${described.label}`}
                      placeholder="Display name (optional)"
                      className={inputClassName}
                      {...register(`items.${index}.displayName`)}
                    />
                    <select
                      aria-label={`Breakdown of ${described.label}`}
                      className={selectClassName}
                      {...register(`items.${index}.comparisonType`)}
                    >
                      {COMPARISON_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {COMPARISON_TYPE_LABELS[type]}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="flex shrink-0 gap-1 self-end xl:self-start">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Move ${described.label} up`}
                      disabled={index === 0}
                      onClick={() => moveItem(index, index - 1)}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Move ${described.label} down`}
                      disabled={index === fields.length - 1}
                      onClick={() => moveItem(index, index + 1)}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove ${described.label}`}
                      onClick={() => remove(index)}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {listError ? <p className="text-sm text-rose-600 dark:text-rose-400">{listError}</p> : null}
        <ItemPickers
          catalog={catalog}
          items={items}
          disabled={isFull}
          onAdd={(item) => {
            append(item);
            setAnnouncement(`${describeItem(item, catalog).label} added`);
          }}
        />
      </Card>

      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function ItemPickers({
  catalog,
  items,
  disabled,
  onAdd,
}: {
  catalog: ReportCatalog | undefined;
  items: readonly ReportFormItem[];
  disabled: boolean;
  onAdd: (item: ReportFormItem) => void;
}) {
  const [questionMode, setQuestionMode] = useState<'id' | 'identifier'>('id');
  const [identifier, setIdentifier] = useState({ courseId: '', slide: '', number: '', text: '' });
  const [identifierError, setIdentifierError] = useState<string | null>(null);
  const taken = new Set(
    items.flatMap((item) =>
      item.kind === 'variable' ? [item.variableId] : item.kind === 'question' ? [item.questionId] : [],
    ),
  );
  const variables = catalog?.variables ?? [];
  const questions = catalog?.questions ?? [];
  const courses = catalog?.courses ?? [];

  function addIdentifier() {
    const slideNumber = numberOrNull(identifier.slide);
    const questionNumber = numberOrNull(identifier.number);
    const questionText = identifier.text.trim() || null;
    if (!identifier.courseId) return setIdentifierError('Choose the course');
    if (
      [slideNumber, questionNumber].some((value) => value !== null && (!Number.isInteger(value) || value < 0))
    ) {
      return setIdentifierError('Slide and question numbers must be whole numbers');
    }
    if (slideNumber === null && questionNumber === null && questionText === null) {
      return setIdentifierError('Give a slide number, a question number or the question text');
    }
    setIdentifierError(null);
    onAdd({
      kind: 'identifier',
      courseId: identifier.courseId,
      slideNumber,
      questionNumber,
      questionText,
      displayName: '',
      comparisonType: 'by_learner',
    });
    setIdentifier({ courseId: identifier.courseId, slide: '', number: '', text: '' });
  }

  return (
    <div className="grid gap-4 border-t border-line pt-4 xl:grid-cols-2">
      <fieldset className="flex min-w-0 flex-col gap-2" disabled={disabled}>
        <legend className="mb-2 text-sm font-semibold text-fg">Add a variable</legend>
        <CatalogPicker
          label="Variable to add"
          emptyText="No variables yet"
          placeholder="Choose a variable…"
          addLabel="Add variable"
          entries={variables}
          optionLabel={(variable) => `${variable.title ?? variable.name} (${variable.dataType})`}
          taken={taken}
          onAdd={(variableId) =>
            onAdd({ kind: 'variable', variableId, displayName: '', comparisonType: 'by_learner' })
          }
        />
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-2" disabled={disabled}>
        <legend className="mb-2 text-sm font-semibold text-fg">Add a question</legend>
        <div className="flex flex-wrap gap-4 text-sm" role="radiogroup" aria-label="Choose the question">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="question-mode"
              checked={questionMode === 'id'}
              onChange={() => setQuestionMode('id')}
            />
            From the list
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="question-mode"
              checked={questionMode === 'identifier'}
              onChange={() => setQuestionMode('identifier')}
            />
            By course, slide and number
          </label>
        </div>
        {questionMode === 'id' ? (
          <CatalogPicker
            label="Question to add"
            emptyText="No questions yet"
            placeholder="Choose a question…"
            addLabel="Add question"
            entries={questions}
            optionLabel={questionLabel}
            taken={taken}
            onAdd={(questionId) =>
              onAdd({ kind: 'question', questionId, displayName: '', comparisonType: 'by_learner' })
            }
          />
        ) : (
          <div className="flex flex-col gap-2">
            <p className="text-xs text-fg-muted">
              Matches the answers by what learners saw, so the report keeps working after the course is
              republished.
            </p>
            <select
              aria-label="Course of the question"
              className={selectClassName}
              value={identifier.courseId}
              onChange={(event) => setIdentifier({ ...identifier, courseId: event.target.value })}
            >
              <option value="">Choose a course…</option>
              {courses.map((course) => (
                <option key={course.id} value={course.id}>
                  {course.courseTitle}
                </option>
              ))}
            </select>
            <div className="grid grid-cols-2 gap-2">
              <input
                aria-label="Slide number"
                placeholder="Slide number"
                inputMode="numeric"
                className={inputClassName}
                value={identifier.slide}
                onChange={(event) => setIdentifier({ ...identifier, slide: event.target.value })}
              />
              <input
                aria-label="Question number"
                placeholder="Question number"
                inputMode="numeric"
                className={inputClassName}
                value={identifier.number}
                onChange={(event) => setIdentifier({ ...identifier, number: event.target.value })}
              />
            </div>
            <input
              aria-label="Question text"
              placeholder="Question text (optional)"
              className={inputClassName}
              value={identifier.text}
              onChange={(event) => setIdentifier({ ...identifier, text: event.target.value })}
            />
            {identifierError ? (
              <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
                {identifierError}
              </p>
            ) : null}
            <Button type="button" variant="outline" className="self-start" onClick={addIdentifier}>
              <Plus aria-hidden="true" />
              Add question
            </Button>
          </div>
        )}
      </fieldset>
      {disabled ? (
        <p className="text-sm text-fg-muted xl:col-span-2">
          The report has {MAX_REPORT_ITEMS} items, the most it can hold.
        </p>
      ) : null}
    </div>
  );
}

/** A catalog entry chosen from a select grouped by course, then added; entries already in the report are disabled. */
function CatalogPicker<Entry extends { id: string; courseTitle: string }>({
  label,
  emptyText,
  placeholder,
  addLabel,
  entries,
  optionLabel,
  taken,
  onAdd,
}: {
  label: string;
  emptyText: string;
  placeholder: string;
  addLabel: string;
  entries: readonly Entry[];
  optionLabel: (entry: Entry) => string;
  taken: ReadonlySet<string>;
  onAdd: (id: string) => void;
}) {
  const [chosen, setChosen] = useState('');
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <select
        aria-label={label}
        className={cn(selectClassName, 'min-w-0 flex-1')}
        value={chosen}
        onChange={(event) => setChosen(event.target.value)}
      >
        <option value="">{entries.length === 0 ? emptyText : placeholder}</option>
        {groupByCourse(entries).map(([course, group]) => (
          <optgroup key={course} label={course}>
            {group.map((entry) => (
              <option key={entry.id} value={entry.id} disabled={taken.has(entry.id)}>
                {optionLabel(entry)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <Button
        type="button"
        variant="outline"
        disabled={!chosen || taken.has(chosen)}
        onClick={() => {
          onAdd(chosen);
          setChosen('');
        }}
      >
        <Plus aria-hidden="true" />
        {addLabel}
      </Button>
    </div>
  );
}
