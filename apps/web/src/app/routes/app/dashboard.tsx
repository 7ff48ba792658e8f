import { BookOpen, Cable, FileChartColumn, UserPlus, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';

type Step = { icon: LucideIcon; title: string; text: string; href: string; isExternal?: boolean };

const firstSteps: Step[] = [
  {
    icon: Cable,
    title: 'Connect a course',
    text: 'Add the tracker script to your course or send events with an ingestion key.',
    href: paths.docs.href(),
    isExternal: true,
  },
  {
    icon: UserPlus,
    title: 'Invite your team',
    text: 'Owners invite colleagues by e-mail from the organization settings.',
    href: paths.organization.settings.href(),
  },
  {
    icon: FileChartColumn,
    title: 'Build a report',
    text: 'Combine variables and questions and share a read-only link.',
    href: paths.customReports.list.href(),
  },
];

export function DashboardRoute() {
  const session = useSession();
  const firstName = session.user?.name.split(' ')[0] ?? '';
  const organizationName = session.currentOrganization?.name;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Dashboard · CourseLens</title>
      <PageHeader
        title="Dashboard"
        description={
          organizationName
            ? `Welcome back${firstName ? `, ${firstName}` : ''}. Here is what is happening in ${organizationName}.`
            : 'Welcome to CourseLens.'
        }
      />
      <section aria-labelledby="first-steps" className="mt-8">
        <h2 id="first-steps" className="text-sm font-semibold tracking-wide text-fg-subtle uppercase">
          First steps
        </h2>
        <ul className="mt-3 grid gap-4 md:grid-cols-3">
          {firstSteps.map((step) => {
            const content = (
              <>
                <span className="flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300">
                  <step.icon aria-hidden="true" className="size-5" />
                </span>
                <span className="mt-4 block font-semibold text-fg">{step.title}</span>
                <span className="mt-1 block text-sm text-fg-muted">{step.text}</span>
              </>
            );
            const className =
              'block h-full rounded-2xl border border-line bg-surface p-5 shadow-sm transition-colors hover:border-brand-300 dark:hover:border-brand-400/50';
            return (
              <li key={step.title}>
                {step.isExternal ? (
                  <a href={step.href} className={className}>
                    {content}
                  </a>
                ) : (
                  <Link to={step.href} className={className}>
                    {content}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <Card className="mt-8 flex flex-col items-center px-6 py-14 text-center" data-testid="empty-state">
        <div className="mb-5 flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300">
          <BookOpen aria-hidden="true" className="size-6" />
        </div>
        <h2 className="text-lg font-semibold text-fg">No course activity yet</h2>
        <p className="mt-2 max-w-md text-sm text-fg-muted">
          <span className="font-medium text-fg">What will appear here:</span> active learners, completions and
          scores of the last 30 days, and the courses that need attention.
        </p>
        <p className="mt-3 max-w-md text-sm text-fg-subtle">
          This overview arrives with the course ingestion and analytics capabilities.
        </p>
      </Card>
    </div>
  );
}
