import type { LrsUnmappedStatement } from '@courselens/contracts';
import { CircleAlert, Inbox } from 'lucide-react';
import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { formatRelative } from '@/lib/format';

import { useLrsActivity } from '../api/get-lrs-activity';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The verb's last word (`…/verbs/answered` → answered): what people call it. */
function verbName(verb: string): string {
  const tail = verb.replace(/\/+$/, '').split(/[/#]/).at(-1);
  return tail && tail.length > 0 ? tail : verb;
}

/**
 * What the organization's LRS received: when the last statement came, and
 * the latest statements that made no data with the reason, so whoever set a
 * course up sees why a statement shows nowhere (an anonymous learner, no
 * course activity, a plan cap).
 */
export function LrsActivity({ organizationId }: { organizationId: string }) {
  const headingId = useId();
  const activity = useLrsActivity(organizationId);

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle as="h3" id={headingId}>
          Statements received
        </CardTitle>
        <CardDescription>
          {activity.data?.lastStoredAt
            ? `Last statement ${formatRelative(activity.data.lastStoredAt)}.`
            : 'What courses send to the LRS shows up here.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {activity.isPending ? (
          <div className="flex items-center gap-2 text-sm text-fg-muted" role="status">
            <Spinner size="sm" label={null} /> Loading what the LRS received…
          </div>
        ) : activity.isError ? (
          <div
            className="flex flex-wrap items-center gap-3 text-sm text-rose-600 dark:text-rose-400"
            role="alert"
          >
            <CircleAlert aria-hidden="true" className="size-4" />
            Could not load what the LRS received.
            <Button variant="outline" size="sm" onClick={() => void activity.refetch()}>
              Try again
            </Button>
          </div>
        ) : !activity.data.lastStoredAt ? (
          <EmptyState icon={<Inbox aria-hidden="true" />} title="No statement yet">
            Launch a course with the settings above: its first statement appears here within seconds.
          </EmptyState>
        ) : activity.data.unmapped === 0 ? (
          <p className="text-sm text-fg-muted">Every statement of the last 30 days became course data.</p>
        ) : (
          <UnmappedStatements unmapped={activity.data.unmapped} statements={activity.data.recentUnmapped} />
        )}
      </CardContent>
    </Card>
  );
}

function UnmappedStatements({
  unmapped,
  statements,
}: {
  unmapped: number;
  statements: LrsUnmappedStatement[];
}) {
  const captionId = useId();
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <p id={captionId} className="text-sm text-fg">
        {unmapped === 1
          ? '1 statement of the last 30 days made no course data. It is kept as an LRS record:'
          : `${unmapped.toLocaleString()} statements of the last 30 days made no course data. They are kept as LRS records; the latest:`}
      </p>
      <ul
        aria-labelledby={captionId}
        className="flex flex-col divide-y divide-line rounded-xl border border-line"
      >
        {statements.map((statement) => (
          <li key={statement.id} className="flex min-w-0 flex-col gap-1 px-4 py-3 text-sm">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <span className="font-medium text-fg">{verbName(statement.verb)}</span>
              <span className="min-w-0 break-all font-mono text-xs text-fg-muted">{statement.object}</span>
              <time className="ml-auto shrink-0 text-xs text-fg-muted" dateTime={statement.stored}>
                {dateTimeFormat.format(new Date(statement.stored))}
              </time>
            </div>
            <p className="text-fg-muted">
              <span className="sr-only">Why: </span>
              {statement.reason}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
