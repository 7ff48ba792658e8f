import { Link, Outlet } from 'react-router';

import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

const MAIN_CONTENT_ID = 'main-content';

/**
 * The frame of the public pages: top navbar, main content, footer. The
 * app-shell work adds the visitor navigation and the signed-in sidebar layout.
 */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-50 rounded-lg bg-surface px-4 py-2 text-sm font-medium text-fg shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}

function PublicHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-line/70 bg-canvas/80 backdrop-blur-md supports-[backdrop-filter]:bg-canvas/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={paths.home.href()} className="flex items-center rounded-lg" aria-label="CourseLens home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <a
            href={paths.docs.href()}
            className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'hidden sm:inline-flex' })}
          >
            Docs
          </a>
          <Link
            to={paths.auth.login.href()}
            className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'hidden sm:inline-flex' })}
          >
            Sign in
          </Link>
          <Link to={paths.auth.signup.href()} className={buttonClassName({ size: 'sm' })}>
            Get started
          </Link>
          <ThemeToggle />
        </nav>
      </div>
    </header>
  );
}

function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-surface/60">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="flex flex-col gap-2">
          <Logo className="[&_span]:text-base" />
          <p className="text-sm text-fg-muted">Learning analytics for every course run.</p>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <a className="rounded text-fg-muted hover:text-fg" href={paths.docs.href()}>
            API reference
          </a>
          <Link className="rounded text-fg-muted hover:text-fg" to={paths.auth.login.href()}>
            Sign in
          </Link>
          <Link className="rounded text-fg-muted hover:text-fg" to={paths.auth.signup.href()}>
            Create an account
          </Link>
        </nav>
        <p className="text-sm text-fg-subtle">© {year} CourseLens</p>
      </div>
    </footer>
  );
}
