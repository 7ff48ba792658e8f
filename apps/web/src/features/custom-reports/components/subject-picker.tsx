import {
  SUBJECT_KINDS,
  type ReportCatalog,
  type ReportSubject,
  type SubjectKind,
} from '@courselens/contracts';
import { X } from 'lucide-react';
import { Link } from 'react-router';

import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

import {
  chatbotVariableLabel,
  emptySubject,
  questionLabel,
  SUBJECT_KIND_LABELS,
  variableLabel,
} from './report-form';

export const pickerSelectClassName = cn(inputClassName, 'w-auto max-w-full min-w-0 pr-8');

/**
 * Sizes for pickers that share a sentence row: each starts at its basis and
 * grows, and one that cannot fit goes to the next line and shrinks to it.
 */
export const pickerGrow = { narrow: 'flex-[1_1_9rem]', wide: 'flex-[2_1_13rem]' } as const;

const ALL_COURSES = 'all';
const ALL_AGENTS = 'all';

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
}

export type CourseMultiPickerProps = {
  label: string;
  /** What no course chosen means ("Every course"). */
  emptyLabel: string;
  value: readonly string[];
  catalog: ReportCatalog | undefined;
  onChange: (courseIds: string[]) => void;
};

/** Courses chosen one by one from a searchable list, shown as removable chips; none chosen means all. */
export function CourseMultiPicker({ label, emptyLabel, value, catalog, onChange }: CourseMultiPickerProps) {
  const courses = catalog?.courses ?? [];
  const options: ComboboxOption[] = courses
    .filter((course) => !value.includes(course.id))
    .map((course) => ({ value: course.id, label: course.courseTitle }));
  return (
    <div className="flex min-w-0 flex-[2_1_13rem] flex-col gap-2">
      <div className="flex flex-wrap items-center gap-1.5" aria-live="polite">
        {value.length === 0 ? <span className="text-sm text-fg-muted">{emptyLabel}</span> : null}
        {value.map((id) => {
          const title = courses.find((course) => course.id === id)?.courseTitle ?? 'A deleted course';
          return (
            <span
              key={id}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-700 dark:bg-brand-400/10 dark:text-brand-200"
            >
              <span className="truncate">{title}</span>
              <button
                type="button"
                aria-label={`Remove ${title} from ${label.toLowerCase()}`}
                onClick={() => onChange(value.filter((other) => other !== id))}
                className="flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-focus dark:hover:bg-brand-400/20"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </span>
          );
        })}
      </div>
      <Combobox
        label={label}
        value={null}
        options={options}
        placeholder={options.length === 0 ? 'No other course' : 'Add a course…'}
        emptyText="No course matches"
        disabled={options.length === 0}
        onChange={(id) => onChange([...value, id])}
        className="w-full max-w-sm"
      />
    </div>
  );
}

export type SubjectPickerProps = {
  subject: ReportSubject;
  catalog: ReportCatalog | undefined;
  onChange: (subject: ReportSubject) => void;
  invalid?: boolean;
};

/**
 * What an item reads: a variable (searchable, grouped by course; a name
 * several courses share can be read in one of them or in all of them), an
 * agent variable (the same, grouped by agent), a question (searchable, or by
 * its course, slide and number), every question of some courses, or the runs
 * of some courses.
 */
export function SubjectPicker({ subject, catalog, onChange, invalid = false }: SubjectPickerProps) {
  return (
    <div className="flex min-w-0 flex-1 flex-wrap items-start gap-2">
      <select
        aria-label="What the item reads"
        className={cn(pickerSelectClassName, pickerGrow.narrow)}
        value={subject.kind}
        onChange={(event) => onChange(emptySubject(event.target.value as SubjectKind))}
      >
        {SUBJECT_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {SUBJECT_KIND_LABELS[kind]}
          </option>
        ))}
      </select>
      <SubjectDetails subject={subject} catalog={catalog} onChange={onChange} invalid={invalid} />
    </div>
  );
}

function SubjectDetails({ subject, catalog, onChange, invalid }: SubjectPickerProps) {
  switch (subject.kind) {
    case 'variable':
      return <VariableSubject subject={subject} catalog={catalog} onChange={onChange} invalid={invalid} />;
    case 'chatbot_variable':
      return (
        <ChatbotVariableSubject subject={subject} catalog={catalog} onChange={onChange} invalid={invalid} />
      );
    case 'question': {
      const options: ComboboxOption[] = (catalog?.questions ?? []).map((question) => ({
        value: question.id,
        label: questionLabel(question),
        group: question.courseTitle,
      }));
      return (
        <Combobox
          label="Question"
          value={subject.questionId || null}
          options={options}
          placeholder={options.length === 0 ? 'No questions yet' : 'Search questions…'}
          emptyText="No question matches"
          invalid={invalid}
          onChange={(questionId) => onChange({ kind: 'question', questionId })}
          className={pickerGrow.wide}
        />
      );
    }
    case 'identifier':
      return (
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            <select
              aria-label="Course of the question"
              className={cn(pickerSelectClassName, pickerGrow.wide)}
              value={subject.courseId}
              aria-invalid={invalid && !subject.courseId ? true : undefined}
              onChange={(event) => onChange({ ...subject, courseId: event.target.value })}
            >
              <option value="">Choose a course…</option>
              {(catalog?.courses ?? []).map((course) => (
                <option key={course.id} value={course.id}>
                  {course.courseTitle}
                </option>
              ))}
            </select>
            <input
              aria-label="Slide number"
              placeholder="Slide"
              inputMode="numeric"
              className={cn(inputClassName, 'w-24')}
              value={
                subject.slideNumber === null || Number.isNaN(subject.slideNumber) ? '' : subject.slideNumber
              }
              onChange={(event) => onChange({ ...subject, slideNumber: numberOrNull(event.target.value) })}
            />
            <input
              aria-label="Question number"
              placeholder="Question"
              inputMode="numeric"
              className={cn(inputClassName, 'w-24')}
              value={
                subject.questionNumber === null || Number.isNaN(subject.questionNumber)
                  ? ''
                  : subject.questionNumber
              }
              onChange={(event) => onChange({ ...subject, questionNumber: numberOrNull(event.target.value) })}
            />
          </div>
          <input
            aria-label="Question text"
            placeholder="Question text (optional)"
            className={inputClassName}
            value={subject.questionText ?? ''}
            onChange={(event) => onChange({ ...subject, questionText: event.target.value || null })}
          />
          <p className="text-xs text-fg-muted">
            Matches answers by what learners saw, so the item keeps working after the course is republished.
          </p>
        </div>
      );
    case 'questions':
    case 'courses':
      return (
        <CourseMultiPicker
          label={subject.kind === 'questions' ? 'Courses of the questions' : 'Courses of the runs'}
          emptyLabel="Every course"
          value={subject.courseIds}
          catalog={catalog}
          onChange={(courseIds) => onChange({ kind: subject.kind, courseIds })}
        />
      );
  }
}

function VariableSubject({
  subject,
  catalog,
  onChange,
  invalid,
}: SubjectPickerProps & { subject: Extract<ReportSubject, { kind: 'variable' }> }) {
  const variables = catalog?.variables ?? [];
  const chosen = variables.filter((variable) => subject.variableIds.includes(variable.id));
  const first = chosen[0];
  // One item reads values of one type: a same-named variable of another type is not offered.
  const sameName = first
    ? variables.filter((variable) => variable.name === first.name && variable.dataType === first.dataType)
    : [];
  const options: ComboboxOption[] = variables.map((variable) => ({
    value: variable.id,
    label: variableLabel(variable),
    hint: [variableLabel(variable) === variable.name ? null : variable.name, variable.dataType]
      .filter(Boolean)
      .join(' · '),
    group: variable.courseTitle,
  }));
  return (
    <>
      <Combobox
        label="Variable"
        value={first?.id ?? null}
        options={options}
        placeholder={options.length === 0 ? 'No variables yet' : 'Search variables…'}
        emptyText="No variable matches"
        invalid={invalid}
        onChange={(variableId) => onChange({ kind: 'variable', variableIds: [variableId] })}
        className={pickerGrow.wide}
      />
      {first && sameName.length > 1 ? (
        <select
          aria-label="Courses of the variable"
          className={cn(pickerSelectClassName, pickerGrow.narrow)}
          value={chosen.length > 1 ? ALL_COURSES : first.id}
          onChange={(event) =>
            onChange({
              kind: 'variable',
              variableIds:
                event.target.value === ALL_COURSES
                  ? [first.id, ...sameName.filter((variable) => variable.id !== first.id).map((v) => v.id)]
                  : [event.target.value],
            })
          }
        >
          {sameName.map((variable) => (
            <option key={variable.id} value={variable.id}>
              in {variable.courseTitle}
            </option>
          ))}
          <option value={ALL_COURSES}>in all {sameName.length} courses with it</option>
        </select>
      ) : null}
    </>
  );
}

function ChatbotVariableSubject({
  subject,
  catalog,
  onChange,
  invalid,
}: SubjectPickerProps & { subject: Extract<ReportSubject, { kind: 'chatbot_variable' }> }) {
  const variables = catalog?.chatbotVariables ?? [];
  const chosen = variables.filter((variable) => subject.chatbotVariableIds.includes(variable.id));
  const first = chosen[0];
  // One item reads values of one type: a same-named variable of another type is not offered.
  const sameName = first
    ? variables.filter((variable) => variable.name === first.name && variable.dataType === first.dataType)
    : [];
  if (catalog && variables.length === 0) {
    return (
      <p className={cn(pickerGrow.wide, 'py-2 text-sm text-fg-muted')} data-testid="no-agent-variables">
        No agent variables yet: the values an agent captures in its chats appear here.{' '}
        <Link
          to={paths.chatbots.create.href()}
          className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          Create an agent
        </Link>
      </p>
    );
  }
  const options: ComboboxOption[] = variables.map((variable) => ({
    value: variable.id,
    label: chatbotVariableLabel(variable),
    hint: [variableLabel(variable) === variable.name ? null : variable.name, variable.dataType]
      .filter(Boolean)
      .join(' · '),
    group: variable.chatbotName,
  }));
  return (
    <>
      <Combobox
        label="Agent variable"
        value={first?.id ?? null}
        options={options}
        placeholder="Search agent variables…"
        emptyText="No agent variable matches"
        invalid={invalid}
        onChange={(id) => onChange({ kind: 'chatbot_variable', chatbotVariableIds: [id] })}
        className={pickerGrow.wide}
      />
      {first && sameName.length > 1 ? (
        <select
          aria-label="Agents of the variable"
          className={cn(pickerSelectClassName, pickerGrow.narrow)}
          value={chosen.length > 1 ? ALL_AGENTS : first.id}
          onChange={(event) =>
            onChange({
              kind: 'chatbot_variable',
              chatbotVariableIds:
                event.target.value === ALL_AGENTS
                  ? [first.id, ...sameName.filter((variable) => variable.id !== first.id).map((v) => v.id)]
                  : [event.target.value],
            })
          }
        >
          {sameName.map((variable) => (
            <option key={variable.id} value={variable.id}>
              in {variable.chatbotName}
            </option>
          ))}
          <option value={ALL_AGENTS}>in all {sameName.length} agents with it</option>
        </select>
      ) : null}
    </>
  );
}
