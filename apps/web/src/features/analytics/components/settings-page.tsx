import {
  COMPLETION_RULES,
  COMPLETION_RULE_LABELS,
  ITEM_ANALYSIS_ATTEMPTS,
  ITEM_ANALYSIS_ATTEMPT_LABELS,
  OWNER_ONLY_MESSAGES,
  type AnalyticsSettingsResponse,
} from '@courselens/contracts';
import { Lock, Plus, Trash2 } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ChoiceCard } from '@/components/ui/choice-card';
import { Combobox } from '@/components/ui/combobox';
import { FieldError, FormSection, TextAreaField } from '@/components/ui/form-fields';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCourseOptions } from '@/lib/course-options';
import { formatDateTime, formatNumber } from '@/lib/format';
import { timeZones } from '@/lib/time-zones';
import { toast } from '@/lib/toast';

import { useAnalyticsSettings } from '../api/get-analytics-settings';
import { useUpdateAnalyticsSettings } from '../api/update-analytics-settings';
import { AnalyticsPage } from './analytics-page';
import {
  formErrorsOf,
  hasErrors,
  toFormValues,
  validateSettings,
  type SettingsFormErrors,
  type SettingsFormValues,
} from './settings-form-model';

const COMPLETION_HINTS: Record<(typeof COMPLETION_RULES)[number], string> = {
  completed: 'A run counts as complete when the course sends its completion.',
  passed:
    'A run counts as complete when its score reaches the course’s pass mark (or the course says it passed).',
  last_slide: 'A run counts as complete once it views the highest slide number the course has reported.',
};

/** `/analytics/settings`: what analytics count and how. Owners change it; members read it. */
export function AnalyticsSettingsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const settings = useAnalyticsSettings(organizationId);
  return (
    <AnalyticsPage
      section="settings"
      title="Analytics settings"
      description="What every analytics screen and the dashboard count, and how."
    >
      {settings.isPending ? (
        <Card className="flex items-center justify-center py-16">
          <Spinner label="Loading the analytics settings" />
        </Card>
      ) : settings.isError ? (
        <Card className="px-6 py-10 text-center" role="alert">
          <p className="font-medium text-fg">The analytics settings could not be loaded.</p>
          <p className="mt-1 text-sm text-fg-muted">{settings.error.message}</p>
          <Button variant="outline" className="mt-4" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <SettingsForm key={settings.data.updatedAt ?? 'defaults'} response={settings.data} />
      )}
    </AnalyticsPage>
  );
}

function SettingsForm({ response }: { response: AnalyticsSettingsResponse }) {
  const organizationId = useSession().currentOrganization?.id;
  const update = useUpdateAnalyticsSettings(organizationId);
  const courses = useCourseOptions(organizationId);
  const initial = useMemo(() => toFormValues(response.settings), [response.settings]);
  const [values, setValues] = useState<SettingsFormValues>(initial);
  const [errors, setErrors] = useState<SettingsFormErrors>({});
  const isReadOnly = !response.canEdit;
  const isDirty = JSON.stringify(values) !== JSON.stringify(initial);
  const zones = useMemo(
    () => timeZones(values.timeZone).map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
    [values.timeZone],
  );
  const courseOptions = useMemo(() => {
    const known = new Map((courses.data ?? []).map((course) => [course.id, course.title]));
    for (const course of response.courses) if (!known.has(course.id)) known.set(course.id, course.title);
    return [...known].map(([value, label]) => ({ value, label }));
  }, [courses.data, response.courses]);
  const ids = { timeZone: useId(), completion: useId(), attempts: useId() };

  const set = <Key extends keyof SettingsFormValues>(key: Key, value: SettingsFormValues[Key]) => {
    setValues((previous) => ({ ...previous, [key]: value }));
  };
  const setMark = (index: number, patch: Partial<SettingsFormValues['coursePassMarks'][number]>) => {
    set(
      'coursePassMarks',
      values.coursePassMarks.map((mark, i) => (i === index ? { ...mark, ...patch } : mark)),
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isReadOnly) return;
    const checked = validateSettings(values);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    // A promise, not mutate's callbacks: a save remounts this form with the
    // saved settings (its key), and callbacks of an unmounted caller never run.
    void update.mutateAsync(checked.settings).then(
      () => toast.success('Analytics settings saved'),
      (error: unknown) => {
        const placed = isApiError(error) ? formErrorsOf(error.issues, values) : {};
        if (hasErrors(placed)) setErrors(placed);
        else
          toast.error(
            isApiError(error) ? error.message : 'The settings could not be saved. Please try again.',
          );
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-6"
      aria-describedby={isReadOnly ? 'analytics-settings-readonly' : undefined}
    >
      {isReadOnly ? (
        <p
          id="analytics-settings-readonly"
          className="flex items-center gap-2 rounded-xl border border-line bg-surface-muted px-4 py-3 text-sm text-fg-muted"
        >
          <Lock aria-hidden="true" className="size-4 shrink-0" />
          {OWNER_ONLY_MESSAGES.analytics}. You can read them here.
        </p>
      ) : null}

      <FormSection
        title="Time and completion"
        description="Days, weekdays and hours on every analytics screen are counted in this time zone."
      >
        <div className="flex max-w-md flex-col gap-1.5">
          <Combobox
            id={ids.timeZone}
            label="Time zone"
            value={values.timeZone}
            options={zones}
            onChange={(zone) => set('timeZone', zone)}
            placeholder="Search time zones…"
            emptyText="No time zone matches"
            invalid={Boolean(errors.timeZone)}
            describedBy={errors.timeZone ? `${ids.timeZone}-error` : undefined}
            disabled={isReadOnly}
          />
          <FieldError id={`${ids.timeZone}-error`} message={errors.timeZone} />
        </div>
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors.completion ? `${ids.completion}-error` : undefined}
        >
          <legend className="mb-1 text-sm font-medium text-fg">A course counts as completed when</legend>
          <div className="grid gap-2 md:grid-cols-3">
            {COMPLETION_RULES.map((rule) => (
              <ChoiceCard
                key={rule}
                name="completion"
                value={rule}
                checked={values.completion === rule}
                onChange={() => set('completion', rule)}
                label={COMPLETION_RULE_LABELS[rule]}
                description={COMPLETION_HINTS[rule]}
                disabled={isReadOnly}
              />
            ))}
          </div>
          <FieldError id={`${ids.completion}-error`} message={errors.completion} />
        </fieldset>
      </FormSection>

      <FormSection
        title="Pass marks"
        description="A run passes when the course says so, or when its score (a percentage) reaches the course’s pass mark."
      >
        <div className="max-w-48">
          <TextField
            label="Default pass mark (%)"
            inputMode="decimal"
            value={values.defaultPassMark}
            onChange={(event) => set('defaultPassMark', event.target.value)}
            error={errors.defaultPassMark}
            disabled={isReadOnly}
          />
        </div>
        <div className="flex flex-col gap-3">
          <p className="text-sm font-medium text-fg">Courses with their own pass mark</p>
          {values.coursePassMarks.length === 0 ? (
            <p className="text-sm text-fg-muted">Every course uses the default.</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {values.coursePassMarks.map((mark, index) => (
                <CoursePassMarkRow
                  key={index}
                  index={index}
                  courseId={mark.courseId}
                  passMark={mark.passMark}
                  options={courseOptions.filter(
                    (option) =>
                      option.value === mark.courseId ||
                      !values.coursePassMarks.some((other) => other.courseId === option.value),
                  )}
                  error={errors.coursePassMarkRows?.[index]}
                  isReadOnly={isReadOnly}
                  onChange={(patch) => setMark(index, patch)}
                  onRemove={() =>
                    set(
                      'coursePassMarks',
                      values.coursePassMarks.filter((_, i) => i !== index),
                    )
                  }
                />
              ))}
            </ul>
          )}
          <FieldError message={errors.coursePassMarks} />
          {isReadOnly ? null : (
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="self-start"
              onClick={() =>
                set('coursePassMarks', [
                  ...values.coursePassMarks,
                  { courseId: '', passMark: values.defaultPassMark },
                ])
              }
            >
              <Plus aria-hidden="true" />
              Add a course
            </Button>
          )}
        </div>
      </FormSection>

      <FormSection
        title="Test accounts"
        description="Learners left out of every analytics figure: your own test runs, trainers, demo accounts."
      >
        <div className="grid gap-5 md:grid-cols-2">
          <TextAreaField
            label="E-mail domains"
            rows={4}
            placeholder="One domain per line"
            hint="Such as test.example.com. A domain covers its subdomains."
            value={values.excludedDomains}
            onChange={(event) => set('excludedDomains', event.target.value)}
            error={errors.excludedDomains}
            disabled={isReadOnly}
          />
          <TextAreaField
            label="E-mail addresses"
            rows={4}
            placeholder="One address per line"
            hint="Trainers, demo and test accounts."
            value={values.excludedEmails}
            onChange={(event) => set('excludedEmails', event.target.value)}
            error={errors.excludedEmails}
            disabled={isReadOnly}
          />
        </div>
        <p className="text-sm text-fg-muted" data-testid="excluded-count">
          {response.excludedLearners === 0
            ? `No learner is left out now (${formatNumber(response.totalLearners)} learners).`
            : `${formatNumber(response.excludedLearners)} of ${formatNumber(response.totalLearners)} learners are left out now.`}
          {isDirty ? ' Save to count again.' : ''}
        </p>
      </FormSection>

      <FormSection
        title="Question analysis"
        description="Which runs item statistics read. An unanswered question in an analysed run scores 0."
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-fg">Analyse</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {ITEM_ANALYSIS_ATTEMPTS.map((attempts) => (
              <ChoiceCard
                key={attempts}
                name="itemAnalysisAttempts"
                value={attempts}
                checked={values.itemAnalysisAttempts === attempts}
                onChange={() => set('itemAnalysisAttempts', attempts)}
                label={ITEM_ANALYSIS_ATTEMPT_LABELS[attempts]}
                disabled={isReadOnly}
              />
            ))}
          </div>
          <FieldError id={`${ids.attempts}-error`} message={errors.itemAnalysisAttempts} />
        </fieldset>
      </FormSection>

      <FormSection
        title="Funnels and insights"
        description="Defaults the funnel builder and the insight job start from."
      >
        <div className="grid gap-5 sm:grid-cols-2 md:max-w-xl">
          <TextField
            label="Funnel conversion window (days)"
            inputMode="numeric"
            value={values.funnelWindowDays}
            onChange={(event) => set('funnelWindowDays', event.target.value)}
            error={errors.funnelWindowDays}
            hint="How long a learner has to reach the last step."
            disabled={isReadOnly}
          />
          <TextField
            label="Inactive after (days)"
            inputMode="numeric"
            value={values.inactiveDays}
            onChange={(event) => set('inactiveDays', event.target.value)}
            error={errors.inactiveDays}
            hint="Insights watch the learners with no activity for this long."
            disabled={isReadOnly}
          />
        </div>
      </FormSection>

      <div className="sticky bottom-0 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-canvas/95 px-4 py-3 backdrop-blur">
        <p className="text-xs text-fg-subtle">
          {response.updatedAt
            ? `Last changed ${formatDateTime(response.updatedAt)}`
            : 'Default settings: nothing changed yet.'}
        </p>
        {isReadOnly ? null : (
          <div className="flex gap-2">
            <Button
              type="button"
              variant="ghost"
              disabled={!isDirty || update.isPending}
              onClick={() => {
                setValues(initial);
                setErrors({});
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" disabled={!isDirty || update.isPending}>
              {update.isPending ? 'Saving…' : 'Save settings'}
            </Button>
          </div>
        )}
      </div>
    </form>
  );
}

type CoursePassMarkRowProps = {
  index: number;
  courseId: string;
  passMark: string;
  options: { value: string; label: string }[];
  error: string | undefined;
  isReadOnly: boolean;
  onChange: (patch: { courseId?: string; passMark?: string }) => void;
  onRemove: () => void;
};

function CoursePassMarkRow({
  index,
  courseId,
  passMark,
  options,
  error,
  isReadOnly,
  onChange,
  onRemove,
}: CoursePassMarkRowProps) {
  const id = useId();
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-56">
          <Combobox
            id={`${id}-course`}
            label={`Course ${index + 1}`}
            value={courseId || null}
            options={options}
            onChange={(value) => onChange({ courseId: value })}
            placeholder="Search courses…"
            emptyText={options.length === 0 ? 'No course yet' : 'No course matches'}
            invalid={Boolean(error)}
            describedBy={error ? `${id}-error` : undefined}
            disabled={isReadOnly}
          />
        </div>
        <div className="w-28">
          <TextField
            label="Pass mark (%)"
            inputMode="decimal"
            value={passMark}
            onChange={(event) => onChange({ passMark: event.target.value })}
            aria-invalid={error ? true : undefined}
            disabled={isReadOnly}
          />
        </div>
        {isReadOnly ? null : (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remove course ${index + 1}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        )}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </li>
  );
}
