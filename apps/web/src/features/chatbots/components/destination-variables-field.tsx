import { CHATBOT_VARIABLE_TYPE_LABELS, MAX_DESTINATIONS } from '@courselens/contracts';
import { X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import type { OrganizationIdInput } from '@/lib/query-keys';

import {
  courseVariableLabel,
  useCourseVariableOptions,
  type CourseVariableOption,
} from '../api/get-course-variable-options';

import { FieldError } from '@/components/ui/form-fields';

const LABEL = 'Also store in course variables';
const HINT = 'Each value the agent captures is also stored in these course variables, on the same learner.';

/** What react-hook-form focuses when a problem names the field. */
export type FocusHandle = { focus: () => void };

export type DestinationVariablesFieldProps = {
  organizationId: OrganizationIdInput;
  /** Ids of the chosen course variables. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string | undefined;
  /** Receives a handle that focuses the picker (react-hook-form's `field.ref`). */
  focusRef?: (handle: FocusHandle | null) => void;
};

function optionOf(variable: CourseVariableOption): ComboboxOption {
  const type = CHATBOT_VARIABLE_TYPE_LABELS[variable.dataType];
  return {
    value: variable.id,
    label: courseVariableLabel(variable),
    // With a title shown, the machine name still tells two similar variables apart.
    hint: variable.title?.trim() ? `${variable.name} · ${type}` : type,
    keywords: variable.name,
  };
}

/**
 * The course variables a chatbot variable also feeds: the chosen ones as
 * removable chips, and a searchable list (the shared combobox) to add one.
 * The organization's whole list is loaded once, so a chip can name any
 * chosen variable and typing filters hundreds of them at once.
 */
export function DestinationVariablesField({
  organizationId,
  value,
  onChange,
  error,
  focusRef,
}: DestinationVariablesFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const variables = useCourseVariableOptions(organizationId);
  // Adding or removing a chip moves nothing a screen reader follows: this says what changed.
  const [announcement, setAnnouncement] = useState('');

  const byId = useMemo(
    () => new Map((variables.data ?? []).map((variable) => [variable.id, variable])),
    [variables.data],
  );
  const chosen = new Set(value);
  const options = (variables.data ?? []).filter((variable) => !chosen.has(variable.id)).map(optionOf);
  const isFull = value.length >= MAX_DESTINATIONS;
  const hasNone = variables.isSuccess && variables.data.length === 0;
  const hasPicker = !variables.isError && !hasNone;

  function labelOf(id: string): string {
    const variable = byId.get(id);
    if (variable) return courseVariableLabel(variable);
    return variables.isSuccess ? 'A variable that no longer exists' : 'Course variable';
  }

  function focusPicker() {
    document.getElementById(inputId)?.focus();
  }

  function handleAdd(id: string) {
    if (chosen.has(id) || isFull) return;
    onChange([...value, id]);
    setAnnouncement(`Added ${labelOf(id)}`);
  }

  function handleRemove(id: string) {
    // The chip's button goes away with the chip: focus goes back to the picker, once it
    // has rendered (a full list's picker is disabled until one is removed).
    flushSync(() => {
      onChange(value.filter((item) => item !== id));
      setAnnouncement(`Removed ${labelOf(id)}`);
    });
    focusPicker();
  }

  return (
    <div
      ref={(element) => focusRef?.(element ? { focus: focusPicker } : null)}
      role="group"
      aria-labelledby={`${inputId}-label`}
      className="flex flex-col gap-1.5"
    >
      <div className="flex items-baseline justify-between gap-2">
        <label
          id={`${inputId}-label`}
          htmlFor={hasPicker ? inputId : undefined}
          className="text-sm font-medium text-fg"
        >
          {LABEL}
        </label>
        <span className="text-xs text-fg-subtle">Optional</span>
      </div>
      {value.length > 0 ? (
        <ul aria-label="Chosen course variables" className="flex flex-wrap gap-1.5">
          {value.map((id) => {
            const label = labelOf(id);
            const isMissing = variables.isSuccess && !byId.has(id);
            return (
              <li key={id} className="max-w-full min-w-0">
                <Badge
                  variant={isMissing ? 'danger' : 'brand'}
                  className="max-w-full gap-1 py-0.5 pr-0.5 whitespace-normal"
                >
                  <span className="min-w-0 break-words">{label}</span>
                  <button
                    type="button"
                    aria-label={`Remove ${label}`}
                    title="Remove"
                    onClick={() => handleRemove(id)}
                    className="flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-focus dark:hover:bg-white/15"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </Badge>
              </li>
            );
          })}
        </ul>
      ) : null}
      {variables.isError ? (
        <div className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
          <span>The course variables could not be loaded.</span>
          <Button variant="outline" size="sm" onClick={() => void variables.refetch()}>
            Try again
          </Button>
        </div>
      ) : hasNone ? (
        <p className="rounded-lg border border-dashed border-line-strong px-3 py-2 text-sm text-fg-muted">
          No course variables yet. They appear once a course sends its first value; come back then to store
          this variable in one.
        </p>
      ) : (
        <Combobox
          id={inputId}
          label={LABEL}
          value={null}
          options={options}
          onChange={handleAdd}
          disabled={variables.isPending || isFull}
          placeholder={
            variables.isPending
              ? 'Loading course variables…'
              : isFull
                ? `At most ${MAX_DESTINATIONS} course variables`
                : 'Search course variables…'
          }
          emptyText={
            variables.data && variables.data.length > 0 && options.length === 0
              ? 'Every course variable is chosen'
              : 'No course variable matches'
          }
          invalid={Boolean(error)}
          describedBy={[hintId, error ? errorId : undefined].filter(Boolean).join(' ')}
        />
      )}
      <p id={hintId} className="text-xs text-fg-muted">
        {HINT}
      </p>
      <FieldError id={errorId} message={error} />
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
