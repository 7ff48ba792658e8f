import {
  CHATBOT_VARIABLE_TYPE_LABELS,
  CHATBOT_VARIABLE_TYPES,
  defaultQuestion,
  MAX_CHATBOT_QUESTION_LENGTH,
  MAX_CHATBOT_VARIABLE_NAME_LENGTH,
  MAX_CHATBOT_VARIABLE_TITLE_LENGTH,
  MAX_CHATBOT_VARIABLES,
  MAX_CHOICE_OPTION_LENGTH,
  MAX_CHOICE_OPTIONS,
  titleFromName,
  type ChatbotVariableType,
} from '@courselens/contracts';
import { ArrowDown, ArrowUp, Plus, Trash2, Variable, X } from 'lucide-react';
import { useId, useState } from 'react';
import {
  Controller,
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/text-field';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { emptyVariableRow, type ChatbotFormValues } from './chatbot-form-model';
import { DestinationVariablesField } from './destination-variables-field';
import { FieldError, FormSection, SelectField } from '@/components/ui/form-fields';

type RowProps = {
  control: Control<ChatbotFormValues>;
  register: UseFormRegister<ChatbotFormValues>;
  errors: FieldErrors<ChatbotFormValues>;
  index: number;
};

/** A message an errors object may hold at an array's own level (react-hook-form puts it on `root` or itself). */
function arrayMessage(
  error: { message?: string; root?: { message?: string } } | undefined,
): string | undefined {
  return error?.message ?? error?.root?.message;
}

const TYPE_HINTS: Record<ChatbotVariableType, string> = {
  text: 'Free text, such as a goal or a job title.',
  number: 'A number, such as a team size; words like “twelve” count too.',
  boolean: 'Yes or no.',
  date: 'A day, such as a start date; “next Monday” counts too.',
  choice: 'One of the options you list.',
};

function OptionsEditor({ control, register, errors, index }: RowProps) {
  const options = useFieldArray({ control, name: `variables.${index}.options` });
  const errorId = useId();
  const rowErrors = errors.variables?.[index];
  const rootMessage = arrayMessage(rowErrors?.options);
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={rootMessage ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-fg">Options</legend>
      {options.fields.length === 0 ? (
        <p className="text-sm text-fg-muted">Add at least two options for the learner to choose from.</p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {options.fields.map((field, optionIndex) => (
          <li key={field.id} className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                label={`Option ${optionIndex + 1}`}
                autoComplete="off"
                maxLength={MAX_CHOICE_OPTION_LENGTH}
                error={rowErrors?.options?.[optionIndex]?.value?.message}
                {...register(`variables.${index}.options.${optionIndex}.value`)}
              />
            </div>
            <Button
              variant="ghost"
              size="icon"
              className="mt-6.5"
              aria-label={`Remove option ${optionIndex + 1}`}
              title="Remove option"
              onClick={() => options.remove(optionIndex)}
            >
              <X aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ol>
      <FieldError id={errorId} message={rootMessage} />
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={options.fields.length >= MAX_CHOICE_OPTIONS}
          onClick={() => options.append({ value: '' }, { shouldFocus: true })}
        >
          <Plus aria-hidden="true" />
          Add option
        </Button>
      </div>
    </fieldset>
  );
}

/** The checks a value must pass, by type: bounds for a number, length and pattern for text, a period for a date. */
function ValidationFields({ register, errors, index, type }: RowProps & { type: ChatbotVariableType }) {
  const rowErrors = errors.variables?.[index];
  if (type === 'number') {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Minimum"
          labelAside="Optional"
          inputMode="decimal"
          autoComplete="off"
          error={rowErrors?.min?.message}
          {...register(`variables.${index}.min`)}
        />
        <TextField
          label="Maximum"
          labelAside="Optional"
          inputMode="decimal"
          autoComplete="off"
          error={rowErrors?.max?.message}
          {...register(`variables.${index}.max`)}
        />
      </div>
    );
  }
  if (type === 'text') {
    return (
      <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
        <TextField
          label="Maximum length"
          labelAside="Optional"
          inputMode="numeric"
          autoComplete="off"
          error={rowErrors?.maxLength?.message}
          {...register(`variables.${index}.maxLength`)}
        />
        <TextField
          label="Pattern"
          labelAside="Optional"
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-xs"
          placeholder="^[A-Z]{2}\d{4}$"
          hint="A regular expression the answer must match (case is ignored)."
          error={rowErrors?.pattern?.message}
          {...register(`variables.${index}.pattern`)}
        />
      </div>
    );
  }
  if (type === 'date') {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Earliest date"
          labelAside="Optional"
          type="date"
          error={rowErrors?.minDate?.message}
          {...register(`variables.${index}.minDate`)}
        />
        <TextField
          label="Latest date"
          labelAside="Optional"
          type="date"
          error={rowErrors?.maxDate?.message}
          {...register(`variables.${index}.maxDate`)}
        />
      </div>
    );
  }
  return null;
}

type VariableRowEditorProps = RowProps & {
  organizationId: OrganizationIdInput;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
};

function VariableRowEditor({
  control,
  register,
  errors,
  organizationId,
  index,
  count,
  onMove,
  onRemove,
}: VariableRowEditorProps) {
  // A row being removed may render once more after its values are gone.
  const row = useWatch({ control, name: `variables.${index}` }) ?? emptyVariableRow();
  const rowErrors = errors.variables?.[index];
  const headingId = useId();
  const name = row.name.trim();
  const titleFallback = name ? titleFromName(name) : 'Team size';
  const title = row.title.trim() || titleFallback;
  const position = index + 1;
  return (
    <li>
      <fieldset
        aria-labelledby={headingId}
        className="flex min-w-0 flex-col gap-4 rounded-xl border border-line p-3 sm:p-4"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="flex min-w-0 items-center gap-2 text-sm font-semibold text-fg">
            <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-surface-muted text-xs tabular-nums">
              {position}
            </span>
            <span className="truncate">
              {name ? `Variable ${position}: ${name}` : `Variable ${position}`}
            </span>
            {row.required ? null : <Badge>Optional</Badge>}
          </h3>
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Move variable ${position} up`}
              title="Move up"
              disabled={index === 0}
              onClick={() => onMove(index, index - 1)}
            >
              <ArrowUp aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Move variable ${position} down`}
              title="Move down"
              disabled={index === count - 1}
              onClick={() => onMove(index, index + 1)}
            >
              <ArrowDown aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove variable ${position}`}
              title="Remove"
              onClick={onRemove}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Name"
            autoComplete="off"
            spellCheck={false}
            maxLength={MAX_CHATBOT_VARIABLE_NAME_LENGTH}
            placeholder="team_size"
            className="font-mono text-xs"
            hint="How reports and exports name it, such as team_size."
            error={rowErrors?.name?.message}
            {...register(`variables.${index}.name`)}
          />
          <TextField
            label="Title"
            labelAside="Optional"
            autoComplete="off"
            maxLength={MAX_CHATBOT_VARIABLE_TITLE_LENGTH}
            placeholder={titleFallback}
            error={rowErrors?.title?.message}
            {...register(`variables.${index}.title`)}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
          <div className="flex flex-col gap-1.5">
            <SelectField
              label="Type"
              error={rowErrors?.type?.message}
              {...register(`variables.${index}.type`)}
            >
              {CHATBOT_VARIABLE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CHATBOT_VARIABLE_TYPE_LABELS[type]}
                </option>
              ))}
            </SelectField>
            <p className="text-xs text-fg-muted">{TYPE_HINTS[row.type]}</p>
          </div>
          <TextField
            label="Question"
            labelAside="Optional"
            autoComplete="off"
            maxLength={MAX_CHATBOT_QUESTION_LENGTH}
            placeholder={defaultQuestion(title, row.type)}
            hint="What the agent asks. Left empty, it asks the question shown."
            error={rowErrors?.question?.message}
            {...register(`variables.${index}.question`)}
          />
        </div>
        <TextField
          label="Description"
          labelAside="Optional"
          autoComplete="off"
          placeholder="What the value is for, to help the agent recognise it"
          error={rowErrors?.description?.message}
          {...register(`variables.${index}.description`)}
        />
        {row.type === 'choice' ? (
          <OptionsEditor control={control} register={register} errors={errors} index={index} />
        ) : null}
        <ValidationFields
          control={control}
          register={register}
          errors={errors}
          index={index}
          type={row.type}
        />
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-brand-600"
            {...register(`variables.${index}.required`)}
          />
          <span className="flex flex-col gap-0.5">
            <span className="font-medium text-fg">Required</span>
            <span className="text-fg-muted">
              A conversation counts as complete once every required variable is captured.
            </span>
          </span>
        </label>
        <Controller
          control={control}
          name={`variables.${index}.destinationVariableIds`}
          render={({ field }) => (
            <DestinationVariablesField
              organizationId={organizationId}
              // A row being removed may render once more after its values are gone.
              value={field.value ?? []}
              onChange={field.onChange}
              focusRef={field.ref}
              error={rowErrors?.destinationVariableIds?.message}
            />
          )}
        />
      </fieldset>
    </li>
  );
}

export type VariablesSectionProps = {
  control: Control<ChatbotFormValues>;
  register: UseFormRegister<ChatbotFormValues>;
  errors: FieldErrors<ChatbotFormValues>;
  /** Whose course variables a variable can also be stored in. */
  organizationId: OrganizationIdInput;
};

/** The variables the agent asks the learner for, in the order it asks them. */
export function VariablesSection({ control, register, errors, organizationId }: VariablesSectionProps) {
  const variables = useFieldArray({ control, name: 'variables' });
  const errorId = useId();
  // Moving a row changes nothing a screen reader would notice: this says where it went.
  const [announcement, setAnnouncement] = useState('');
  const rootMessage = arrayMessage(errors.variables);
  const isFull = variables.fields.length >= MAX_CHATBOT_VARIABLES;
  const addButton = (
    <Button
      variant="outline"
      size="sm"
      disabled={isFull}
      onClick={() =>
        variables.append(emptyVariableRow(), {
          shouldFocus: true,
          focusName: `variables.${variables.fields.length}.name`,
        })
      }
    >
      <Plus aria-hidden="true" />
      Add variable
    </Button>
  );
  return (
    <FormSection
      title="Variables to capture"
      description={`What the agent asks each learner, in this order; each answer is stored on the learner. Up to ${MAX_CHATBOT_VARIABLES}.`}
      actions={variables.fields.length > 0 ? addButton : null}
    >
      {variables.fields.length === 0 ? (
        <EmptyState icon={<Variable />} title="No variables yet" action={addButton}>
          Without variables the agent only answers questions. Add one to collect, say, a learner’s team size
          or goal.
        </EmptyState>
      ) : (
        <ol className="flex flex-col gap-4" aria-describedby={rootMessage ? errorId : undefined}>
          {variables.fields.map((field, index) => (
            <VariableRowEditor
              key={field.id}
              control={control}
              register={register}
              errors={errors}
              organizationId={organizationId}
              index={index}
              count={variables.fields.length}
              onMove={(from, to) => {
                variables.move(from, to);
                setAnnouncement(`Variable moved to position ${to + 1} of ${variables.fields.length}`);
              }}
              onRemove={() => variables.remove(index)}
            />
          ))}
        </ol>
      )}
      <FieldError id={errorId} message={rootMessage} />
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </FormSection>
  );
}
