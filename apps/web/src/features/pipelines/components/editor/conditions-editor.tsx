import {
  CONDITION_FIELD_NAMES,
  CONDITION_FIELDS,
  CONDITION_OPERATOR_LABELS,
  CONDITION_OPERATORS,
  COURSE_TRIGGER_EVENTS,
  COURSE_TRIGGER_LABELS,
  MAX_CONDITIONS,
  VALUELESS_OPERATORS,
  conditionSchema,
  type ConditionField,
  type ConditionOperator,
} from '@courselens/contracts';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Combobox } from '@/components/ui/combobox';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import type { CourseOption, VariableOption } from '../../api/get-editor-options';

/** A condition as the form holds it: possibly unfinished. */
export type DraftCondition = {
  field?: ConditionField;
  op?: ConditionOperator;
  value?: string | number | boolean | (string | number | boolean)[];
  variableName?: string;
  eventType?: string;
};

const NUMERIC_FIELDS: readonly ConditionField[] = [
  'event.score',
  'event.slide',
  'event.percent',
  'learner.count',
];
const TEXT_OPERATORS: readonly ConditionOperator[] = ['contains', 'not_contains', 'ends_with'];

/** The operators that make sense for a field (text operators on numbers read oddly, and the reverse). */
export function operatorsFor(field: ConditionField | undefined): ConditionOperator[] {
  if (field === 'event.correct') return ['eq', 'neq', 'exists', 'not_exists'];
  if (field === 'learner.count') return ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
  if (field === 'event.type' || field === 'course.id') return ['eq', 'neq', 'in'];
  if (field && NUMERIC_FIELDS.includes(field))
    return CONDITION_OPERATORS.filter((op) => !TEXT_OPERATORS.includes(op));
  return [...CONDITION_OPERATORS];
}

/** The problem of one condition in the contract's words, or null. */
export function conditionError(condition: DraftCondition): string | null {
  const parsed = conditionSchema.safeParse(condition);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

function toNumberIfNumeric(text: string): string | number {
  const trimmed = text.trim();
  return trimmed !== '' && !Number.isNaN(Number(trimmed)) ? Number(trimmed) : text;
}

export type ConditionsEditorProps = {
  conditions: readonly DraftCondition[];
  onChange: (conditions: DraftCondition[], coalesce?: string) => void;
  courses: readonly CourseOption[];
  variables: readonly VariableOption[];
  /** Names the fields ("Condition 2 value") so each is told apart in a long form. */
  idPrefix: string;
};

/**
 * The conditions of a filter or a branch: what to look at, how to compare,
 * and with what. `learner.variable` asks which variable, `learner.count`
 * which event is counted. Each row says its own problem.
 */
export function ConditionsEditor({
  conditions,
  onChange,
  courses,
  variables,
  idPrefix,
}: ConditionsEditorProps) {
  function update(index: number, patch: Partial<DraftCondition>, coalesce?: string) {
    onChange(
      conditions.map((condition, i) => (i === index ? { ...condition, ...patch } : condition)),
      coalesce,
    );
  }

  function handleFieldChange(index: number, field: ConditionField) {
    const current = conditions[index] ?? {};
    const ops = operatorsFor(field);
    const op = current.op && ops.includes(current.op) ? current.op : ops[0];
    // A value for another field means nothing here.
    onChange(
      conditions.map((condition, i) =>
        i === index
          ? {
              field,
              op,
              ...(field === 'event.correct' ? { value: true } : {}),
              ...(field === 'event.type' ? { value: 'course.completed' } : {}),
            }
          : condition,
      ),
    );
  }

  const variableNames = [...new Map(variables.map((variable) => [variable.name, variable])).values()];

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-2 text-sm font-medium text-fg">Conditions</legend>
      {conditions.length === 0 ? <p className="text-sm text-fg-muted">No condition yet.</p> : null}
      <ol className="flex flex-col gap-3">
        {conditions.map((condition, index) => {
          const number = index + 1;
          const name = `Condition ${number}`;
          const error = conditionError(condition);
          const errorId = `${idPrefix}-condition-${number}-error`;
          const isValueless = condition.op !== undefined && VALUELESS_OPERATORS.includes(condition.op);
          const isList = condition.op === 'in';
          const isNumeric = condition.field !== undefined && NUMERIC_FIELDS.includes(condition.field);
          return (
            <li
              key={index}
              className="flex min-w-0 flex-col gap-2 rounded-lg border border-line bg-surface-muted/40 p-2.5"
              aria-label={name}
            >
              <div className="flex items-center justify-between gap-2">
                <span className="text-xs font-semibold text-fg-subtle">{name}</span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2"
                  aria-label={`Remove condition ${number}`}
                  onClick={() => onChange(conditions.filter((_, i) => i !== index))}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
              <select
                aria-label={`${name} field`}
                value={condition.field ?? ''}
                onChange={(event) => handleFieldChange(index, event.target.value as ConditionField)}
                className={inputClassName}
              >
                {condition.field ? null : <option value="">Choose what to look at</option>}
                {CONDITION_FIELD_NAMES.map((field) => (
                  <option key={field} value={field}>
                    {CONDITION_FIELDS[field]}
                  </option>
                ))}
              </select>
              {condition.field === 'learner.variable' ? (
                <Combobox
                  label={`${name} variable`}
                  value={condition.variableName ?? null}
                  options={variableNames.map((variable) => ({
                    value: variable.name,
                    label: variable.name,
                    hint: variable.title ?? undefined,
                  }))}
                  placeholder="Search variables…"
                  emptyText="No variable matches"
                  invalid={!condition.variableName}
                  onChange={(variableName) => update(index, { variableName })}
                />
              ) : null}
              {condition.field === 'learner.count' ? (
                <select
                  aria-label={`${name} counted event`}
                  value={condition.eventType ?? ''}
                  onChange={(event) => update(index, { eventType: event.target.value || undefined })}
                  className={inputClassName}
                >
                  <option value="">Choose what is counted</option>
                  {COURSE_TRIGGER_EVENTS.map((type) => (
                    <option key={type} value={type}>
                      {COURSE_TRIGGER_LABELS[type]}
                    </option>
                  ))}
                </select>
              ) : null}
              <div className="flex min-w-0 gap-2">
                <select
                  aria-label={`${name} operator`}
                  value={condition.op ?? ''}
                  onChange={(event) => {
                    const op = event.target.value as ConditionOperator;
                    const value = condition.value;
                    // Moving to or from "is one of" turns the value into a list or back.
                    const nextValue =
                      op === 'in'
                        ? value === undefined || Array.isArray(value)
                          ? value
                          : [value]
                        : Array.isArray(value)
                          ? value[0]
                          : value;
                    update(index, { op, value: VALUELESS_OPERATORS.includes(op) ? undefined : nextValue });
                  }}
                  className={cn(inputClassName, isValueless ? 'flex-1' : 'w-40 shrink-0')}
                >
                  {condition.op ? null : <option value="">Compare</option>}
                  {operatorsFor(condition.field).map((op) => (
                    <option key={op} value={op}>
                      {CONDITION_OPERATOR_LABELS[op]}
                    </option>
                  ))}
                </select>
                {isValueless ? null : (
                  <ConditionValue
                    condition={condition}
                    label={`${name} value`}
                    isList={isList}
                    isNumeric={isNumeric}
                    courses={courses}
                    describedBy={error ? errorId : undefined}
                    onChange={(value, coalesce) => update(index, { value }, coalesce)}
                    coalesceKey={`${idPrefix}-condition-${index}-value`}
                  />
                )}
              </div>
              {error ? (
                <p id={errorId} className="text-xs text-rose-600 dark:text-rose-400">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        disabled={conditions.length >= MAX_CONDITIONS}
        onClick={() => onChange([...conditions, { field: 'event.score', op: 'gte' }])}
      >
        <Plus aria-hidden="true" />
        Add condition
      </Button>
    </fieldset>
  );
}

type ConditionValueProps = {
  condition: DraftCondition;
  label: string;
  isList: boolean;
  isNumeric: boolean;
  courses: readonly CourseOption[];
  describedBy: string | undefined;
  onChange: (value: DraftCondition['value'], coalesce?: string) => void;
  coalesceKey: string;
};

function ConditionValue({
  condition,
  label,
  isList,
  isNumeric,
  courses,
  describedBy,
  onChange,
  coalesceKey,
}: ConditionValueProps) {
  const className = cn(inputClassName, 'min-w-0 flex-1');
  const invalid = describedBy ? true : undefined;
  if (condition.field === 'event.correct') {
    return (
      <select
        aria-label={label}
        value={String(condition.value ?? true)}
        onChange={(event) => onChange(event.target.value === 'true')}
        className={className}
      >
        <option value="true">Correct</option>
        <option value="false">Incorrect</option>
      </select>
    );
  }
  if (!isList && condition.field === 'event.type') {
    return (
      <select
        aria-label={label}
        value={typeof condition.value === 'string' ? condition.value : ''}
        onChange={(event) => onChange(event.target.value)}
        className={className}
      >
        {COURSE_TRIGGER_EVENTS.map((type) => (
          <option key={type} value={type}>
            {COURSE_TRIGGER_LABELS[type]}
          </option>
        ))}
      </select>
    );
  }
  if (!isList && condition.field === 'course.id') {
    return (
      <select
        aria-label={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        value={typeof condition.value === 'string' ? condition.value : ''}
        onChange={(event) => onChange(event.target.value || undefined)}
        className={className}
      >
        <option value="">Choose a course</option>
        {courses.map((course) => (
          <option key={course.id} value={course.id}>
            {course.title}
          </option>
        ))}
      </select>
    );
  }
  if (isList) {
    return (
      <ParsedInput
        label={label}
        describedBy={describedBy}
        placeholder="Values, separated by commas"
        value={condition.value}
        format={(value) => (Array.isArray(value) ? value.join(', ') : '')}
        parse={(text) => {
          const parts = text
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
            .map((part) => (isNumeric ? toNumberIfNumeric(part) : part));
          return parts.length > 0 ? parts : undefined;
        }}
        onChange={(value) => onChange(value, coalesceKey)}
        className={className}
      />
    );
  }
  return (
    <ParsedInput
      label={label}
      describedBy={describedBy}
      placeholder={isNumeric ? 'Number' : 'Value'}
      inputMode={isNumeric ? 'decimal' : undefined}
      value={condition.value}
      format={(value) => (value === undefined || Array.isArray(value) ? '' : String(value))}
      parse={(text) => (text.trim() === '' ? undefined : isNumeric ? toNumberIfNumeric(text) : text)}
      onChange={(value) => onChange(value, coalesceKey)}
      className={className}
    />
  );
}

type ParsedInputProps = {
  label: string;
  describedBy: string | undefined;
  placeholder: string;
  inputMode?: 'decimal';
  value: DraftCondition['value'];
  format: (value: DraftCondition['value']) => string;
  parse: (text: string) => DraftCondition['value'];
  onChange: (value: DraftCondition['value']) => void;
  className: string;
};

/**
 * A text field whose value is parsed (a number, a list): it keeps what is
 * typed ("8.", "a, ") while it parses to the same value, and shows the
 * value anew when it changes from elsewhere (undo, another version).
 */
function ParsedInput({
  label,
  describedBy,
  placeholder,
  inputMode,
  value,
  format,
  parse,
  onChange,
  className,
}: ParsedInputProps) {
  const [text, setText] = useState(() => format(value));
  const [shown, setShown] = useState(value);
  if (!Object.is(shown, value) && JSON.stringify(parse(text)) !== JSON.stringify(value)) {
    setShown(value);
    setText(format(value));
  }
  return (
    <input
      type="text"
      inputMode={inputMode}
      aria-label={label}
      aria-invalid={describedBy ? true : undefined}
      aria-describedby={describedBy}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        const next = parse(event.target.value);
        setText(event.target.value);
        setShown(next);
        onChange(next);
      }}
      className={className}
    />
  );
}
