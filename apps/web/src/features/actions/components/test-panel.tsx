import type { ActionTestResult, ActionType } from '@courselens/contracts';
import { Send } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

import { useTestAction } from '../api/test-action';

/** Green for 2xx, amber for 3xx and 4xx, red for 5xx (and no answer at all). */
export function statusVariant(status: number | null): BadgeVariant {
  if (status === null) return 'danger';
  if (status >= 200 && status < 300) return 'success';
  if (status >= 500 || status < 100) return 'danger';
  return 'warning';
}

const TEST_INTRO: Record<ActionType, string> = {
  webhook: 'Sends the saved webhook with the sample event, signed, and shows what came back.',
  email: 'Sends the saved e-mail, filled in with the sample event, to you only.',
  broadcast: 'Shows what the broadcast would say for the sample event. A test changes nothing.',
  set_variable: 'Shows the value the variable would get for the sample event. A test changes nothing.',
  notify_team: 'Shows the message the team would get for the sample event. A test changes nothing.',
};

export type TestPanelProps = {
  actionId: string;
  type: ActionType;
  /** The form has changes that are not saved: the test uses the saved action. */
  hasUnsavedChanges: boolean;
};

/** "Send test": the request that went out and the answer that came back. */
export function TestPanel({ actionId, type, hasUnsavedChanges }: TestPanelProps) {
  const test = useTestAction(actionId);
  const result = test.data;
  const isPreview = type === 'broadcast' || type === 'set_variable' || type === 'notify_team';

  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle>{isPreview ? 'Preview' : 'Send test'}</CardTitle>
          <CardDescription>{TEST_INTRO[type]}</CardDescription>
          {hasUnsavedChanges ? (
            <p className="text-sm text-amber-700 dark:text-amber-300">
              You have unsaved changes: the test uses the saved action.
            </p>
          ) : null}
        </div>
        <Button
          variant="outline"
          onClick={() => test.mutate()}
          isLoading={test.isPending}
          className="self-start"
        >
          <Send aria-hidden="true" />
          {isPreview ? 'Preview' : 'Send test'}
        </Button>
      </CardHeader>
      <CardContent>
        <div aria-live="polite">
          {test.isError ? (
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {isApiError(test.error) ? test.error.message : 'The test could not run. Please try again.'}
            </p>
          ) : result ? (
            <TestResultView result={result} />
          ) : (
            <p className="text-sm text-fg-subtle">No test yet.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
      {children}
    </section>
  );
}

function HeaderList({
  headers,
  label,
}: {
  headers: readonly { name: string; value: string }[];
  label: string;
}) {
  if (headers.length === 0) return null;
  return (
    <dl aria-label={label} className="divide-y divide-line rounded-lg border border-line text-xs">
      {headers.map((header, index) => (
        <div
          key={`${header.name}-${index}`}
          className="grid gap-0.5 px-3 py-1.5 sm:grid-cols-[minmax(8rem,auto)_1fr] sm:gap-3"
        >
          <dt className="font-mono font-medium text-fg">{header.name}</dt>
          <dd className="min-w-0 font-mono break-all text-fg-muted">{header.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ text, label }: { text: string; label: string }) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  return (
    <pre
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
      tabIndex={0}
      className="max-h-72 overflow-auto rounded-lg bg-surface-muted px-3 py-2 font-mono text-xs break-words whitespace-pre-wrap text-fg focus-visible:outline-2 focus-visible:outline-focus"
    >
      {shown === '' ? <span className="text-fg-subtle italic">Empty</span> : shown}
    </pre>
  );
}

/** One test's request and response, side by side from 1024 px. */
export function TestResultView({ result }: { result: ActionTestResult }) {
  const status = result.response?.status ?? null;
  const isPreview = result.channel === 'preview';
  return (
    <div className="flex flex-col gap-4" data-testid="action-test-result">
      <div className="flex flex-wrap items-center gap-2">
        {isPreview ? (
          <Badge variant="brand">Preview</Badge>
        ) : status !== null ? (
          <Badge variant={statusVariant(status)} dot>
            {status} {result.response?.statusText}
          </Badge>
        ) : (
          <Badge variant="danger" dot>
            No answer
          </Badge>
        )}
        {isPreview ? null : (
          <span className="text-sm text-fg-muted">{formatNumber(result.durationMs)} ms</span>
        )}
        {result.response?.retryAfterSeconds != null ? (
          <span className="text-sm text-fg-muted">
            Retry after {formatNumber(result.response.retryAfterSeconds)} s
          </span>
        ) : null}
      </div>
      {result.error ? (
        <p
          role="alert"
          className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-600/20 ring-inset dark:bg-rose-400/10 dark:text-rose-200 dark:ring-rose-400/25"
        >
          {result.error}
        </p>
      ) : null}
      <div className={cn('grid min-w-0 gap-6', isPreview ? null : 'lg:grid-cols-2')}>
        <Section title={isPreview ? 'What it would do' : 'Request'}>
          <p className="font-mono text-xs break-all text-fg">
            <span className="mr-2 font-semibold">{result.request.method}</span>
            {result.request.url}
          </p>
          <HeaderList headers={result.request.headers} label="Request headers" />
          <Body text={result.request.body} label={isPreview ? 'Value' : 'Request body'} />
        </Section>
        {isPreview ? null : (
          <Section title="Response">
            {result.response ? (
              <>
                <HeaderList headers={result.response.headers} label="Response headers" />
                <Body text={result.response.body} label="Response body" />
                {result.response.bodyTruncated ? (
                  <p className="text-xs text-fg-subtle">Only the first 4 KB of the answer are shown.</p>
                ) : null}
              </>
            ) : (
              <p className="text-sm text-fg-subtle">Nothing came back.</p>
            )}
          </Section>
        )}
      </div>
      {result.note ? <p className="text-xs text-fg-subtle">{result.note}</p> : null}
    </div>
  );
}
