import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';

export type AuthCardProps = {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
};

/** The centred card every identity screen sits in; renders the page's <h1>. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <section className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10 sm:py-16">
      <title>{`${title} · CourseLens`}</title>
      <div className="mb-6 flex justify-center">
        <Link
          to={paths.home.href()}
          aria-label="CourseLens home"
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-focus"
        >
          <Logo />
        </Link>
      </div>
      <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm shadow-slate-900/5 sm:p-8 dark:shadow-black/20">
        <h1 className="text-2xl font-bold tracking-tight text-balance text-fg">{title}</h1>
        {description ? <div className="mt-1.5 text-sm text-pretty text-fg-muted">{description}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-fg-muted">{footer}</div> : null}
    </section>
  );
}
