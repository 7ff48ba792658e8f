import { ArrowLeft, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { EmailText } from '@/components/email-text';
import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatNumber, formatPercent, formatRelative } from '@/lib/format';

import { useLearner } from '../api/get-learner';

import { correctRate, learnerDisplayName } from './format-value';

export type LearnerTab = 'courses' | 'variables' | 'responses';

const tabs: { id: LearnerTab; label: string; href: (learnerId: string) => string }[] = [
  { id: 'courses', label: 'Courses', href: paths.learners.courses.href },
  { id: 'variables', label: 'Variables', href: paths.learners.variables.href },
  { id: 'responses', label: 'Responses', href: paths.learners.responses.href },
];

export type LearnerLayoutProps = {
  learnerId: string;
  /** The tab to mark as current; the per-course variables page belongs to "courses". */
  tab: LearnerTab;
  /** The document title's first part ("Courses"). */
  title: string;
  children: ReactNode;
};

/**
 * The frame of every `/learner/:learnerId/...` page: the learner’s name,
 * e-mail and totals, and tabs between their courses, variables and answers.
 * An unknown learner (or one of another organization) shows a not-found page.
 */
export function LearnerLayout({ learnerId, tab, title, children }: LearnerLayoutProps) {
  const session = useSession();
  const learner = useLearner(session.currentOrganization?.id, learnerId);

  if (learner.isError && isApiError(learner.error) && learner.error.status === 404) {
    return (
      <PageMessage
        icon={<UserX />}
        eyebrow="404"
        title="Learner not found"
        actions={
          <Link to={paths.learners.list.href()} className={buttonClassName()}>
            Back to learners
          </Link>
        }
      >
        This learner does not exist or belongs to another organization.
      </PageMessage>
    );
  }

  const profile = learner.data;
  const name = profile ? learnerDisplayName(profile) : null;
  const stats = profile
    ? [
        { label: 'Courses', value: formatNumber(profile.totals.courses) },
        { label: 'Completed', value: formatNumber(profile.totals.completedCourses) },
        { label: 'Runs', value: formatNumber(profile.totals.runs) },
        { label: 'Answers', value: formatNumber(profile.totals.responses) },
        { label: 'Correct', value: formatPercent(correctRate(profile.totals)) },
        {
          label: 'Last activity',
          value: profile.lastActivityAt ? formatRelative(profile.lastActivityAt) : 'Never',
        },
      ]
    : [];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${name ? `${name} · ` : ''}${title} · CourseLens`}</title>
      <Link
        to={paths.learners.list.href()}
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Learners
      </Link>
      <header className="mt-4 flex flex-col gap-4">
        {learner.isPending ? (
          <div className="flex h-16 items-center text-fg-muted">
            <Spinner label="Loading learner" />
          </div>
        ) : learner.isError ? (
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">Learner</h1>
            <p role="alert" className="mt-2 text-sm text-rose-600 dark:text-rose-400">
              {learner.error.message}
            </p>
          </div>
        ) : profile ? (
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold tracking-tight break-words text-fg sm:text-3xl">{name}</h1>
            {profile.name?.trim() ? (
              <p className="text-sm text-fg-muted sm:text-base">
                <a
                  href={`mailto:${profile.email}`}
                  className="rounded hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-focus"
                >
                  <EmailText email={profile.email} />
                </a>
              </p>
            ) : null}
          </div>
        ) : null}
        {stats.length > 0 ? (
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
            {stats.map((stat) => (
              <div key={stat.label} className="rounded-xl border border-line bg-surface px-3 py-2 shadow-xs">
                <dt className="truncate text-xs font-medium text-fg-subtle">{stat.label}</dt>
                <dd className="mt-0.5 truncate text-base font-semibold text-fg tabular-nums">{stat.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </header>
      <nav aria-label="Learner sections" className="mt-6 border-b border-line">
        <ul className="-mb-px flex gap-1 overflow-x-auto">
          {tabs.map((item) => (
            <li key={item.id}>
              <Link
                to={item.href(learnerId)}
                aria-current={item.id === tab ? 'page' : undefined}
                className={cn(
                  'inline-flex items-center border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors',
                  'rounded-t focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus',
                  item.id === tab
                    ? 'border-brand-600 text-fg dark:border-brand-400'
                    : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
                )}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">{children}</div>
    </div>
  );
}
