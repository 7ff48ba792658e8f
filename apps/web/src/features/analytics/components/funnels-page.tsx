import type {
  FunnelComputeInput,
  FunnelConfig,
  QuestionStatistics,
  SavedFunnel,
} from '@courselens/contracts';
import { useQueries } from '@tanstack/react-query';
import { AlertTriangle, Lightbulb, Save } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { TextField } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCourseOptions } from '@/lib/course-options';
import { toast } from '@/lib/toast';

import { useCreateFunnel } from '../api/create-funnel';
import { useFunnelResult } from '../api/compute-funnel';
import { useAnalyticsSettings } from '../api/get-analytics-settings';
import { funnelQuestionStatsQueryOptions } from '../api/get-funnel-question-stats';
import { useFunnels } from '../api/get-funnels';
import { useUpdateFunnel } from '../api/update-funnel';
import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { FunnelBuilder } from './funnel-builder';
import { FunnelDroppedOffSheet } from './funnel-dropped-off';
import {
  breakdownFromDraft,
  configFromDraft,
  definitionFromDraft,
  draftFromConfig,
  draftProblems,
  emptyDraft,
  type FunnelDraft,
} from './funnel-draft';
import { FunnelResult } from './funnel-result';
import { FunnelSavedList, SaveFunnelDialog } from './funnel-saved-list';

const DEFAULT_WINDOW_DAYS = 14;
/** Edits settle this long before the funnel is computed again. */
const COMPUTE_DELAY_MS = 400;

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The statistics of every course's questions in one map. A module-level
 * function on purpose: an inline `combine` is a new function each render,
 * so TanStack Query would recombine into a new Map on every render and
 * React would never see the same snapshot twice (an endless re-render).
 */
function mergeQuestionStats(
  results: readonly { data?: ReadonlyMap<string, QuestionStatistics> | undefined }[],
) {
  const merged = new Map<string, QuestionStatistics>();
  for (const one of results) for (const [id, stats] of one.data ?? []) merged.set(id, stats);
  return merged;
}

function sameConfig(a: FunnelConfig | null, b: FunnelConfig | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `/analytics/funnels`: saved funnels on the side; the builder, the period
 * and the comparison switch; the computed funnel with its breakdown and the
 * learners who dropped off at each step. With nothing saved, it opens on a
 * suggested funnel (course started, first question, completed, in the
 * course with the most runs).
 */
export function FunnelsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const funnels = useFunnels(organizationId);
  const courses = useCourseOptions(organizationId);
  const settings = useAnalyticsSettings(organizationId);
  const create = useCreateFunnel(organizationId);
  const update = useUpdateFunnel(organizationId);

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [draft, setDraft] = useState<FunnelDraft>(() => emptyDraft());
  const [isSuggestion, setIsSuggestion] = useState(false);
  const [isInitialized, setIsInitialized] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [compare, setCompare] = useState(false);
  const [droppedStep, setDroppedStep] = useState<number | null>(null);
  const [isSaveOpen, setIsSaveOpen] = useState(false);

  // Opens on the first saved funnel, or on the suggestion when none is saved.
  if (!isInitialized && (funnels.data || funnels.isError)) {
    setIsInitialized(true);
    const first = funnels.data?.items.find((funnel) => funnel.config !== null);
    if (first?.config) {
      setSelectedId(first.id);
      setDraft(draftFromConfig(first.config));
    } else if (funnels.data?.suggestion) {
      setDraft(draftFromConfig(funnels.data.suggestion.config));
      setIsSuggestion(true);
    }
  }

  const selected = funnels.data?.items.find((funnel) => funnel.id === selectedId) ?? null;
  const problems = useMemo(() => draftProblems(draft), [draft]);
  const config = useMemo(() => configFromDraft(draft), [draft]);
  const isDirty = selected ? !sameConfig(selected.config, config) : true;
  const period = useMemo(() => ({ ...(from ? { from } : {}), ...(to ? { to } : {}) }), [from, to]);
  const periodError =
    from && to && from > to ? 'The start date must be on or before the end date' : undefined;

  const request = useMemo<FunnelComputeInput | null>(
    () =>
      // Nothing is computed before the page knows which funnel it opens on.
      isInitialized && config && !periodError
        ? { definition: definitionFromDraft(draft), period, breakdown: breakdownFromDraft(draft), compare }
        : null,
    [isInitialized, config, draft, period, compare, periodError],
  );
  const settledRequest = useDebounced(request, COMPUTE_DELAY_MS);
  const result = useFunnelResult(organizationId, settledRequest);

  // Item analysis beside each quiz step: one request per course with such a step.
  const quizCourseIds = useMemo(
    () => [
      ...new Set(
        (result.data?.steps ?? []).flatMap((step) =>
          step.questionId && step.courseId ? [step.courseId] : [],
        ),
      ),
    ],
    [result.data],
  );
  const questionStats = useQueries({
    queries: quizCourseIds.map((courseId) => funnelQuestionStatsQueryOptions(organizationId, courseId)),
    combine: mergeQuestionStats,
  });

  const courseList = useMemo(
    () => (courses.data ?? []).map((course) => ({ id: course.id, title: course.title })),
    [courses.data],
  );

  function handleSelect(funnel: SavedFunnel) {
    setSelectedId(funnel.id);
    setIsSuggestion(false);
    setDroppedStep(null);
    if (funnel.config) setDraft(draftFromConfig(funnel.config));
    else toast.warning(funnel.problem ?? 'This funnel cannot be opened');
  }
  function handleNew() {
    setSelectedId(null);
    setIsSuggestion(false);
    setDroppedStep(null);
    setDraft(emptyDraft(draft.courseId));
  }
  function handleDeleted(funnelId: string) {
    if (funnelId === selectedId) handleNew();
  }

  async function handleSaveChanges() {
    if (!selected || !config) return;
    try {
      await update.mutateAsync({ funnelId: selected.id, config });
      toast.success('Funnel saved');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The funnel could not be saved. Please try again.');
    }
  }
  async function handleSaveNew(name: string) {
    if (!config) return;
    try {
      const saved = await create.mutateAsync({ name, config });
      setSelectedId(saved.id);
      setIsSuggestion(false);
      setIsSaveOpen(false);
      toast.success('Funnel saved');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The funnel could not be saved. Please try again.');
    }
  }

  const saveName = selected
    ? `${selected.name} (copy)`
    : isSuggestion && funnels.data?.suggestion
      ? funnels.data.suggestion.name
      : '';
  const resultError = result.isError
    ? isApiError(result.error)
      ? result.error.message
      : 'The funnel could not be computed. Please try again.'
    : null;
  const droppedLabel = droppedStep === null ? '' : (result.data?.steps[droppedStep]?.label ?? '');

  return (
    <AnalyticsPage
      section="funnels"
      title="Funnels"
      description="How many learners go from one course event to the next, where they drop off, and how long each step takes."
    >
      <div className="grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <aside className="lg:border-r lg:border-line lg:pr-4">
          <FunnelSavedList
            organizationId={organizationId}
            funnels={funnels.data?.items}
            isLoading={funnels.isLoading}
            selectedId={selectedId}
            onSelect={handleSelect}
            onNew={handleNew}
            onDeleted={handleDeleted}
          />
        </aside>

        <div className="flex min-w-0 flex-col gap-6">
          {isSuggestion ? (
            <div className="flex items-start gap-2 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-fg dark:border-brand-400/30 dark:bg-brand-400/10">
              <Lightbulb
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300"
              />
              <p>
                A suggested funnel to start from: your most-taken course, from start through its first
                question to completion. Change any step, then save it.
              </p>
            </div>
          ) : null}
          {selected?.problem ? (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200"
            >
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <p>{selected.problem}</p>
            </div>
          ) : null}

          <Card className="p-4 sm:p-5">
            <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-base font-semibold text-fg">{selected ? selected.name : 'New funnel'}</h2>
              <div className="flex flex-wrap gap-2">
                {selected ? (
                  <Button
                    onClick={() => void handleSaveChanges()}
                    isLoading={update.isPending}
                    disabled={!config || !isDirty}
                  >
                    {update.isPending ? null : <Save aria-hidden="true" />}
                    Save changes
                  </Button>
                ) : null}
                <Button
                  variant={selected ? 'outline' : 'primary'}
                  onClick={() => setIsSaveOpen(true)}
                  disabled={!config}
                >
                  {selected ? 'Save as new' : 'Save funnel'}
                </Button>
              </div>
            </div>
            <FunnelBuilder
              organizationId={organizationId}
              draft={draft}
              onChange={setDraft}
              courses={courseList}
              defaultWindowDays={settings.data?.settings.funnelWindowDays ?? DEFAULT_WINDOW_DAYS}
              problems={problems}
            />
          </Card>

          <section aria-labelledby="funnel-result-heading" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id="funnel-result-heading" className="text-lg font-semibold text-fg">
                Result
              </h2>
              <div className="flex flex-wrap items-end gap-3">
                <TextField
                  label="From"
                  type="date"
                  value={from}
                  max={to || undefined}
                  onChange={(event) => setFrom(event.target.value)}
                />
                <TextField
                  label="To"
                  type="date"
                  value={to}
                  min={from || undefined}
                  onChange={(event) => setTo(event.target.value)}
                  error={periodError}
                />
                <div className="flex items-center gap-2 pb-2">
                  <Switch checked={compare} onChange={setCompare} label="Compare with the previous period" />
                  <span aria-hidden="true" className="text-sm text-fg">
                    Compare with previous period
                  </span>
                </div>
              </div>
            </div>
            {!from && !to ? (
              <p className="text-xs text-fg-muted">
                The last 30 days. Learners enter with step 1 in the period.
              </p>
            ) : null}

            {!config ? (
              <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-fg-muted">
                Complete the steps above to see the funnel: {Object.values(problems)[0]}
              </p>
            ) : resultError ? (
              <p
                role="alert"
                className="rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:border-rose-400/30 dark:bg-rose-400/10 dark:text-rose-200"
              >
                {resultError}
              </p>
            ) : !result.data ? (
              <div className="flex justify-center py-12">
                <Spinner label="Computing the funnel" />
              </div>
            ) : (
              <>
                <FunnelResult
                  result={result.data}
                  isFetching={result.isFetching || request !== settledRequest}
                  questionStats={questionStats}
                  onShowDroppedOff={setDroppedStep}
                />
                <p className="text-xs text-fg-muted">
                  {result.data.period.from} to {result.data.period.to} · window {result.data.windowDays} days
                  {result.data.isDefaultWindow ? ' (settings default)' : ''}
                </p>
                <AnalyticsBasisNote basis={result.data.basis} showCompletion />
              </>
            )}
          </section>
        </div>
      </div>

      {settledRequest ? (
        <FunnelDroppedOffSheet
          organizationId={organizationId}
          definition={settledRequest.definition}
          period={settledRequest.period ?? {}}
          stepIndex={droppedStep}
          stepLabel={droppedLabel}
          onClose={() => setDroppedStep(null)}
        />
      ) : null}
      <SaveFunnelDialog
        open={isSaveOpen}
        initialName={saveName}
        isSaving={create.isPending}
        onClose={() => setIsSaveOpen(false)}
        onSave={(name) => void handleSaveNew(name)}
      />
    </AnalyticsPage>
  );
}
