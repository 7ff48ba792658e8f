import { PATH_REST, type SlideCount } from '@courselens/contracts';
import { ChevronRight } from 'lucide-react';
import { Fragment } from 'react';

import { cn } from '@/lib/cn';

const numberFormat = new Intl.NumberFormat('en-US');
const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

export type PathListItem = {
  /** The steps' labels, in order. */
  steps: readonly string[];
  isTruncated: boolean;
  count: number;
  share: number;
};

/** A share as a thin bar with its number beside it (the number is what is read). */
function ShareBar({ share }: { share: number }) {
  return (
    <span aria-hidden="true" className="block h-1.5 w-full overflow-hidden rounded-full bg-surface-muted">
      <span
        className="block h-full rounded-full bg-brand-500 dark:bg-brand-400"
        style={{ width: `${Math.min(100, share * 100)}%` }}
      />
    </span>
  );
}

export type PathListProps = {
  title: string;
  description?: string;
  items: readonly PathListItem[];
  /** What is counted ("runs", "learners"). */
  unit: string;
  emptyText: string;
};

/** The most frequent paths, ranked: each as its steps with arrows, its count and share. */
export function PathList({ title, description, items, unit, emptyText }: PathListProps) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-4 sm:p-5" aria-label={title}>
      <h3 className="text-sm font-semibold text-fg">{title}</h3>
      {description ? <p className="mt-0.5 text-xs text-fg-muted">{description}</p> : null}
      {items.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-line py-8 text-center text-sm text-fg-muted">
          {emptyText}
        </p>
      ) : (
        <ol className="mt-3 flex flex-col divide-y divide-line">
          {items.map((item, index) => {
            const words = [...item.steps, ...(item.isTruncated ? ['and more'] : [])].join(', then ');
            return (
              <li
                key={`${item.steps.join('>')}-${item.isTruncated}`}
                className="flex flex-col gap-1.5 py-2.5"
              >
                <div className="flex items-start justify-between gap-3">
                  <p className="flex min-w-0 flex-wrap items-center gap-1 text-sm text-fg">
                    <span className="mr-1 text-xs font-semibold text-fg-subtle tabular-nums">
                      {index + 1}.
                    </span>
                    <span className="sr-only">{words}</span>
                    {item.steps.map((step, position) => (
                      <Fragment key={position}>
                        {position > 0 ? (
                          <ChevronRight aria-hidden="true" className="size-3.5 text-fg-subtle" />
                        ) : null}
                        <span
                          aria-hidden="true"
                          className="rounded-md bg-surface-muted px-1.5 py-0.5 text-xs font-medium"
                        >
                          {step}
                        </span>
                      </Fragment>
                    ))}
                    {item.isTruncated ? (
                      <span
                        aria-hidden="true"
                        className="text-xs text-fg-subtle"
                        title="The path goes on past the depth"
                      >
                        {PATH_REST}
                      </span>
                    ) : null}
                  </p>
                  <p className="shrink-0 text-right text-sm text-fg tabular-nums">
                    {numberFormat.format(item.count)} <span className="text-fg-muted">{unit}</span>
                    <span className="ml-2 text-xs text-fg-muted">{percent(item.share)}</span>
                  </p>
                </div>
                <ShareBar share={item.share} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export type ExitListProps = {
  title: string;
  description?: string;
  exits: readonly SlideCount[];
  slideLabel: (slideNumber: number) => string;
  /** Picks a slide to follow the runs that dropped off after it. */
  onFollow?: (slideNumber: number) => void;
  followedSlide?: number | undefined;
  emptyText: string;
};

/** Where runs left, most first: the slide, runs and share, and a button to follow those runs. */
export function ExitList({
  title,
  description,
  exits,
  slideLabel,
  onFollow,
  followedSlide,
  emptyText,
}: ExitListProps) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-4 sm:p-5" aria-label={title}>
      <h3 className="text-sm font-semibold text-fg">{title}</h3>
      {description ? <p className="mt-0.5 text-xs text-fg-muted">{description}</p> : null}
      {exits.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-line py-8 text-center text-sm text-fg-muted">
          {emptyText}
        </p>
      ) : (
        <ol className="mt-3 flex flex-col divide-y divide-line">
          {exits.map((exit, index) => (
            <li key={exit.slideNumber} className="flex flex-col gap-1.5 py-2.5">
              <div className="flex items-center justify-between gap-3">
                <p className="min-w-0 truncate text-sm text-fg">
                  <span className="mr-1 text-xs font-semibold text-fg-subtle tabular-nums">{index + 1}.</span>
                  {slideLabel(exit.slideNumber)}
                </p>
                <div className="flex shrink-0 items-center gap-2">
                  <p className="text-sm text-fg tabular-nums">
                    {numberFormat.format(exit.runs)} <span className="text-fg-muted">runs</span>
                    <span className="ml-2 text-xs text-fg-muted">{percent(exit.share)}</span>
                  </p>
                  {onFollow ? (
                    <button
                      type="button"
                      aria-pressed={followedSlide === exit.slideNumber}
                      onClick={() => onFollow(exit.slideNumber)}
                      className={cn(
                        'rounded-md border border-line px-2 py-1 text-xs font-medium text-fg-muted hover:bg-surface-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus',
                        followedSlide === exit.slideNumber &&
                          'border-brand-500 text-brand-700 dark:text-brand-300',
                      )}
                    >
                      Follow
                      <span className="sr-only">
                        {' '}
                        the runs that left at or after {slideLabel(exit.slideNumber)}
                      </span>
                    </button>
                  ) : null}
                </div>
              </div>
              <ShareBar share={exit.share} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
