import { MAX_DRY_RUN_DAYS, PIPELINE_MESSAGES, type DryRunResponse } from '@courselens/contracts';
import { CalendarRange, Zap } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Pagination } from '@/components/ui/pagination';
import { inputClassName } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';

import { useDryRunPipeline } from '../../api/test-pipeline';

import { displayName, graphToApi, type EditorGraph } from './graph-model';

const DAY_MS = 24 * 3600 * 1000;
const LEARNERS_PAGE_SIZE = 25;

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export function periodDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Why a period cannot be dry-run, or null. */
export function periodProblem(from: string, to: string, today: string): string | null {
  if (!from || !to) return 'Choose the first and the last day';
  if (from > to) return 'The first day comes after the last one';
  if (to > today || periodDays(from, to) > MAX_DRY_RUN_DAYS) return PIPELINE_MESSAGES.dryRunPeriod;
  return null;
}

export type DryRunDialogProps = {
  open: boolean;
  onClose: () => void;
  pipelineId: string;
  graph: EditorGraph;
};

/**
 * "Backtest": the pipeline on the editor over a past period of the log,
 * with no side effect, says what it would have done per action and per
 * learner.
 */
export function DryRunDialog({ open, onClose, pipelineId, graph }: DryRunDialogProps) {
  const [today] = useState(() => isoDate(new Date()));
  const [from, setFrom] = useState(() => isoDate(new Date(Date.now() - 30 * DAY_MS)));
  const [to, setTo] = useState(() => isoDate(new Date(Date.now() - DAY_MS)));
  const [isTouched, setIsTouched] = useState(false);
  const dryRun = useDryRunPipeline(pipelineId);
  const [ranPeriod, setRanPeriod] = useState<{ from: string; to: string } | null>(null);
  const problem = periodProblem(from, to, today);
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));

  function handleSubmit() {
    setIsTouched(true);
    if (problem) return;
    setRanPeriod({ from, to });
    dryRun.mutate({ from, to, page: 1, pageSize: LEARNERS_PAGE_SIZE, ...graphToApi(graph) });
  }

  function handlePage(page: number) {
    if (!ranPeriod) return;
    dryRun.mutate({ ...ranPeriod, page, pageSize: LEARNERS_PAGE_SIZE, ...graphToApi(graph) });
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Dry run"
      description={`What the pipeline on the editor would have done over a past period (at most ${MAX_DRY_RUN_DAYS} days). Nothing is sent or changed.`}
      className="max-w-3xl"
    >
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          handleSubmit();
        }}
      >
        <label className="flex flex-1 flex-col gap-1.5 text-sm font-medium text-fg">
          From
          <input
            type="date"
            value={from}
            max={to || today}
            onChange={(event) => setFrom(event.target.value)}
            aria-invalid={isTouched && problem ? true : undefined}
            aria-describedby={isTouched && problem ? 'dry-run-period-error' : undefined}
            className={inputClassName}
          />
        </label>
        <label className="flex flex-1 flex-col gap-1.5 text-sm font-medium text-fg">
          To
          <input
            type="date"
            value={to}
            min={from || undefined}
            max={today}
            onChange={(event) => setTo(event.target.value)}
            aria-invalid={isTouched && problem ? true : undefined}
            aria-describedby={isTouched && problem ? 'dry-run-period-error' : undefined}
            className={inputClassName}
          />
        </label>
        <Button type="submit" isLoading={dryRun.isPending}>
          <CalendarRange aria-hidden="true" />
          Run on this period
        </Button>
      </form>
      {isTouched && problem ? (
        <p id="dry-run-period-error" role="alert" className="mt-2 text-sm text-rose-600 dark:text-rose-400">
          {problem}
        </p>
      ) : null}
      {dryRun.isError ? (
        <p role="alert" className="mt-3 text-sm text-rose-600 dark:text-rose-400">
          {isApiError(dryRun.error) ? dryRun.error.message : 'The dry run failed. Please try again.'}
        </p>
      ) : null}
      {dryRun.data ? (
        <DryRunResult
          result={dryRun.data}
          nodeName={(id) => (byId.get(id) ? displayName(byId.get(id)!) : id)}
          onPageChange={handlePage}
        />
      ) : null}
    </Dialog>
  );
}

type DryRunResultProps = {
  result: DryRunResponse;
  nodeName: (id: string) => string;
  onPageChange: (page: number) => void;
};

function DryRunResult({ result, nodeName, onPageChange }: DryRunResultProps) {
  return (
    <div className="mt-5 flex flex-col gap-5" data-testid="dry-run-result" aria-live="polite">
      <p className="text-sm text-fg">
        From {result.from} to {result.to}: {formatNumber(result.events)}{' '}
        {result.events === 1 ? 'event' : 'events'} would have started {formatNumber(result.runs)}{' '}
        {result.runs === 1 ? 'run' : 'runs'}
        {result.stopped > 0 ? `; ${formatNumber(result.stopped)} stopped at a filter or a branch` : ''}.
      </p>
      {result.truncated ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-400/10 dark:text-amber-100">
          The period holds more events than one dry run reads: the figures cover the first ones. Choose a
          shorter period for all of them.
        </p>
      ) : null}
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold text-fg">What the actions would have done</h3>
        {result.actions.length === 0 ? (
          <p className="text-sm text-fg-muted">No action would have run.</p>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {result.actions.map((action) => (
              <li
                key={action.nodeId}
                className="flex items-start gap-2 text-sm text-fg [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0"
              >
                <Zap aria-hidden="true" className="text-amber-600 dark:text-amber-300" />
                <span>
                  <span className="font-medium">{action.actionName}</span>: {action.summary}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold text-fg">Learners ({formatNumber(result.learners.total)})</h3>
        {result.learners.items.length === 0 ? (
          <p className="text-sm text-fg-muted">No learner would have been reached.</p>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-line">
            <table className="w-full text-sm">
              <caption className="sr-only">Learners the pipeline would have reached</caption>
              <thead className="bg-surface-muted/50 text-left text-xs font-semibold tracking-wide text-fg-subtle uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Learner
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Runs
                  </th>
                  <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                    Actions reached
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {result.learners.items.map((learner) => (
                  <tr key={learner.email}>
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      <span className="block font-medium break-all text-fg">
                        {learner.name ?? learner.email}
                      </span>
                      {learner.name ? (
                        <span className="block text-xs break-all text-fg-muted">{learner.email}</span>
                      ) : null}
                      <span className="block text-xs text-fg-muted sm:hidden">
                        {learner.actions.map(nodeName).join(', ')}
                      </span>
                    </th>
                    <td className="px-3 py-2 text-right text-fg-muted tabular-nums">
                      {formatNumber(learner.runs)}
                    </td>
                    <td className="hidden px-3 py-2 text-fg-muted sm:table-cell">
                      {learner.actions.map(nodeName).join(', ') || '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {result.learners.total > result.learners.pageSize ? (
          <Pagination
            page={result.learners.page}
            pageSize={result.learners.pageSize}
            total={result.learners.total}
            onPageChange={onPageChange}
            noun="learners"
          />
        ) : null}
      </section>
    </div>
  );
}
