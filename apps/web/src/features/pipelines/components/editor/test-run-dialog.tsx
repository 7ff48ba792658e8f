import { FlaskConical, Inbox } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';

import { useTestEvents, useTestPipeline } from '../../api/test-pipeline';
import { RunSteps } from '../runs/run-steps';
import { RunStatusBadge } from '../status';

import { graphToApi, type EditorGraph } from './graph-model';

export type TestRunDialogProps = {
  open: boolean;
  onClose: () => void;
  organizationId: string | undefined;
  pipelineId: string;
  /** The graph on the editor, saved or not: it is what is tested. */
  graph: EditorGraph;
};

/**
 * A test run on a real recent event of the log: each step's input, output
 * and status. Dry by default (actions say what they would have done);
 * "Run actions for real" has to be ticked to send anything.
 */
export function TestRunDialog({ open, onClose, organizationId, pipelineId, graph }: TestRunDialogProps) {
  const events = useTestEvents(organizationId, pipelineId, open);
  const test = useTestPipeline(pipelineId);
  const [eventId, setEventId] = useState<string | null>(null);
  const [execute, setExecute] = useState(false);
  const chosen = eventId ?? events.data?.items[0]?.eventId ?? null;

  function handleClose() {
    test.reset();
    setExecute(false);
    onClose();
  }

  function handleRun() {
    if (!chosen) return;
    test.mutate({ eventId: chosen, execute, ...graphToApi(graph) });
  }

  return (
    <Dialog
      open={open}
      onClose={handleClose}
      title="Test run"
      description="Runs the pipeline on the editor with a real recent event."
      className="max-w-2xl"
    >
      {test.data ? (
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-2 text-sm text-fg">
            <span className="font-medium">Result</span>
            <RunStatusBadge status={test.data.status} />
            <span className="text-fg-muted">
              {test.data.dry
                ? 'Dry: no action ran; each action step shows what it would have sent.'
                : 'Actions ran for real.'}
            </span>
          </div>
          {test.data.error ? (
            <p className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:bg-rose-400/10 dark:text-rose-200">
              {test.data.error}
            </p>
          ) : null}
          <div data-testid="test-run-result">
            <RunSteps steps={test.data.steps} />
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={() => test.reset()}>
              Test another event
            </Button>
            <Button onClick={handleClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            handleRun();
          }}
        >
          {events.isPending ? (
            <div className="flex justify-center py-8 text-fg-muted">
              <Spinner label="Loading recent events" />
            </div>
          ) : events.isError ? (
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {events.error.message}
            </p>
          ) : events.data.items.length === 0 ? (
            <EmptyState icon={<Inbox />} title="No recent event to test with">
              The log has no recent event its sources react to. Choose a course or an agent and its events on
              a source node, or send an event from the course or talk to the agent first.
            </EmptyState>
          ) : (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-fg">Event</legend>
              <ul className="flex max-h-72 flex-col gap-1.5 overflow-y-auto pr-1">
                {events.data.items.map((item) => (
                  <li
                    key={item.eventId}
                    className="flex items-start gap-3 rounded-lg border border-line px-3 py-2 hover:bg-surface-muted has-[:checked]:border-brand-500 dark:has-[:checked]:border-brand-300"
                  >
                    <input
                      id={`test-event-${item.eventId}`}
                      type="radio"
                      name="test-event"
                      value={item.eventId}
                      checked={chosen === item.eventId}
                      onChange={() => setEventId(item.eventId)}
                      aria-describedby={`test-event-${item.eventId}-details`}
                      className="mt-1 size-4 accent-brand-600"
                    />
                    <span className="flex min-w-0 flex-col">
                      <label
                        htmlFor={`test-event-${item.eventId}`}
                        className="cursor-pointer text-sm font-medium break-words text-fg"
                      >
                        {item.summary}
                      </label>
                      <span
                        id={`test-event-${item.eventId}-details`}
                        className="text-xs break-words text-fg-muted"
                      >
                        {[item.type, item.courseTitle, item.learnerEmail].filter(Boolean).join(' · ')} ·{' '}
                        <time dateTime={item.occurredAt} title={formatDateTime(item.occurredAt)}>
                          {formatRelative(item.occurredAt)}
                        </time>
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <div className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100">
            <input
              id="test-run-execute"
              type="checkbox"
              checked={execute}
              onChange={(event) => setExecute(event.target.checked)}
              aria-describedby="test-run-execute-hint"
              className="mt-0.5 size-4 accent-amber-600"
            />
            <span>
              <label htmlFor="test-run-execute" className="font-medium">
                Run actions for real
              </label>
              <span id="test-run-execute-hint" className="block text-xs">
                Webhooks are sent, e-mails go out and variables change. Left unticked, each action only says
                what it would have done.
              </span>
            </span>
          </div>
          {test.isError ? (
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {isApiError(test.error) ? test.error.message : 'The test could not run. Please try again.'}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!chosen} isLoading={test.isPending}>
              <FlaskConical aria-hidden="true" />
              {execute ? 'Run test with actions' : 'Run test'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
