import {
  ACTION_TYPE_DESCRIPTIONS,
  ACTION_TYPE_LABELS,
  ACTION_TYPES,
  SAMPLE_ACTION_EVENT,
  WEBHOOK_METHODS,
  type ActionInput,
  type MemberRole,
} from '@courselens/contracts';
import { Lock, Plus, ShieldCheck, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, type ReactNode } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { inputClassName, TextField } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';
import { timeZones } from '@/lib/time-zones';
import { ChoiceCard as Choice } from '@/components/ui/choice-card';

import type { CourseOption } from '@/lib/course-options';

import { actionFormResolver, toActionInput, type ActionFormValues } from './action-form-model';
import { ACTION_TYPE_ICONS } from './action-type-badge';
import { TemplateField } from './template-field';

export type ActionFormProps = {
  defaultValues: ActionFormValues;
  /** Editing a saved action: its type is fixed. */
  isEditing: boolean;
  organizationName: string | null;
  courses: readonly CourseOption[] | undefined;
  submitLabel: string;
  /** Resolves when saved; returns the problems to show on fields (a 400 of the server) or nothing. */
  onSubmit: (input: ActionInput) => Promise<{ field: string; message: string }[] | void>;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
};

const ROLE_LABELS: Record<MemberRole, string> = { owner: 'Owners', team_member: 'Team members' };
const ROLES: MemberRole[] = ['owner', 'team_member'];

const textareaClassName = cn(inputClassName, 'h-auto py-2 leading-relaxed');
const errorClassName = 'text-sm text-rose-600 dark:text-rose-400';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className={errorClassName}>
      {message}
    </p>
  ) : null;
}

function RolesField({
  legend,
  value,
  onChange,
  error,
}: {
  legend: string;
  value: MemberRole[];
  onChange: (roles: MemberRole[]) => void;
  error: string | undefined;
}) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-fg">{legend}</legend>
      <div className="flex flex-wrap gap-4">
        {ROLES.map((role) => (
          <label key={role} className="flex items-center gap-2 text-sm text-fg">
            <input
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={value.includes(role)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? ROLES.filter((r) => r === role || value.includes(r))
                    : value.filter((r) => r !== role),
                )
              }
            />
            {ROLE_LABELS[role]}
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-5">{children}</CardContent>
    </Card>
  );
}

type SectionProps = {
  control: Control<ActionFormValues>;
  register: UseFormRegister<ActionFormValues>;
  errors: FieldErrors<ActionFormValues>;
  organizationName: string | null;
};

function WebhookSection({ control, register, errors, organizationName }: SectionProps) {
  const headers = useFieldArray({ control, name: 'webhook.headers' });
  const headerValues = useWatch({ control, name: 'webhook.headers' });
  const methodId = useId();
  const headersErrorId = useId();
  const webhookErrors = errors.webhook;
  const headersRootError = webhookErrors?.headers?.root?.message ?? webhookErrors?.headers?.message;
  return (
    <Section
      title="Webhook"
      description="An HTTP request to another system each time the action runs, signed with the Standard Webhooks format."
    >
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={methodId} className="text-sm font-medium text-fg">
            Method
          </label>
          <select id={methodId} className={inputClassName} {...register('webhook.method')}>
            {WEBHOOK_METHODS.map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label="URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="Receiver URL"
          className="font-mono text-xs"
          error={webhookErrors?.url?.message}
          hint="Addresses on the server’s own network are refused unless an administrator allows them."
          {...register('webhook.url')}
        />
      </div>

      <fieldset
        className="flex flex-col gap-3"
        aria-describedby={headersRootError ? headersErrorId : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-fg">Headers</legend>
        {headers.fields.length === 0 ? (
          <p className="text-sm text-fg-muted">
            No extra headers. Mark a header secret to keep its value encrypted.
          </p>
        ) : null}
        {headers.fields.map((field, index) => {
          const rowErrors = webhookErrors?.headers?.[index];
          return (
            <div
              key={field.id}
              className="flex flex-col gap-2 rounded-xl border border-line p-3 sm:flex-row sm:items-start"
            >
              <div className="sm:w-48">
                <TextField
                  label={`Header ${index + 1} name`}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="Header name"
                  className="font-mono text-xs"
                  error={rowErrors?.name?.message}
                  {...register(`webhook.headers.${index}.name`)}
                />
              </div>
              <div className="min-w-0 flex-1">
                <TextField
                  label={`Header ${index + 1} value`}
                  type={headerValues[index]?.secret ? 'password' : 'text'}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={field.isStored ? 'Stored and encrypted: leave empty to keep' : 'Value'}
                  className="font-mono text-xs"
                  error={rowErrors?.value?.message}
                  {...register(`webhook.headers.${index}.value`)}
                />
              </div>
              <div className="flex items-center justify-between gap-3 sm:mt-7 sm:justify-start">
                <label className="flex items-center gap-2 text-sm text-fg">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-600"
                    {...register(`webhook.headers.${index}.secret`)}
                  />
                  <Lock aria-hidden="true" className="size-3.5 text-fg-muted" />
                  Secret
                </label>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove header ${index + 1}`}
                  title="Remove"
                  onClick={() => headers.remove(index)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </div>
          );
        })}
        <FieldError id={headersErrorId} message={headersRootError} />
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => headers.append({ name: '', value: '', secret: false, isStored: false })}
          >
            <Plus aria-hidden="true" />
            Add header
          </Button>
        </div>
      </fieldset>

      <Controller
        control={control}
        name="webhook.bodyMode"
        render={({ field: mode }) => (
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-medium text-fg">Body</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <Choice
                name={mode.name}
                value="event"
                checked={mode.value === 'event'}
                onChange={() => mode.onChange('event')}
                label="The event, as JSON"
                description="What happened, to whom and in which course."
              />
              <Choice
                name={mode.name}
                value="template"
                checked={mode.value === 'template'}
                onChange={() => mode.onChange('template')}
                label="A template"
                description="Your own body with fields filled in; values are escaped for JSON strings."
              />
            </div>
            {mode.value === 'event' ? (
              <details className="group rounded-lg border border-dashed border-line-strong bg-surface-muted/60 px-3 py-2">
                <summary className="cursor-pointer rounded text-sm text-fg-muted focus-visible:outline-2 focus-visible:outline-focus">
                  Show the body the sample event sends
                </summary>
                <pre
                  // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
                  tabIndex={0}
                  aria-label="Body of the sample event"
                  className="mt-2 max-h-60 overflow-auto font-mono text-xs break-all whitespace-pre-wrap text-fg focus-visible:outline-2 focus-visible:outline-focus"
                >
                  {JSON.stringify(SAMPLE_ACTION_EVENT, null, 2)}
                </pre>
              </details>
            ) : (
              <Controller
                control={control}
                name="webhook.bodyTemplate"
                render={({ field }) => (
                  <TemplateField
                    label="Body template"
                    multiline
                    rows={6}
                    isCode
                    escape="json"
                    previewAs="json"
                    organizationName={organizationName}
                    placeholder="JSON with {{fields}} inside quoted strings"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    name={field.name}
                    error={webhookErrors?.bodyTemplate?.message}
                  />
                )}
              />
            )}
          </fieldset>
        )}
      />
      <p className="flex gap-2 text-sm text-fg-muted [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
        <ShieldCheck aria-hidden="true" />
        <span>
          Every request carries <code className="font-mono text-xs">webhook-id</code>,{' '}
          <code className="font-mono text-xs">webhook-timestamp</code> and{' '}
          <code className="font-mono text-xs">webhook-signature</code>. The signing secret is shown once, when
          the action is created.
        </span>
      </p>
    </Section>
  );
}

function EmailSection({
  control,
  register,
  errors,
  organizationName,
  watchValues,
}: SectionProps & { watchValues: ActionFormValues['email'] }) {
  const errorsOf = errors.email;
  const addressesId = useId();
  const timeZoneId = useId();
  const zones = useMemo(() => timeZones(watchValues.timeZone), [watchValues.timeZone]);
  return (
    <Section
      title="Email"
      description="Goes out through this server’s SMTP server, filled in for each event."
    >
      <Controller
        control={control}
        name="email.to"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">Send to</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              <Choice
                name={field.name}
                value="learner"
                checked={field.value === 'learner'}
                onChange={() => field.onChange('learner')}
                label="The learner"
                description="The address of the event’s learner."
              />
              <Choice
                name={field.name}
                value="team"
                checked={field.value === 'team'}
                onChange={() => field.onChange('team')}
                label="Your team"
                description="Members with the roles you choose."
              />
              <Choice
                name={field.name}
                value="addresses"
                checked={field.value === 'addresses'}
                onChange={() => field.onChange('addresses')}
                label="Fixed addresses"
                description="Up to 20, such as a coach or a manager."
              />
            </div>
          </fieldset>
        )}
      />
      {watchValues.to === 'team' ? (
        <Controller
          control={control}
          name="email.roles"
          render={({ field }) => (
            <RolesField
              legend="Roles to e-mail"
              value={field.value}
              onChange={field.onChange}
              error={errorsOf?.roles?.message}
            />
          )}
        />
      ) : null}
      {watchValues.to === 'addresses' ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={addressesId} className="text-sm font-medium text-fg">
            Addresses
          </label>
          <textarea
            id={addressesId}
            rows={3}
            className={textareaClassName}
            placeholder="One address per line"
            aria-invalid={errorsOf?.addresses ? true : undefined}
            aria-describedby={errorsOf?.addresses ? `${addressesId}-error` : undefined}
            {...register('email.addresses')}
          />
          <FieldError id={`${addressesId}-error`} message={errorsOf?.addresses?.message} />
        </div>
      ) : null}
      <Controller
        control={control}
        name="email.subject"
        render={({ field }) => (
          <TemplateField
            label="Subject"
            organizationName={organizationName}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={errorsOf?.subject?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="email.body"
        render={({ field }) => (
          <TemplateField
            label="Message"
            multiline
            rows={6}
            organizationName={organizationName}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={errorsOf?.body?.message}
          />
        )}
      />

      <div className="flex flex-col gap-3 rounded-xl border border-line p-4">
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-brand-600"
            {...register('email.hasQuietHours')}
          />
          <span className="flex flex-col gap-0.5">
            <span className="font-medium text-fg">Quiet hours</span>
            <span className="text-fg-muted">
              No e-mail goes out between these times; it waits until they end.
            </span>
          </span>
        </label>
        {watchValues.hasQuietHours ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField
              label="From"
              type="time"
              error={errorsOf?.quietStart?.message}
              {...register('email.quietStart')}
            />
            <TextField
              label="Until"
              type="time"
              error={errorsOf?.quietEnd?.message}
              {...register('email.quietEnd')}
            />
            <div className="flex flex-col gap-1.5">
              <label htmlFor={timeZoneId} className="text-sm font-medium text-fg">
                Time zone
              </label>
              <select
                id={timeZoneId}
                className={inputClassName}
                aria-invalid={errorsOf?.timeZone ? true : undefined}
                aria-describedby={errorsOf?.timeZone ? `${timeZoneId}-error` : undefined}
                {...register('email.timeZone')}
              >
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll('_', ' ')}
                  </option>
                ))}
              </select>
              <FieldError id={`${timeZoneId}-error`} message={errorsOf?.timeZone?.message} />
            </div>
          </div>
        ) : null}
      </div>

      <div className="flex flex-col gap-3 rounded-xl border border-line p-4">
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-brand-600"
            {...register('email.hasFrequencyCap')}
          />
          <span className="flex flex-col gap-0.5">
            <span className="font-medium text-fg">Frequency cap</span>
            <span className="text-fg-muted">
              Past the cap, this action sends the learner nothing more until the window moves on.
            </span>
          </span>
        </label>
        {watchValues.hasFrequencyCap ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="At most (e-mails per learner)"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              error={errorsOf?.capCount?.message}
              {...register('email.capCount')}
            />
            <TextField
              label="Every (hours)"
              type="number"
              inputMode="numeric"
              min={1}
              max={720}
              error={errorsOf?.capHours?.message}
              {...register('email.capHours')}
            />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

function BroadcastSection({
  control,
  register,
  errors,
  organizationName,
  courses,
  mode,
}: SectionProps & { courses: readonly CourseOption[] | undefined; mode: 'set' | 'clear' }) {
  const courseId = useId();
  const errorsOf = errors.broadcast;
  return (
    <Section
      title="Course broadcast"
      description="The message a course shows its learners, read by the course player."
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={courseId} className="text-sm font-medium text-fg">
          Course
        </label>
        <select
          id={courseId}
          className={inputClassName}
          aria-invalid={errorsOf?.courseId ? true : undefined}
          aria-describedby={errorsOf?.courseId ? `${courseId}-error` : `${courseId}-hint`}
          {...register('broadcast.courseId')}
        >
          <option value="">The course of the event</option>
          {(courses ?? []).map((course) => (
            <option key={course.id} value={course.id}>
              {course.title}
            </option>
          ))}
        </select>
        {errorsOf?.courseId ? (
          <FieldError id={`${courseId}-error`} message={errorsOf.courseId.message} />
        ) : (
          <p id={`${courseId}-hint`} className="text-xs text-fg-muted">
            “The course of the event” changes the course the learner was in.
          </p>
        )}
      </div>
      <Controller
        control={control}
        name="broadcast.mode"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">Change</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <Choice
                name={field.name}
                value="set"
                checked={field.value === 'set'}
                onChange={() => field.onChange('set')}
                label="Set the message"
              />
              <Choice
                name={field.name}
                value="clear"
                checked={field.value === 'clear'}
                onChange={() => field.onChange('clear')}
                label="Clear the message"
              />
            </div>
          </fieldset>
        )}
      />
      {mode === 'set' ? (
        <Controller
          control={control}
          name="broadcast.message"
          render={({ field }) => (
            <TemplateField
              label="Message"
              multiline
              rows={3}
              organizationName={organizationName}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              error={errorsOf?.message?.message}
              hint="Up to 1000 characters once filled in."
            />
          )}
        />
      ) : null}
    </Section>
  );
}

function SetVariableSection({
  control,
  register,
  errors,
  organizationName,
  values,
}: SectionProps & { values: ActionFormValues['setVariable'] }) {
  const kindId = useId();
  const errorsOf = errors.setVariable;
  return (
    <Section
      title="Learner variable"
      description="Stores a value for the event’s learner, as if the course had sent it."
    >
      <TextField
        label="Variable name"
        autoComplete="off"
        spellCheck={false}
        placeholder="Variable name, as the course sends it"
        hint="A variable of the event’s course; it is created on first use when your organization registers new variables."
        error={errorsOf?.variableName?.message}
        {...register('setVariable.variableName')}
      />
      <Controller
        control={control}
        name="setVariable.valueKind"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">Value</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <Choice
                name={field.name}
                value="template"
                checked={field.value === 'template'}
                onChange={() => field.onChange('template')}
                label="From the event"
                description="A template; {{value}} alone keeps a number a number."
              />
              <Choice
                name={field.name}
                value="literal"
                checked={field.value === 'literal'}
                onChange={() => field.onChange('literal')}
                label="A fixed value"
                description="Text, a number, true/false, or empty."
              />
            </div>
          </fieldset>
        )}
      />
      {values.valueKind === 'template' ? (
        <Controller
          control={control}
          name="setVariable.template"
          render={({ field }) => (
            <TemplateField
              label="Value template"
              organizationName={organizationName}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              error={errorsOf?.template?.message}
            />
          )}
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={kindId} className="text-sm font-medium text-fg">
              Kind
            </label>
            <select id={kindId} className={inputClassName} {...register('setVariable.literalKind')}>
              <option value="text">Text</option>
              <option value="number">Number</option>
              <option value="true">True</option>
              <option value="false">False</option>
              <option value="empty">Empty</option>
            </select>
          </div>
          {values.literalKind === 'text' || values.literalKind === 'number' ? (
            <TextField
              label="Fixed value"
              inputMode={values.literalKind === 'number' ? 'decimal' : undefined}
              autoComplete="off"
              error={errorsOf?.literal?.message}
              {...register('setVariable.literal')}
            />
          ) : null}
        </div>
      )}
    </Section>
  );
}

function NotifyTeamSection({ control, errors, organizationName }: SectionProps) {
  const errorsOf = errors.notifyTeam;
  return (
    <Section title="Team notification" description="A message in your organization’s activity feed.">
      <Controller
        control={control}
        name="notifyTeam.message"
        render={({ field }) => (
          <TemplateField
            label="Message"
            multiline
            rows={3}
            organizationName={organizationName}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={errorsOf?.message?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="notifyTeam.roles"
        render={({ field }) => (
          <RolesField
            legend="For"
            value={field.value}
            onChange={field.onChange}
            error={errorsOf?.roles?.message}
          />
        )}
      />
    </Section>
  );
}

/**
 * The action form: name, type and the settings of the type, checked with
 * the contract's rules as you save; template fields preview themselves
 * with the sample event.
 */
export function ActionForm({
  defaultValues,
  isEditing,
  organizationName,
  courses,
  submitLabel,
  onSubmit,
  onCancel,
  onDirtyChange,
}: ActionFormProps) {
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ActionFormValues>({ resolver: actionFormResolver, defaultValues });
  const descriptionId = useId();
  const type = useWatch({ control, name: 'type' });
  const email = useWatch({ control, name: 'email' });
  const broadcastMode = useWatch({ control, name: 'broadcast.mode' });
  const setVariable = useWatch({ control, name: 'setVariable' });

  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  async function handleValid(values: ActionFormValues) {
    const problems = await onSubmit(toActionInput(values));
    for (const problem of problems ?? []) {
      setError(problem.field as 'root', { type: 'server', message: problem.message }, { shouldFocus: true });
    }
  }

  const sectionProps: SectionProps = { control, register, errors, organizationName };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValid)(event)}
      className="flex min-w-0 flex-col gap-6"
    >
      {isEditing ? null : (
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <Section
              title="Type"
              description="What the action does. The type cannot change once the action is created."
            >
              <fieldset className="grid gap-2 sm:grid-cols-2">
                <legend className="sr-only">Type</legend>
                {ACTION_TYPES.map((option) => {
                  const Icon = ACTION_TYPE_ICONS[option];
                  const isChecked = field.value === option;
                  return (
                    <label
                      key={option}
                      className={cn(
                        'flex cursor-pointer items-start gap-3 rounded-xl border p-3 text-sm transition-colors',
                        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-focus',
                        isChecked
                          ? 'border-brand-500 bg-brand-50/60 dark:border-brand-400 dark:bg-brand-400/10'
                          : 'border-line hover:bg-surface-muted',
                      )}
                    >
                      <input
                        type="radio"
                        name={field.name}
                        value={option}
                        checked={isChecked}
                        onChange={() => field.onChange(option)}
                        className="sr-only"
                      />
                      <span
                        className={cn(
                          'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4',
                          isChecked
                            ? 'bg-brand-600 text-white dark:bg-brand-500'
                            : 'bg-surface-muted text-fg-muted',
                        )}
                      >
                        <Icon aria-hidden="true" />
                      </span>
                      <span className="flex min-w-0 flex-col gap-0.5">
                        <span className="font-medium text-fg">{ACTION_TYPE_LABELS[option]}</span>
                        <span className="text-fg-muted">{ACTION_TYPE_DESCRIPTIONS[option]}</span>
                      </span>
                    </label>
                  );
                })}
              </fieldset>
            </Section>
          )}
        />
      )}

      <Section title="About">
        <TextField
          label="Name"
          autoComplete="off"
          placeholder="What this action does"
          error={errors.name?.message}
          {...register('name')}
        />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-baseline justify-between gap-2">
            <label htmlFor={descriptionId} className="text-sm font-medium text-fg">
              Description
            </label>
            <span className="text-xs text-fg-subtle">Optional</span>
          </div>
          <textarea
            id={descriptionId}
            rows={2}
            className={textareaClassName}
            placeholder="When and why your pipelines use it"
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${descriptionId}-error` : undefined}
            {...register('description')}
          />
          <FieldError id={`${descriptionId}-error`} message={errors.description?.message} />
        </div>
        <Controller
          control={control}
          name="active"
          render={({ field }) => (
            <div className="flex items-center justify-between gap-4 rounded-xl border border-line p-3">
              <div className="flex flex-col gap-0.5 text-sm">
                <span className="font-medium text-fg">Active</span>
                <span className="text-fg-muted">
                  {field.value ? 'Pipelines run this action.' : 'Paused: pipelines skip this action.'}
                </span>
              </div>
              <Switch label="Active" checked={field.value} onChange={field.onChange} />
            </div>
          )}
        />
      </Section>

      {type === 'webhook' ? <WebhookSection {...sectionProps} /> : null}
      {type === 'email' ? <EmailSection {...sectionProps} watchValues={email} /> : null}
      {type === 'broadcast' ? (
        <BroadcastSection {...sectionProps} courses={courses} mode={broadcastMode} />
      ) : null}
      {type === 'set_variable' ? <SetVariableSection {...sectionProps} values={setVariable} /> : null}
      {type === 'notify_team' ? <NotifyTeamSection {...sectionProps} /> : null}

      {errors.root?.message ? (
        <p role="alert" className={errorClassName}>
          {errors.root.message}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
