import {
  MAX_REPORT_ITEMS,
  customReportInput,
  type CustomReportDraft,
  type ReportCatalog,
  type ReportPreviewInput,
  type ResolvedChart,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowDown, ArrowUp, CopyPlus, GripVertical, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { inputClassName, TextField } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import { useReportPreview } from '../api/preview-report';

import { QueryItemEditor } from './query-item-editor';
import {
  catalogProblems,
  itemLabel,
  newFormItem,
  previewPlan,
  subjectCourse,
  subjectLabel,
  type ReportFormItem,
  type ReportFormValues,
} from './report-form';
import { ReportPreview } from './report-preview';

export { formValuesFromDraft, formValuesFromReport, type ReportFormValues } from './report-form';

/** How long the preview waits after the last change before it asks. */
export const PREVIEW_DELAY_MS = 400;

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
}

const parseReport = zodResolver(customReportInput);
/**
 * The contract's schema checks the form: the form holds only report-model
 * items, a narrower shape than the schema's input (which also takes the
 * first version's items), so only the options' field-name type differs.
 */
const reportResolver: Resolver<ReportFormValues, unknown, CustomReportDraft> = (values, context, options) =>
  parseReport(values, context, options as unknown as Parameters<typeof parseReport>[2]);

/** Every message under a field's errors (an item's errors are nested by path). */
function errorMessages(error: unknown): string[] {
  if (!error || typeof error !== 'object') return [];
  const messages: string[] = [];
  for (const [key, value] of Object.entries(error)) {
    if (key === 'ref' || key === 'type' || key === 'types') continue;
    if (key === 'message') {
      if (typeof value === 'string' && value) messages.push(value);
    } else messages.push(...errorMessages(value));
  }
  return [...new Set(messages)];
}

/** The value once it has stopped changing for `delayMs` (the first value at once). */
function useSettledValue(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === settled) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}

export type ReportBuilderProps = {
  organizationId: string | null | undefined;
  defaultValues: ReportFormValues;
  catalog: ReportCatalog | undefined;
  submitLabel: string;
  onSubmit: (values: CustomReportDraft) => Promise<void>;
  onCancel: () => void;
};

/**
 * The report builder: name and description, then the items (added,
 * duplicated, removed, reordered by drag or from the keyboard), each edited
 * as a sentence of pickers; beside it (below on a narrow screen) the live
 * preview of what the report will show. Validation is the contract's, as on
 * the server.
 */
export function ReportBuilder({
  organizationId,
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
    setValue,
    setError,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ReportFormValues, unknown, CustomReportDraft>({
    resolver: reportResolver,
    defaultValues,
  });
  const { fields, append, remove, move, insert } = useFieldArray({ control, name: 'items' });
  const [watchedItems, config] = useWatch({ control, name: ['items', 'config'] });
  const items = useMemo(() => watchedItems ?? [], [watchedItems]);
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const listId = useId();
  const isFull = fields.length >= MAX_REPORT_ITEMS;

  // ---- the live preview ----------------------------------------------------------
  const plan = useMemo(
    () => previewPlan({ ...defaultValues, items, config }, catalog),
    [defaultValues, items, config, catalog],
  );
  const planKey = JSON.stringify({ input: plan.input, sent: plan.sent });
  const settledKey = useSettledValue(planKey, PREVIEW_DELAY_MS);
  const settled = useMemo(
    () => JSON.parse(settledKey) as { input: ReportPreviewInput; sent: number[] },
    [settledKey],
  );
  const preview = useReportPreview(organizationId, settled.input);
  const previewByItem = new Map<number, { chart: ResolvedChart; groups: number }>();
  if (preview.data && !preview.isPlaceholderData) {
    preview.data.data.items.forEach((data, position) => {
      const index = settled.sent[position];
      if (index !== undefined) {
        previewByItem.set(index, { chart: data.chart, groups: data.result?.groupCount ?? 0 });
      }
    });
  }

  // ---- the list ----------------------------------------------------------------
  function focusItem(index: number, selector: string) {
    requestAnimationFrame(() => {
      listRef.current?.querySelector<HTMLElement>(`[data-item-index="${index}"] ${selector}`)?.focus();
    });
  }

  function moveItem(from: number, to: number, focusSelector?: string) {
    if (to < 0 || to >= fields.length || from === to) return;
    const item = items[from];
    move(from, to);
    setAnnouncement(
      `${item ? itemLabel(item, catalog) : 'Item'} moved to position ${to + 1} of ${fields.length}`,
    );
    if (focusSelector) focusItem(to, focusSelector);
  }

  function updateItem(index: number, item: ReportFormItem) {
    setValue(`items.${index}`, item, { shouldDirty: true, shouldValidate: isSubmitted });
  }

  function handleAdd() {
    append(newFormItem(), { shouldFocus: false });
    setAnnouncement(`Item ${fields.length + 1} added`);
    focusItem(fields.length, 'input[role="combobox"], select');
  }

  function handleDuplicate(index: number) {
    const item = items[index];
    if (!item) return;
    insert(index + 1, structuredClone(item), { shouldFocus: false });
    setAnnouncement(`${itemLabel(item, catalog)} duplicated as item ${index + 2}`);
  }

  function handleRemove(index: number) {
    const item = items[index];
    remove(index);
    setAnnouncement(`${item ? itemLabel(item, catalog) : 'Item'} removed`);
  }

  function handleGripKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    moveItem(index, event.key === 'ArrowUp' ? index - 1 : index + 1, '[data-grip]');
  }

  async function submit(values: CustomReportDraft) {
    // What the schema cannot check without the catalog, said on the item as the server would.
    let hasProblem = false;
    items.forEach((item, index) => {
      const [problem] = catalogProblems(item, catalog);
      if (problem) {
        hasProblem = true;
        setError(`items.${index}.query.measure`, { type: 'catalog', message: problem });
      }
    });
    if (hasProblem) return;
    await onSubmit(values);
  }

  const itemErrors = errors.items;
  const listError = itemErrors ? (itemErrors.message ?? itemErrors.root?.message ?? null) : null;
  const labels = items.map((item) => itemLabel(item, catalog));

  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)] lg:items-start xl:grid-cols-[minmax(0,1fr)_minmax(0,27rem)] 2xl:grid-cols-[minmax(0,1fr)_minmax(0,32rem)]">
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="flex min-w-0 flex-col gap-6"
      >
        <Card className="flex flex-col gap-5 p-5 sm:p-6">
          <TextField
            label="Name"
            placeholder="Safety results by department"
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
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="Last N days"
              hint="For items without a period of their own. Empty: all time."
              type="number"
              inputMode="numeric"
              min={1}
              error={errors.config?.periodDays?.message}
              {...register('config.periodDays', {
                setValueAs: (value: string | number | null) =>
                  numberOrNull(value === null ? '' : String(value)),
              })}
            />
            <TextField
              label="Top N rows"
              hint="For items without a top N of their own. Empty: all."
              type="number"
              inputMode="numeric"
              min={1}
              error={errors.config?.limit?.message}
              {...register('config.limit', {
                setValueAs: (value: string | number | null) =>
                  numberOrNull(value === null ? '' : String(value)),
              })}
            />
          </div>
        </Card>

        <Card className="flex flex-col gap-4 p-4 sm:p-6">
          <div>
            <h2 className="text-lg font-semibold text-fg" id={`${listId}-title`}>
              Items
            </h2>
            <p className="text-sm text-fg-muted">
              Each item reads a variable, an agent variable, a question or courses, and shows one measure,
              broken down as you choose. Reorder by dragging the grip, with its arrow keys, or with the move
              buttons. At most {MAX_REPORT_ITEMS}.
            </p>
          </div>
          <p className="sr-only" aria-live="polite">
            {announcement}
          </p>
          {fields.length === 0 ? (
            <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-fg-muted">
              Nothing yet: add an item, then choose what it reads.
            </p>
          ) : (
            <ol ref={listRef} aria-labelledby={`${listId}-title`} className="flex flex-col gap-3">
              {fields.map((field, index) => {
                const item = items[index] ?? field;
                const label = labels[index] ?? 'New item';
                const subject = subjectLabel(item.query.subject, catalog);
                const course = subjectCourse(item.query.subject, catalog);
                const messages = errorMessages(errors.items?.[index]);
                const previewed = previewByItem.get(index);
                return (
                  <li
                    key={field.id}
                    data-item-index={index}
                    data-testid="report-item"
                    aria-label={`Item ${index + 1}: ${label}`}
                    onDragOver={(event) => {
                      if (dragged === null) return;
                      event.preventDefault();
                      event.dataTransfer.dropEffect = 'move';
                    }}
                    onDrop={(event) => {
                      event.preventDefault();
                      if (dragged !== null) moveItem(dragged, index);
                      setDragged(null);
                    }}
                    className={cn(
                      'flex min-w-0 flex-col gap-3 rounded-xl border bg-surface p-3 sm:p-4',
                      messages.length > 0 ? 'border-rose-400 dark:border-rose-500/70' : 'border-line',
                      dragged === index && 'opacity-50',
                    )}
                  >
                    <div className="flex flex-wrap items-start gap-x-2 gap-y-1">
                      {/* Only the grip drags, so the pickers keep their own mouse behaviour; its arrow keys move the item. */}
                      <button
                        type="button"
                        draggable
                        data-grip
                        data-testid="drag-handle"
                        aria-label={`Reorder ${label} (arrow keys)`}
                        title="Drag, or use the arrow keys, to reorder"
                        onKeyDown={(event) => handleGripKey(event, index)}
                        onDragStart={(event: DragEvent<HTMLButtonElement>) => {
                          setDragged(index);
                          event.dataTransfer.effectAllowed = 'move';
                          // Firefox starts a drag only with data; a private type no text field accepts.
                          event.dataTransfer.setData('application/x-courselens-report-item', String(index));
                          const row = event.currentTarget.closest('li');
                          if (row) event.dataTransfer.setDragImage(row, 16, 16);
                        }}
                        onDragEnd={() => setDragged(null)}
                        className="mt-0.5 -ml-1 flex size-8 shrink-0 cursor-grab items-center justify-center rounded text-fg-subtle hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-focus active:cursor-grabbing"
                      >
                        <GripVertical aria-hidden="true" className="size-4" />
                      </button>
                      <div className="min-w-0 flex-[1_1_10rem]">
                        <p className="font-medium break-words text-fg">
                          <span className="text-fg-subtle tabular-nums">{index + 1}. </span>
                          {label}
                        </p>
                        <p className="text-xs break-words text-fg-muted">
                          {subject
                            ? [course, item.displayName.trim() ? subject : null]
                                .filter(Boolean)
                                .join(' · ') || '\u00a0'
                            : 'Choose what this item reads'}
                        </p>
                      </div>
                      <div className="ml-auto flex shrink-0 gap-0.5">
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-8"
                          aria-label={`Move ${label} up`}
                          disabled={index === 0}
                          onClick={() => moveItem(index, index - 1)}
                        >
                          <ArrowUp aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-8"
                          aria-label={`Move ${label} down`}
                          disabled={index === fields.length - 1}
                          onClick={() => moveItem(index, index + 1)}
                        >
                          <ArrowDown aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-8"
                          aria-label={`Duplicate ${label}`}
                          disabled={isFull}
                          onClick={() => handleDuplicate(index)}
                        >
                          <CopyPlus aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-8"
                          aria-label={`Remove ${label}`}
                          onClick={() => handleRemove(index)}
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </div>
                    </div>
                    <QueryItemEditor
                      item={item}
                      catalog={catalog}
                      previewChart={previewed?.chart ?? null}
                      previewGroups={previewed?.groups ?? null}
                      invalid={messages.length > 0}
                      onChange={(next) => updateItem(index, next)}
                    />
                    <div className="flex flex-col gap-1.5 sm:grid sm:grid-cols-[4.5rem_minmax(0,1fr)] sm:items-center sm:gap-3">
                      <label
                        htmlFor={`${field.id}-display-name`}
                        className="text-xs font-semibold tracking-wide text-fg-subtle uppercase"
                      >
                        Title
                      </label>
                      <input
                        id={`${field.id}-display-name`}
                        aria-label={`Title of ${subject ?? `item ${index + 1}`}`}
                        placeholder={subject ? `${subject} (default)` : 'Optional'}
                        className={inputClassName}
                        {...register(`items.${index}.displayName`)}
                      />
                    </div>
                    {messages.length > 0 ? (
                      <ul
                        className="flex flex-col gap-0.5 text-sm text-rose-600 dark:text-rose-400"
                        data-testid="item-errors"
                      >
                        {messages.map((message) => (
                          <li key={message}>{message}</li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          )}
          {listError ? <p className="text-sm text-rose-600 dark:text-rose-400">{listError}</p> : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="outline" disabled={isFull} onClick={handleAdd}>
              <Plus aria-hidden="true" />
              Add an item
            </Button>
            {isFull ? (
              <p className="text-sm text-fg-muted">
                The report has {MAX_REPORT_ITEMS} items, the most it can hold.
              </p>
            ) : null}
          </div>
        </Card>

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" isLoading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </form>

      <ReportPreview
        plan={plan}
        itemLabels={labels}
        data={preview.data?.data}
        isFetching={preview.isFetching}
        isPending={settledKey !== planKey || (preview.isPending && preview.fetchStatus !== 'idle')}
        error={preview.error}
        className="lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:overflow-y-auto"
      />
    </div>
  );
}
