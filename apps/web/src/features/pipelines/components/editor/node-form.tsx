import {
  ACTION_TYPE_LABELS,
  CHATBOT_TRIGGER_EVENTS,
  COURSE_TRIGGER_EVENTS,
  COURSE_TRIGGER_LABELS,
  DELAY_UNITS,
  PIPELINE_NODE_DATA,
  PIPELINE_NODE_DESCRIPTIONS,
  PIPELINE_NODE_LABELS,
} from '@courselens/contracts';
import { ExternalLink, Plus, Trash2, X } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Combobox } from '@/components/ui/combobox';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { timeZones } from '@/lib/time-zones';

import type { EditorOptions } from '../../api/get-editor-options';

import { ConditionsEditor, type DraftCondition } from './conditions-editor';
import { Field } from './field';
import { CHATBOT_TRIGGER_LABELS, EDITOR_MESSAGES, type EditorNode } from './graph-model';
import { CATEGORY_TILE, NODE_ICONS, nodeCategory } from './node-visuals';

export type NodeDataUpdate = (data: Record<string, unknown>) => Record<string, unknown>;

export type NodeFormProps = {
  node: EditorNode;
  options: Pick<EditorOptions, 'courses' | 'variables' | 'actions' | 'chatbots'>;
  onChange: (update: NodeDataUpdate, coalesce?: string) => void;
  onRemove: () => void;
  /** Read-only while a version is only being looked at, or the person may not edit. */
  isReadOnly?: boolean;
};

/** The first problem of each field of the node's data, by field name ('' for the node as a whole). */
export function fieldProblems(node: EditorNode): Map<string, string> {
  const problems = new Map<string, string>();
  const parsed = PIPELINE_NODE_DATA[node.type].safeParse(node.data);
  if (parsed.success) return problems;
  for (const issue of parsed.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '';
    if (!problems.has(key)) problems.set(key, issue.message);
  }
  return problems;
}

const SCHEDULE_PRESETS = [
  { cron: '0 8 * * *', label: 'Every day at 8 in the morning' },
  { cron: '0 8 * * 1', label: 'Every Monday at 8 in the morning' },
  { cron: '0 8 1 * *', label: 'On the first of each month at 8' },
  { cron: '0 * * * *', label: 'Every hour, on the hour' },
] as const;

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The form of the selected node: what it listens to, checks, waits for or
 * runs, with the organization's real courses, agents, variables and actions. Every
 * change is a step of the editor's undo history (typing in one field is one
 * step).
 */
export function NodeForm({ node, options, onChange, onRemove, isReadOnly = false }: NodeFormProps) {
  const Icon = NODE_ICONS[node.type];
  const problems = fieldProblems(node);
  const set = (key: string, value: unknown, coalesce?: string) =>
    onChange((data) => {
      const next = { ...data };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    }, coalesce);
  const key = (field: string) => `${node.id}:${field}`;

  return (
    <fieldset disabled={isReadOnly} className="flex min-w-0 flex-col gap-4">
      <legend className="sr-only">{`${PIPELINE_NODE_LABELS[node.type]} ${node.id}`}</legend>
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className={cn(
            'flex size-9 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4.5',
            CATEGORY_TILE[nodeCategory(node.type)],
          )}
        >
          <Icon />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="text-base font-semibold text-fg">{PIPELINE_NODE_LABELS[node.type]}</h3>
          <p className="text-xs text-fg-muted">{PIPELINE_NODE_DESCRIPTIONS[node.type]}</p>
        </div>
      </div>

      <Field
        label="Name on the canvas"
        labelAside="Optional"
        hint={`Shown instead of “${PIPELINE_NODE_LABELS[node.type]}”.`}
      >
        {({ id, describedBy }) => (
          <input
            id={id}
            aria-describedby={describedBy}
            type="text"
            maxLength={100}
            placeholder={PIPELINE_NODE_LABELS[node.type]}
            value={asString(node.data.label)}
            onChange={(event) => set('label', event.target.value || undefined, key('label'))}
            className={inputClassName}
          />
        )}
      </Field>

      {node.type === 'course' ? (
        <CourseFields node={node} options={options} problems={problems} set={set} />
      ) : null}
      {node.type === 'chatbot' ? (
        <ChatbotFields node={node} options={options} problems={problems} set={set} />
      ) : null}
      {node.type === 'schedule' ? (
        <>
          <Field
            label="Schedule"
            error={problems.get('cron')}
            hint="Five cron fields: minute, hour, day of the month, month, day of the week."
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                type="text"
                spellCheck={false}
                placeholder="Minute hour day month weekday"
                value={asString(node.data.cron)}
                onChange={(event) => set('cron', event.target.value, key('cron'))}
                className={cn(inputClassName, 'font-mono')}
              />
            )}
          </Field>
          <div className="flex flex-wrap gap-1.5" role="group" aria-label="Common schedules">
            {SCHEDULE_PRESETS.map((preset) => (
              <Button
                key={preset.cron}
                variant="outline"
                size="sm"
                aria-pressed={node.data.cron === preset.cron}
                onClick={() => set('cron', preset.cron)}
              >
                {preset.label}
              </Button>
            ))}
          </div>
          <Field
            label="Time zone"
            labelAside="Optional"
            error={problems.get('timeZone')}
            hint={problems.get('timeZone') ? undefined : 'Your organization’s time zone when empty.'}
          >
            {({ id, describedBy, invalid }) => (
              <>
                <input
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  type="text"
                  list={`${id}-zones`}
                  placeholder="Organization time zone"
                  value={asString(node.data.timeZone)}
                  onChange={(event) => set('timeZone', event.target.value || undefined, key('timeZone'))}
                  className={inputClassName}
                />
                <datalist id={`${id}-zones`}>
                  {timeZones().map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </>
      ) : null}
      {node.type === 'manual' ? (
        <p className="rounded-lg bg-surface-muted px-3 py-2 text-sm text-fg-muted">
          A pipeline with this source gets a <strong className="font-medium text-fg">Run now</strong> button
          on its Runs tab, optionally for one learner.
        </p>
      ) : null}
      {node.type === 'filter' || node.type === 'branch' ? (
        <>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">
              {node.type === 'filter' ? 'Go on when' : 'Go the “yes” way when'}
            </legend>
            <div className="flex flex-wrap gap-4">
              {(['all', 'any'] as const).map((match) => (
                <label key={match} className="flex items-center gap-2 text-sm text-fg">
                  <input
                    type="radio"
                    name={`${node.id}-match`}
                    value={match}
                    checked={(node.data.match ?? 'all') === match}
                    onChange={() => set('match', match)}
                    className="size-4 accent-brand-600"
                  />
                  {match === 'all' ? 'Every condition holds' : 'Any condition holds'}
                </label>
              ))}
            </div>
          </fieldset>
          <ConditionsEditor
            idPrefix={node.id}
            conditions={Array.isArray(node.data.conditions) ? (node.data.conditions as DraftCondition[]) : []}
            courses={options.courses}
            variables={options.variables}
            onChange={(conditions, coalesce) => set('conditions', conditions, coalesce)}
          />
          {problems.get('conditions') && (node.data.conditions as unknown[] | undefined)?.length === 0 ? (
            <p className="text-sm text-rose-600 dark:text-rose-400">{problems.get('conditions')}</p>
          ) : null}
        </>
      ) : null}
      {node.type === 'delay' ? (
        <Field label="Wait" error={problems.get('amount') ?? problems.get('')}>
          {({ id, describedBy, invalid }) => (
            <div className="flex gap-2">
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                type="number"
                min={1}
                step={1}
                value={typeof node.data.amount === 'number' ? node.data.amount : ''}
                onChange={(event) =>
                  set(
                    'amount',
                    event.target.value === '' ? undefined : Number(event.target.value),
                    key('amount'),
                  )
                }
                className={cn(inputClassName, 'w-28')}
              />
              <select
                aria-label="Unit"
                value={asString(node.data.unit) || 'minutes'}
                onChange={(event) => set('unit', event.target.value)}
                className={cn(inputClassName, 'flex-1')}
              >
                {DELAY_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Field>
      ) : null}
      {node.type === 'map_variables' ? (
        <MapVariablesFields node={node} options={options} problems={problems} set={set} />
      ) : null}
      {node.type === 'action' ? (
        <ActionFields node={node} options={options} problems={problems} set={set} />
      ) : null}

      {isReadOnly ? null : (
        <Button variant="outline" className="self-start text-rose-700 dark:text-rose-300" onClick={onRemove}>
          <Trash2 aria-hidden="true" />
          Remove this node
        </Button>
      )}
    </fieldset>
  );
}

type FieldsProps = {
  node: EditorNode;
  options: NodeFormProps['options'];
  problems: Map<string, string>;
  set: (key: string, value: unknown, coalesce?: string) => void;
};

function CourseFields({ node, options, problems, set }: FieldsProps) {
  const events = Array.isArray(node.data.events)
    ? (node.data.events as string[])
    : [...COURSE_TRIGGER_EVENTS];
  const courseId = asString(node.data.courseId);
  const known = options.courses.some((course) => course.id === courseId);
  return (
    <>
      <Field
        label="Course"
        error={
          problems.get('courseId') ??
          (courseId && !known && options.courses.length > 0
            ? 'This course no longer exists: choose another'
            : null)
        }
      >
        {({ id, describedBy, invalid }) => (
          <Combobox
            id={id}
            label="Course"
            value={courseId || null}
            options={options.courses.map((course) => ({ value: course.id, label: course.title }))}
            placeholder="Search courses…"
            emptyText={
              options.courses.length === 0 ? 'No course yet: connect one first' : 'No course matches'
            }
            invalid={invalid}
            describedBy={describedBy}
            onChange={(value) => set('courseId', value)}
          />
        )}
      </Field>
      <TriggerEvents
        all={COURSE_TRIGGER_EVENTS}
        labels={COURSE_TRIGGER_LABELS}
        events={events}
        onChange={(next) => set('events', next)}
      />
    </>
  );
}

/** A source's events as checkboxes, kept in the source's own order. */
function TriggerEvents<T extends string>({
  all,
  labels,
  events,
  onChange,
}: {
  all: readonly T[];
  labels: Record<T, string>;
  events: readonly string[];
  onChange: (events: string[]) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-fg">Starts a run when the learner</legend>
      <ul className="grid gap-1.5 sm:grid-cols-2 lg:grid-cols-1">
        {all.map((type) => (
          <li key={type}>
            <label className="flex items-center gap-2 text-sm text-fg">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? all.filter((t) => t === type || events.includes(t))
                      : events.filter((t) => t !== type),
                  )
                }
                className="size-4 accent-brand-600"
              />
              {labels[type]}
            </label>
          </li>
        ))}
      </ul>
      {events.length === 0 ? (
        <p className="text-sm text-rose-600 dark:text-rose-400">{EDITOR_MESSAGES.chooseEvent}</p>
      ) : null}
    </fieldset>
  );
}

function ChatbotFields({ node, options, problems, set }: FieldsProps) {
  const events = Array.isArray(node.data.events)
    ? (node.data.events as string[])
    : [...CHATBOT_TRIGGER_EVENTS];
  const chatbotId = asString(node.data.chatbotId);
  const chatbot = options.chatbots.find((item) => item.id === chatbotId);
  return (
    <>
      <Field
        label="Agent"
        error={
          problems.get('chatbotId') ??
          (chatbotId && !chatbot && options.chatbots.length > 0
            ? 'This agent no longer exists: choose another'
            : null)
        }
      >
        {({ id, describedBy, invalid }) => (
          <Combobox
            id={id}
            label="Agent"
            value={chatbotId || null}
            options={options.chatbots.map((item) => ({
              value: item.id,
              label: item.active ? item.name : `${item.name} (off)`,
            }))}
            placeholder="Search agents…"
            emptyText={
              options.chatbots.length === 0
                ? 'No agent yet: create one under Custom AI Agents'
                : 'No agent matches'
            }
            invalid={invalid}
            describedBy={describedBy}
            onChange={(value) => set('chatbotId', value)}
          />
        )}
      </Field>
      {chatbot && !chatbot.active ? (
        <p className="rounded-lg bg-surface-muted px-3 py-2 text-xs text-fg-muted">
          This agent is switched off: no conversation starts with it, so this source starts no run until it is
          turned back on.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3 text-sm">
        {chatbot ? (
          <Link
            to={paths.chatbots.edit.href(chatbot.id)}
            target="_blank"
            className="inline-flex items-center gap-1 text-accent hover:underline [&_svg]:size-3.5"
          >
            Open this agent
            <ExternalLink aria-hidden="true" /> <span className="sr-only">(opens in a new tab)</span>
          </Link>
        ) : null}
        <Link
          to={paths.chatbots.create.href()}
          target="_blank"
          className="inline-flex items-center gap-1 text-accent hover:underline [&_svg]:size-3.5"
        >
          New agent
          <ExternalLink aria-hidden="true" /> <span className="sr-only">(opens in a new tab)</span>
        </Link>
      </div>
      <TriggerEvents
        all={CHATBOT_TRIGGER_EVENTS}
        labels={CHATBOT_TRIGGER_LABELS}
        events={events}
        onChange={(next) => set('events', next)}
      />
    </>
  );
}

type MappingSource = { courseId?: string; variableName?: string };

function MapVariablesFields({ node, options, problems, set }: FieldsProps) {
  const sources = Array.isArray(node.data.sources) ? (node.data.sources as MappingSource[]) : [];
  const destination = asString(node.data.destinationVariableId);
  const update = (index: number, patch: MappingSource) =>
    set(
      'sources',
      sources.map((source, i) => (i === index ? { ...source, ...patch } : source)),
    );
  return (
    <>
      <Field
        label="Destination variable"
        error={problems.get('destinationVariableId')}
        hint="The one variable that reports the values of every source below."
      >
        {({ id, describedBy, invalid }) => (
          <Combobox
            id={id}
            label="Destination variable"
            value={destination || null}
            options={options.variables.map((variable) => ({
              value: variable.id,
              label: variable.name,
              hint: variable.courseTitle,
            }))}
            placeholder="Search variables…"
            emptyText="No variable matches"
            invalid={invalid}
            describedBy={describedBy}
            onChange={(value) => set('destinationVariableId', value)}
          />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-fg">Variables to map</legend>
        <ol className="flex flex-col gap-2">
          {sources.map((source, index) => {
            const names = options.variables.filter((variable) => variable.courseId === source.courseId);
            return (
              <li key={index} className="flex flex-col gap-2 rounded-lg border border-line p-2.5">
                <div className="flex items-center justify-between">
                  <span className="text-xs font-semibold text-fg-subtle">Source {index + 1}</span>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="h-7 px-2"
                    aria-label={`Remove source ${index + 1}`}
                    onClick={() =>
                      set(
                        'sources',
                        sources.filter((_, i) => i !== index),
                      )
                    }
                  >
                    <X aria-hidden="true" />
                  </Button>
                </div>
                <select
                  aria-label={`Source ${index + 1} course`}
                  value={source.courseId ?? ''}
                  onChange={(event) => update(index, { courseId: event.target.value, variableName: '' })}
                  className={inputClassName}
                >
                  <option value="">Choose a course</option>
                  {options.courses.map((course) => (
                    <option key={course.id} value={course.id}>
                      {course.title}
                    </option>
                  ))}
                </select>
                <select
                  aria-label={`Source ${index + 1} variable`}
                  value={source.variableName ?? ''}
                  disabled={!source.courseId}
                  onChange={(event) => update(index, { variableName: event.target.value })}
                  className={inputClassName}
                >
                  <option value="">
                    {source.courseId ? 'Choose a variable' : 'Choose the course first'}
                  </option>
                  {names.map((variable) => (
                    <option key={variable.id} value={variable.name}>
                      {variable.name}
                    </option>
                  ))}
                  {source.variableName && !names.some((variable) => variable.name === source.variableName) ? (
                    <option value={source.variableName}>{source.variableName}</option>
                  ) : null}
                </select>
              </li>
            );
          })}
        </ol>
        {problems.get('sources') ? (
          <p className="text-sm text-rose-600 dark:text-rose-400">{problems.get('sources')}</p>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          onClick={() => set('sources', [...sources, { courseId: '', variableName: '' }])}
        >
          <Plus aria-hidden="true" />
          Add a variable
        </Button>
      </fieldset>
    </>
  );
}

function ActionFields({ node, options, problems, set }: FieldsProps) {
  const actionId = asString(node.data.actionId);
  const action = options.actions.find((item) => item.id === actionId);
  return (
    <>
      <Field
        label="Action"
        error={
          problems.get('actionId') ??
          (actionId && !action && options.actions.length > 0
            ? 'This action no longer exists: choose another'
            : null)
        }
      >
        {({ id, describedBy, invalid }) => (
          <Combobox
            id={id}
            label="Action"
            value={actionId || null}
            options={options.actions.map((item) => ({
              value: item.id,
              label: item.name,
              hint: `${ACTION_TYPE_LABELS[item.type]}${item.active ? '' : ' · paused'}`,
            }))}
            placeholder="Search actions…"
            emptyText={options.actions.length === 0 ? 'No action yet: create one first' : 'No action matches'}
            invalid={invalid}
            describedBy={describedBy}
            onChange={(value) => set('actionId', value)}
          />
        )}
      </Field>
      {action ? (
        <p className="rounded-lg bg-surface-muted px-3 py-2 text-xs break-words text-fg-muted">
          {ACTION_TYPE_LABELS[action.type]} · {action.target}
          {action.active ? null : ' · paused: it will not run until it is turned back on'}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3 text-sm">
        {action ? (
          <Link
            to={paths.actions.edit.href(action.id)}
            target="_blank"
            className="inline-flex items-center gap-1 text-accent hover:underline [&_svg]:size-3.5"
          >
            Open this action
            <ExternalLink aria-hidden="true" /> <span className="sr-only">(opens in a new tab)</span>
          </Link>
        ) : null}
        <Link
          to={paths.actions.create.href()}
          target="_blank"
          className="inline-flex items-center gap-1 text-accent hover:underline [&_svg]:size-3.5"
        >
          New action
          <ExternalLink aria-hidden="true" /> <span className="sr-only">(opens in a new tab)</span>
        </Link>
      </div>
    </>
  );
}
