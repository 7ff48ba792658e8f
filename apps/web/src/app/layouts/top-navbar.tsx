import { Menu, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button, buttonClassName } from '@/components/ui/button';
import { appNavigation, visitorNavigation, type NavigationItem } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import type { SessionState } from '@/lib/auth';
import { cn } from '@/lib/cn';

export type TopNavbarProps = { session: SessionState };

const desktopLinks = visitorNavigation.filter((item) =>
  ['Features', 'Solutions', 'Pricing', 'Blog', 'Docs'].includes(item.label),
);

function NavItemLink({ item, className }: { item: NavigationItem; className: string }) {
  if (item.isExternal) {
    return (
      <a href={item.href} className={className}>
        {item.label}
      </a>
    );
  }
  return (
    <NavLink to={item.href} end className={({ isActive }) => cn(className, isActive && 'text-fg')}>
      {item.label}
    </NavLink>
  );
}

/**
 * The top navbar of the marketing pages. From the `xl` breakpoint up the links
 * sit in the bar; below it a menu button opens a panel with the links (the
 * signed-in links for a signed-in user) and the theme toggle.
 */
export function TopNavbar({ session }: TopNavbarProps) {
  const isSignedIn = session.status === 'authenticated';
  const { pathname } = useLocation();
  const [openOnPath, setOpenOnPath] = useState<string | null>(null);
  const isMenuOpen = openOnPath === pathname;
  const menuId = useId();
  const headerRef = useRef<HTMLElement>(null);
  useClickOutside(headerRef, () => setOpenOnPath(null), isMenuOpen);
  useEscapeKey(() => setOpenOnPath(null), isMenuOpen);

  const menuItems: readonly NavigationItem[] = isSignedIn ? appNavigation : visitorNavigation;

  return (
    <header
      ref={headerRef}
      className="sticky top-0 z-40 border-b border-line/70 bg-canvas/85 backdrop-blur-md"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={paths.home.href()} className="flex items-center rounded-lg" aria-label="CourseLens home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 xl:flex">
          {desktopLinks.map((item) => (
            <NavItemLink
              key={item.href}
              item={item}
              className="rounded-lg px-3 py-2 text-sm font-medium text-fg-muted hover:bg-surface-muted hover:text-fg"
            />
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden items-center gap-2 xl:flex">
            {isSignedIn ? (
              <Link to={paths.dashboard.href()} className={buttonClassName({ size: 'sm' })}>
                Go to dashboard
              </Link>
            ) : (
              <>
                <Link
                  to={paths.auth.login.href()}
                  className={buttonClassName({ variant: 'ghost', size: 'sm' })}
                >
                  Sign in
                </Link>
                <Link to={paths.auth.signup.href()} className={buttonClassName({ size: 'sm' })}>
                  Get started
                </Link>
              </>
            )}
            <ThemeToggle />
          </div>
          {!isSignedIn ? (
            <Link
              to={paths.auth.signup.href()}
              className={buttonClassName({ size: 'sm', className: 'hidden sm:inline-flex xl:hidden' })}
            >
              Get started
            </Link>
          ) : null}
          <Button
            variant="ghost"
            size="icon"
            className="xl:hidden"
            aria-expanded={isMenuOpen}
            aria-controls={menuId}
            aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setOpenOnPath(isMenuOpen ? null : pathname)}
          >
            {isMenuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
        </div>
      </div>
      {isMenuOpen ? (
        <div id={menuId} className="border-t border-line bg-surface xl:hidden" data-testid="mobile-menu">
          <nav aria-label="Mobile" className="mx-auto flex max-w-7xl flex-col px-4 py-3 sm:px-6">
            {menuItems.map((item) => (
              <NavItemLink
                key={item.href + item.label}
                item={item}
                className="rounded-lg px-3 py-2.5 text-base font-medium text-fg-muted hover:bg-surface-muted hover:text-fg"
              />
            ))}
          </nav>
          <div className="mx-auto flex max-w-7xl items-center justify-between border-t border-line px-7 py-3 sm:px-9">
            <span className="text-sm text-fg-muted">Theme</span>
            <ThemeToggle />
          </div>
        </div>
      ) : null}
    </header>
  );
}
