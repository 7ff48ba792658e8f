import { ArrowRight, BookOpen, CheckCircle2, KeyRound, UsersRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';

type FirstStep = { title: string; description: string; href: string; icon: ReactNode; action: string };

const firstSteps: FirstStep[] = [
  {
    title: 'Connect a course',
    description: 'Create an API key with the ingest scope and add the tracker script to your course.',
    href: `${paths.organization.settings.href()}?tab=api-keys`,
    icon: <KeyRound aria-hidden="true" />,
    action: 'Create an API key',
  },
  {
    title: 'Invite your team',
    description: 'Send invitations by e-mail; teammates join your organization through their link.',
    href: `${paths.organization.settings.href()}?tab=invitations`,
    icon: <UsersRound aria-hidden="true" />,
    action: 'Invite the team',
  },
  {
    title: 'Explore your courses',
    description: 'Once data arrives, courses, learners and their answers appear here.',
    href: paths.courses.list.href(),
    icon: <BookOpen aria-hidden="true" />,
    action: 'Open courses',
  },
];

/** `/signup-success`: welcome and the first steps (connect a course, invite the team). */
export function SignupSuccessPage() {
  const session = useSession();
  const firstName = session.user?.name.split(' ')[0];
  const organizationName = session.currentOrganization?.name;

  return (
    <section className="mx-auto w-full max-w-3xl flex-1 px-4 py-10 sm:py-16">
      <title>Welcome · CourseLens</title>
      <div className="text-center">
        <div className="mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl bg-emerald-50 text-emerald-600 ring-1 ring-emerald-600/15 dark:bg-emerald-400/10 dark:text-emerald-300 dark:ring-emerald-300/20 [&_svg]:size-7">
          <CheckCircle2 aria-hidden="true" />
        </div>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl">
          {firstName ? `Welcome to CourseLens, ${firstName}!` : 'Welcome to CourseLens!'}
        </h1>
        <p className="mt-3 text-base text-pretty text-fg-muted">
          {organizationName
            ? `Your organization “${organizationName}” is ready.`
            : 'Your account and organization are ready.'}{' '}
          Here is how to get your first insights.
        </p>
      </div>
      <ol className="mt-10 grid gap-4 sm:grid-cols-3">
        {firstSteps.map((step, index) => (
          <li
            key={step.title}
            className="flex flex-col rounded-2xl border border-line bg-surface p-5 shadow-sm shadow-slate-900/5 dark:shadow-black/20"
          >
            <div className="flex items-center gap-3">
              <span className="flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300 [&_svg]:size-5">
                {step.icon}
              </span>
              <span className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
                Step {index + 1}
              </span>
            </div>
            <h2 className="mt-4 text-base font-semibold text-fg">{step.title}</h2>
            <p className="mt-1 flex-1 text-sm text-fg-muted">{step.description}</p>
            <Link
              to={step.href}
              className={buttonClassName({ variant: 'outline', size: 'sm', className: 'mt-4 self-start' })}
            >
              {step.action}
              <ArrowRight aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ol>
      <div className="mt-10 flex justify-center">
        <Link to={paths.dashboard.href()} className={buttonClassName({ size: 'lg' })}>
          Go to the dashboard
        </Link>
      </div>
    </section>
  );
}
