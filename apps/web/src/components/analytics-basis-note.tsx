import type { AnalyticsBasis } from '@courselens/contracts';
import { Settings2 } from 'lucide-react';
import { Link } from 'react-router';

import { FiguresAsOf } from '@/components/figures-as-of';
import { paths } from '@/config/paths';

const completionWords: Record<AnalyticsBasis['completion'], string> = {
  completed: 'completion as the course reports it',
  passed: 'completion means passing',
  last_slide: 'completion means reaching the last slide',
};

/**
 * How the figures on a screen were counted, from the analytics settings:
 * the time zone, what completes a course and the test accounts left out,
 * with a link to change them; and, when they are figures of a moment ago
 * served while newer ones are computed, when they were computed.
 */
export function AnalyticsBasisNote({
  basis,
  showCompletion = false,
}: {
  basis: AnalyticsBasis;
  showCompletion?: boolean;
}) {
  const parts = [`Times in ${basis.timeZone.replaceAll('_', ' ')}`];
  if (showCompletion) parts.push(completionWords[basis.completion]);
  if (basis.excludedLearners > 0) {
    parts.push(
      `${basis.excludedLearners.toLocaleString('en-US')} test ${basis.excludedLearners === 1 ? 'account' : 'accounts'} left out`,
    );
  }
  return (
    <div className="flex flex-col gap-1 text-xs text-fg-subtle">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="analytics-basis">
        <span>{parts.join(' · ')}</span>
        <Link
          to={paths.analytics.settings.href()}
          className="inline-flex items-center gap-1 rounded font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-focus dark:text-brand-300"
        >
          <Settings2 aria-hidden="true" className="size-3.5" />
          Analytics settings
        </Link>
      </p>
      {/* Current figures need no date; those of a moment ago, served while newer ones compute, do. */}
      {basis.refreshing ? <FiguresAsOf computedAt={basis.computedAt} refreshing /> : null}
    </div>
  );
}
