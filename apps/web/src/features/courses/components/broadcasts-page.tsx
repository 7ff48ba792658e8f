import { COURSE_MESSAGES, setBroadcastInput } from '@courselens/contracts';
import { Megaphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { inputClassName } from '@/components/ui/text-field';
import { useSession } from '@/lib/auth';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';

import { BROADCASTS_PAGE_SIZE, broadcastsPageOf, useBroadcasts } from '../api/get-broadcasts';
import { useSetBroadcast } from '../api/set-broadcast';

const MAX_LENGTH = 1000;

/**
 * /courses/:courseId/broadcasts?title=…: the message the course shows its
 * learners (set or clear it) and the history of broadcasts with who and when.
 * The course layout draws the header (its heading is the `title` query
 * parameter, as the spec says).
 */
export function BroadcastsPage() {
  const { courseId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = broadcastsPageOf(searchParams);
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const broadcasts = useBroadcasts(organizationId, courseId, page);
  const setBroadcast = useSetBroadcast(organizationId);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const currentMessage = broadcasts.data?.currentMessage ?? null;

  async function send(message: string | null) {
    setError(null);
    const parsed = setBroadcastInput.safeParse({ message });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? COURSE_MESSAGES.broadcastEmpty);
      return;
    }
    try {
      await setBroadcast.mutateAsync({ courseId, message: parsed.data.message });
      toast.success(parsed.data.message === null ? 'Broadcast cleared' : 'Broadcast sent');
      setDraft('');
      if (page !== 1) changePage(1);
    } catch (caught) {
      const text = isApiError(caught) ? caught.message : 'Something went wrong. Please try again.';
      setError(text);
      toast.error(text);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(draft);
  }

  function changePage(next: number) {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        if (next === 1) params.delete('page');
        else params.set('page', String(next));
        return params;
      },
      { replace: true },
    );
  }

  const isSending = setBroadcast.isPending && setBroadcast.variables.message !== null;
  const isClearing = setBroadcast.isPending && setBroadcast.variables.message === null;

  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2 lg:items-start">
      <Card>
        <CardHeader>
          <CardTitle>Current message</CardTitle>
          <CardDescription>
            Courses with the tracker show this message to their learners until you clear it.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {broadcasts.isPending ? (
            <Spinner label="Loading the current message" />
          ) : broadcasts.isError ? (
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {broadcasts.error.message}
            </p>
          ) : (
            <div
              data-testid="current-broadcast"
              className={cn(
                'flex items-start gap-3 rounded-xl p-4 text-sm',
                currentMessage
                  ? 'bg-brand-50 text-brand-900 ring-1 ring-brand-600/20 ring-inset dark:bg-brand-400/10 dark:text-brand-100 dark:ring-brand-300/25'
                  : 'bg-surface-muted text-fg-muted',
              )}
            >
              <Megaphone aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <p className="min-w-0 break-words whitespace-pre-wrap">
                {currentMessage ?? 'No message is showing right now.'}
              </p>
            </div>
          )}

          <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-3">
            <div className="flex flex-col gap-1.5">
              <div className="flex items-baseline justify-between gap-2">
                <label htmlFor="broadcast-message" className="text-sm font-medium text-fg">
                  New message
                </label>
                <span className="text-xs text-fg-subtle tabular-nums" aria-live="polite">
                  {draft.length}/{MAX_LENGTH}
                </span>
              </div>
              <textarea
                id="broadcast-message"
                rows={3}
                value={draft}
                maxLength={MAX_LENGTH}
                placeholder="What the learners of this course should read"
                onChange={(event) => setDraft(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'broadcast-error' : undefined}
                className={cn(inputClassName, 'h-auto py-2')}
              />
              {error ? (
                <p id="broadcast-error" role="alert" className="text-sm text-rose-600 dark:text-rose-400">
                  {error}
                </p>
              ) : null}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button
                variant="outline"
                onClick={() => void send(null)}
                disabled={!currentMessage || setBroadcast.isPending}
                isLoading={isClearing}
              >
                Clear message
              </Button>
              <Button type="submit" isLoading={isSending} disabled={setBroadcast.isPending}>
                <Megaphone aria-hidden="true" />
                Send broadcast
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <section aria-labelledby="broadcast-history-heading" className="flex flex-col gap-4">
        <h2 id="broadcast-history-heading" className="text-lg font-semibold tracking-tight text-fg">
          Past broadcasts
        </h2>
        {broadcasts.isPending ? null : broadcasts.data && broadcasts.data.items.length > 0 ? (
          <ol
            aria-labelledby="broadcast-history-heading"
            className={cn(
              'divide-y divide-line rounded-2xl border border-line bg-surface',
              broadcasts.isPlaceholderData ? 'opacity-60' : undefined,
            )}
          >
            {broadcasts.data.items.map((item) => (
              <li key={item.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-start sm:gap-4">
                <p
                  className={cn(
                    'min-w-0 flex-1 text-sm break-words whitespace-pre-wrap',
                    item.message === null ? 'text-fg-muted italic' : 'text-fg',
                  )}
                >
                  {item.message ?? 'Message cleared'}
                </p>
                <p className="shrink-0 text-xs text-fg-muted sm:text-right">
                  {item.authorName ?? 'Someone'} ·{' '}
                  <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
                    {formatRelative(item.createdAt)}
                  </time>
                </p>
              </li>
            ))}
          </ol>
        ) : broadcasts.isError ? null : (
          <div className="rounded-2xl border border-dashed border-line-strong">
            <EmptyState icon={<Megaphone />} title="No broadcasts yet">
              Messages you send appear here with who sent them and when.
            </EmptyState>
          </div>
        )}
        {broadcasts.data && broadcasts.data.total > BROADCASTS_PAGE_SIZE ? (
          <Pagination
            page={page}
            pageSize={BROADCASTS_PAGE_SIZE}
            total={broadcasts.data.total}
            onPageChange={changePage}
            noun="broadcasts"
          />
        ) : null}
      </section>
    </div>
  );
}
