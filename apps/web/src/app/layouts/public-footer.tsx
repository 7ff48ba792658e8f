import { Link } from 'react-router';

import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';

const linkClass = 'rounded text-fg-muted hover:text-fg';

export function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-surface/60">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4 lg:px-8">
        <div className="flex flex-col gap-2 md:col-span-2">
          <Logo className="[&_span]:text-base" />
          <p className="max-w-sm text-sm text-fg-muted">
            Learning analytics for every course run: reports, AI summaries, pipelines and custom AI agents.
          </p>
          <p className="mt-2 text-sm text-fg-subtle">© {year} CourseLens</p>
        </div>
        <nav aria-label="Product" className="flex flex-col gap-2 text-sm">
          <h2 className="font-semibold text-fg">Product</h2>
          <Link className={linkClass} to={paths.features.href()}>
            Features
          </Link>
          <Link className={linkClass} to={paths.solutions.href()}>
            Solutions
          </Link>
          <Link className={linkClass} to={paths.pricing.href()}>
            Pricing
          </Link>
        </nav>
        <nav aria-label="Resources" className="flex flex-col gap-2 text-sm">
          <h2 className="font-semibold text-fg">Resources</h2>
          <Link className={linkClass} to={paths.blog.list.href()}>
            Blog
          </Link>
          <a className={linkClass} href={paths.docs.href()}>
            Documentation
          </a>
          <Link className={linkClass} to={paths.auth.signup.href()}>
            Create an account
          </Link>
        </nav>
      </div>
    </footer>
  );
}
