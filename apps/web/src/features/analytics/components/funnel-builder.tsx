import {
  FUNNEL_ANY_COURSE_KINDS,
  FUNNEL_ORDER_LABELS,
  FUNNEL_ORDERS,
  FUNNEL_STEP_KIND_LABELS,
  FUNNEL_STEP_KINDS,
  MAX_FUNNEL_BREAKDOWN_GROUPS,
  MAX_FUNNEL_STEPS,
  MIN_FUNNEL_STEPS,
  type FunnelOrder,
  type FunnelStepKind,
} from '@courselens/contracts';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useId, useRef } from 'react';

import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/form-fields';
import { InfoTip } from '@/components/ui/info-tip';
import { TextField } from '@/components/ui/text-field';
import type { OrganizationIdInput } from '@/lib/query-keys';

import {
  useFunnelQuestionOptions,
  useFunnelVariableNames,
  useFunnelVariableOptions,
} from '../api/get-funnel-pickers';
import { emptyStep, moveStep, type DraftStep, type FunnelDraft } from './funnel-draft';

export type FunnelCourseOption = { id: string; title: string };

export type FunnelBuilderProps = {
  organizationId: OrganizationIdInput;
  draft: FunnelDraft;
  onChange: (draft: FunnelDraft) => void;
  courses: readonly FunnelCourseOption[];
  /** The settings' window, shown as the default. */
  defaultWindowDays: number;
  /** Problems by field path (`steps.1.slideNumber`), from `draftProblems`. */
  problems: Record<string, string>;
};

const ORDER_SHORT: Record<FunnelOrder, string> = {
  sequential: 'Sequential',
  strict: 'Strict',
  any: 'Any order',
};

/**
 * The funnel's definition: its course, steps (added, removed and moved with
 * buttons, so the keyboard does all of it), step order, window and
 * breakdown. Each step picks its event, its course, and the slide,
 * question or variable the event must name.
 */
export function FunnelBuilder({
  organizationId,
  draft,
  onChange,
  courses,
  defaultWindowDays,
  problems,
}: FunnelBuilderProps) {
  const stepListRef = useRef<HTMLOListElement>(null);
  const variableNames = useFunnelVariableNames(draft.breakdown.kind === 'variable' ? organizationId : null);
  const namesListId = useId();
  const funnelCourseTitle = courses.find((course) => course.id === draft.courseId)?.title ?? null;

  function update(patch: Partial<FunnelDraft>) {
    onChange({ ...draft, ...patch });
  }
  function updateStep(index: number, patch: Partial<DraftStep>) {
    update({
      steps: draft.steps.map((step, position) => (position === index ? { ...step, ...patch } : step)),
    });
  }
  function handleMove(index: number, to: number) {
    update({ steps: moveStep(draft.steps, index, to) });
    // Keep the keyboard on the moved step's same button.
    const direction = to < index ? 'up' : 'down';
    requestAnimationFrame(() => {
      const button = stepListRef.current?.querySelector<HTMLButtonElement>(
        `[data-step-index="${to}"][data-move="${direction}"]`,
      );
      (button && !button.disabled
        ? button
        : stepListRef.current?.querySelector<HTMLElement>(`[data-step-index="${to}"] select`)
      )?.focus();
    });
  }
  function handleRemove(index: number) {
    update({ steps: draft.steps.filter((_, position) => position !== index) });
  }
  function handleAdd() {
    update({ steps: [...draft.steps, emptyStep('question_answered')] });
    requestAnimationFrame(() => {
      stepListRef.current
        ?.querySelector<HTMLSelectElement>(`[data-step-index="${draft.steps.length}"] select`)
        ?.focus();
    });
  }

  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          label="Course"
          value={draft.courseId}
          onChange={(event) => update({ courseId: event.target.value })}
          error={problems.courseId}
        >
          <option value="">Several courses (each step names its own)</option>
          {courses.map((course) => (
            <option key={course.id} value={course.id}>
              {course.title}
            </option>
          ))}
        </SelectField>
        <div className="flex flex-col gap-1.5">
          <SelectField
            label="Step order"
            value={draft.order}
            onChange={(event) => update({ order: event.target.value as FunnelOrder })}
          >
            {FUNNEL_ORDERS.map((order) => (
              <option key={order} value={order}>
                {ORDER_SHORT[order]}
              </option>
            ))}
          </SelectField>
          <p className="flex items-start gap-1 text-xs text-fg-muted">
            <span>{FUNNEL_ORDER_LABELS[draft.order]}</span>
            <InfoTip label="How the step orders count">
              Sequential: each step after the previous one, anything in between. Strict: the learner’s next
              event that matches any step must be the next step (answering the same question again is
              skipped). Any order: steps count as “k steps done” within the window, whatever their order.
            </InfoTip>
          </p>
        </div>
        <TextField
          label="Conversion window (days)"
          inputMode="numeric"
          value={draft.windowDays}
          placeholder={`${defaultWindowDays} (settings default)`}
          onChange={(event) => update({ windowDays: event.target.value })}
          error={problems.windowDays}
          hint="Every step must happen within this many days of step 1."
        />
      </div>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-fg">
          Steps{' '}
          <span className="font-normal text-fg-muted">
            ({draft.steps.length} of at most {MAX_FUNNEL_STEPS})
          </span>
        </legend>
        {problems.steps ? <p className="text-sm text-rose-600 dark:text-rose-400">{problems.steps}</p> : null}
        <ol ref={stepListRef} className="flex flex-col gap-3">
          {draft.steps.map((step, index) => (
            <FunnelStepEditor
              key={step.key}
              organizationId={organizationId}
              step={step}
              index={index}
              count={draft.steps.length}
              courses={courses}
              funnelCourseId={draft.courseId}
              funnelCourseTitle={funnelCourseTitle}
              problems={problems}
              onChange={(patch) => updateStep(index, patch)}
              onMove={(to) => handleMove(index, to)}
              onRemove={() => handleRemove(index)}
            />
          ))}
        </ol>
        <div>
          <Button variant="outline" onClick={handleAdd} disabled={draft.steps.length >= MAX_FUNNEL_STEPS}>
            <Plus aria-hidden="true" />
            Add step
          </Button>
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          label="Break down by"
          value={draft.breakdown.kind}
          onChange={(event) =>
            update({
              breakdown: { ...draft.breakdown, kind: event.target.value as FunnelDraft['breakdown']['kind'] },
            })
          }
        >
          <option value="none">Nothing</option>
          <option value="course">Course of step 1</option>
          <option value="variable">A learner variable (latest value)</option>
        </SelectField>
        {draft.breakdown.kind === 'variable' ? (
          <>
            <TextField
              label="Variable name"
              list={namesListId}
              value={draft.breakdown.variableName}
              placeholder="department"
              onChange={(event) =>
                update({ breakdown: { ...draft.breakdown, variableName: event.target.value } })
              }
              error={problems.breakdown}
              hint="Each learner’s latest value of every variable with this name."
            />
            <datalist id={namesListId}>
              {(variableNames.data ?? []).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </>
        ) : null}
        {draft.breakdown.kind !== 'none' ? (
          <SelectField
            label="Groups shown"
            value={String(draft.breakdown.top)}
            onChange={(event) =>
              update({ breakdown: { ...draft.breakdown, top: Number(event.target.value) } })
            }
          >
            {Array.from({ length: MAX_FUNNEL_BREAKDOWN_GROUPS }, (_, index) => index + 1).map((top) => (
              <option key={top} value={top}>
                Top {top}, the rest as Other
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
    </div>
  );
}

type FunnelStepEditorProps = {
  organizationId: OrganizationIdInput;
  step: DraftStep;
  index: number;
  count: number;
  courses: readonly FunnelCourseOption[];
  funnelCourseId: string;
  funnelCourseTitle: string | null;
  problems: Record<string, string>;
  onChange: (patch: Partial<DraftStep>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
};

function FunnelStepEditor({
  organizationId,
  step,
  index,
  count,
  courses,
  funnelCourseId,
  funnelCourseTitle,
  problems,
  onChange,
  onMove,
  onRemove,
}: FunnelStepEditorProps) {
  const courseId = step.courseId || funnelCourseId || null;
  const questions = useFunnelQuestionOptions(
    organizationId,
    step.kind === 'question_answered' ? courseId : null,
  );
  const variables = useFunnelVariableOptions(organizationId, step.kind === 'variable_set' ? courseId : null);
  const problem = (field: string) => problems[`steps.${index}.${field}`];
  const position = index + 1;
  const inheritedLabel = funnelCourseTitle
    ? `Funnel course (${funnelCourseTitle})`
    : FUNNEL_ANY_COURSE_KINDS.includes(step.kind)
      ? 'Any course'
      : 'Choose a course';

  function handleKind(kind: FunnelStepKind) {
    onChange({ kind, slideNumber: '', questionId: '', variableId: '', value: '' });
  }

  return (
    <li
      data-step-index={index}
      className="rounded-xl border border-line bg-surface p-3 sm:p-4"
      aria-label={`Step ${position}`}
    >
      <div className="flex flex-wrap items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700 sm:mt-7 dark:bg-brand-400/10 dark:text-brand-300"
        >
          {position}
        </span>
        {/* On a phone the fields take a row of their own under the number and the actions; wider, as many
            columns as fit with their labels whole. */}
        <div className="order-last grid min-w-0 basis-full grid-cols-[repeat(auto-fit,minmax(min(100%,11rem),1fr))] gap-3 sm:order-none sm:flex-1 sm:basis-0">
          <SelectField
            label={`Step ${position} event`}
            value={step.kind}
            onChange={(event) => handleKind(event.target.value as FunnelStepKind)}
          >
            {FUNNEL_STEP_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {FUNNEL_STEP_KIND_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={`Step ${position} course`}
            value={step.courseId}
            onChange={(event) => onChange({ courseId: event.target.value, questionId: '', variableId: '' })}
            error={problem('courseId')}
          >
            <option value="">{inheritedLabel}</option>
            {courses.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </SelectField>
          {step.kind === 'slide_viewed' ? (
            <TextField
              label={`Step ${position} slide number`}
              inputMode="numeric"
              value={step.slideNumber}
              onChange={(event) => onChange({ slideNumber: event.target.value })}
              error={problem('slideNumber')}
            />
          ) : null}
          {step.kind === 'question_answered' ? (
            <SelectField
              label={`Step ${position} question`}
              value={step.questionId}
              onChange={(event) => onChange({ questionId: event.target.value })}
              disabled={!courseId}
              error={problem('questionId')}
            >
              <option value="">{questions.isLoading ? 'Loading questions…' : 'Any question'}</option>
              {(questions.data ?? []).map((question) => (
                <option key={question.id} value={question.id}>
                  {questionOptionLabel(question)}
                </option>
              ))}
            </SelectField>
          ) : null}
          {step.kind === 'variable_set' ? (
            <>
              <SelectField
                label={`Step ${position} variable`}
                value={step.variableId}
                onChange={(event) => onChange({ variableId: event.target.value })}
                disabled={!courseId}
                error={problem('variableId')}
              >
                <option value="">{variables.isLoading ? 'Loading variables…' : 'Choose a variable'}</option>
                {(variables.data ?? []).map((variable) => (
                  <option key={variable.id} value={variable.id}>
                    {variable.title?.trim() || variable.name}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={`Step ${position} value`}
                value={step.value}
                placeholder="Any value"
                onChange={(event) => onChange({ value: event.target.value })}
                error={problem('value')}
              />
            </>
          ) : null}
        </div>
        <div
          className="ml-auto flex shrink-0 gap-1 sm:mt-6"
          role="group"
          aria-label={`Step ${position} actions`}
        >
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move step ${position} up`}
            data-step-index={index}
            data-move="up"
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move step ${position} down`}
            data-step-index={index}
            data-move="down"
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove step ${position}`}
            disabled={count <= MIN_FUNNEL_STEPS}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
    </li>
  );
}

export function questionOptionLabel(question: {
  slideNumber: number | null;
  questionNumber: number | null;
  text: string | null;
  interactionId: string;
}): string {
  const place = [
    question.slideNumber !== null ? `Slide ${question.slideNumber}` : null,
    question.questionNumber !== null ? `Q${question.questionNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const text = question.text?.trim() || question.interactionId;
  const short = text.length > 70 ? `${text.slice(0, 69)}…` : text;
  return place ? `${place}: ${short}` : short;
}
