import { useQueryClient } from '@tanstack/react-query';
import { Building2, LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';

import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import {
  appNavigation,
  profileNavigation,
  visitorNavigation,
  type AppNavigationItem,
} from '@/config/navigation';
import { paths } from '@/config/paths';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import { useMediaQuery } from '@/hooks/use-media-query';
import { signOut, type SessionState } from '@/lib/auth';
import { cn } from '@/lib/cn';

import { OrganizationSwitcher } from './organization-switcher';

export const SIDEBAR_COLLAPSED_KEY = 'sidebarCollapsed';
/** Under 768 px the sidebar starts narrow; a button opens it over the page. */
export const SMALL_SCREEN_QUERY = '(max-width: 767.98px)';

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

function writeCollapsed(collapsed: boolean): void {
  try {
    window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(collapsed));
  } catch {
    // Storage blocked: the state lasts for this page.
  }
}

export type SidebarProps = { session: SessionState };

/** What can take focus inside the drawer, in tab order. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The app sidebar: wide (`w-64`) or narrow (`w-20`), the choice kept in
 * localStorage `sidebarCollapsed`. Under 768 px it is narrow whatever was
 * stored, and the toggle opens it as a drawer over the page: a backdrop
 * dims the page (which stops scrolling), focus moves into the drawer and
 * stays there, and Escape, a tap outside or any navigation closes it.
 */
export function Sidebar({ session }: SidebarProps) {
  const isSmallScreen = useMediaQuery(SMALL_SCREEN_QUERY);
  const location = useLocation();
  const [storedCollapsed, setStoredCollapsed] = useState(readCollapsed);
  // The drawer belongs to the history entry it was opened on: any navigation
  // (a new entry, even to the same path) closes it without an effect.
  const [openOnKey, setOpenOnKey] = useState<string | null>(null);
  const isDrawerOpen = isSmallScreen && openOnKey === location.key;
  const isCollapsed = isSmallScreen ? !isDrawerOpen : storedCollapsed;
  const asideRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const closeDrawer = (options: { restoreFocus: boolean }) => {
    setOpenOnKey(null);
    if (options.restoreFocus) toggleRef.current?.focus();
  };
  useClickOutside(asideRef, () => closeDrawer({ restoreFocus: false }), isDrawerOpen);
  useEscapeKey(() => closeDrawer({ restoreFocus: true }), isDrawerOpen);
  useDrawerEffects(asideRef, isDrawerOpen);

  const handleToggle = () => {
    if (isSmallScreen) {
      setOpenOnKey(isDrawerOpen ? null : location.key);
      return;
    }
    const next = !storedCollapsed;
    setStoredCollapsed(next);
    writeCollapsed(next);
  };

  const toggleLabel = isSmallScreen
    ? isDrawerOpen
      ? 'Close sidebar'
      : 'Open sidebar'
    : isCollapsed
      ? 'Expand sidebar'
      : 'Collapse sidebar';

  return (
    <>
      {/* Keeps the page clear of the fixed sidebar; the drawer lays over it. */}
      <div
        aria-hidden="true"
        className={cn('shrink-0 transition-[width]', isSmallScreen || isCollapsed ? 'w-20' : 'w-64')}
      />
      {isDrawerOpen ? (
        <div
          aria-hidden="true"
          data-testid="sidebar-backdrop"
          className="fixed inset-0 z-40 touch-none bg-slate-950/40 backdrop-blur-[1px]"
        />
      ) : null}
      <aside
        ref={asideRef}
        aria-label="Sidebar"
        data-collapsed={isCollapsed}
        data-drawer={isDrawerOpen ? 'open' : undefined}
        className={cn(
          'fixed inset-y-0 left-0 z-50 flex flex-col border-r border-line bg-surface transition-[width]',
          isCollapsed ? 'w-20' : 'w-64',
          isDrawerOpen && 'overscroll-contain shadow-2xl',
        )}
      >
        <div
          className={cn(
            'flex h-16 shrink-0 items-center gap-2 border-b border-line px-4',
            isCollapsed && 'flex-col justify-center px-2 h-auto py-3',
          )}
        >
          <Link
            to={session.status === 'authenticated' ? paths.dashboard.href() : paths.home.href()}
            aria-label="CourseLens home"
            className="flex min-w-0 items-center rounded-lg"
          >
            <Logo className={cn(isCollapsed && '[&>span:last-child]:sr-only')} />
          </Link>
          <Button
            ref={toggleRef}
            variant="ghost"
            size="icon"
            className={cn('size-9', !isCollapsed && 'ml-auto')}
            onClick={handleToggle}
            aria-label={toggleLabel}
            title={toggleLabel}
            aria-expanded={!isCollapsed}
          >
            {isCollapsed ? <PanelLeftOpen aria-hidden="true" /> : <PanelLeftClose aria-hidden="true" />}
          </Button>
        </div>
        {session.status === 'authenticated' ? (
          <SignedInSidebarBody session={session} isCollapsed={isCollapsed} />
        ) : (
          <VisitorSidebarBody isCollapsed={isCollapsed} />
        )}
      </aside>
    </>
  );
}

/**
 * While the drawer is open: focus moves to its first link and Tab stays
 * inside it (the page behind is covered by the backdrop), and the page
 * behind does not scroll.
 */
function useDrawerEffects(asideRef: RefObject<HTMLElement | null>, isOpen: boolean): void {
  useEffect(() => {
    const aside = asideRef.current;
    if (!isOpen || !aside) return;
    (aside.querySelector<HTMLElement>('nav a[href]') ?? aside).focus({ preventScroll: true });
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    // The page beside the drawer (main content, skip link) is out of reach
    // for keyboards and screen readers while it is covered.
    // The backdrop (aria-hidden, like the spacer) stays a target for the closing tap.
    const covered = [...(aside.parentElement?.children ?? [])].filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement &&
        element !== aside &&
        element.getAttribute('aria-hidden') !== 'true' &&
        !element.inert,
    );
    for (const element of covered) element.inert = true;
    const handleKeyDown = (event: KeyboardEvent) => trapTab(event, aside);
    document.addEventListener('keydown', handleKeyDown);
    return () => {
      document.body.style.overflow = overflow;
      for (const element of covered) element.inert = false;
      document.removeEventListener('keydown', handleKeyDown);
    };
  }, [asideRef, isOpen]);
}

/** Keeps Tab and Shift+Tab inside the open drawer. */
function trapTab(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const isInside = container.contains(document.activeElement);
  if (event.shiftKey && (document.activeElement === first || !isInside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (document.activeElement === last || !isInside)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Pages that belong to a navigation item without sitting under its path:
 * a course's screens (`/course/:id/…`) are Courses, a learner's are Learners.
 */
const SECTION_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  [paths.courses.list.href()]: ['/course/'],
  [paths.learners.list.href()]: ['/learner/'],
};

function SidebarLink({
  href,
  label,
  icon,
  isCollapsed,
  isExternal,
}: {
  href: string;
  label: string;
  icon: ReactNode;
  isCollapsed: boolean;
  isExternal?: boolean;
}) {
  const { pathname } = useLocation();
  const isInSection = (SECTION_PREFIXES[href] ?? []).some((prefix) => pathname.startsWith(prefix));
  const className = (isActive: boolean) =>
    cn(
      'flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors [&_svg]:size-5 [&_svg]:shrink-0',
      isCollapsed && 'justify-center px-0',
      isActive
        ? 'bg-brand-50 text-brand-700 dark:bg-brand-400/15 dark:text-brand-200'
        : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
    );
  const content = (
    <>
      {icon}
      <span className={cn('truncate', isCollapsed && 'sr-only')}>{label}</span>
    </>
  );
  if (isExternal) {
    return (
      <a href={href} className={className(false)} title={isCollapsed ? label : undefined}>
        {content}
      </a>
    );
  }
  if (isInSection) {
    return (
      <Link to={href} aria-current="page" className={className(true)} title={isCollapsed ? label : undefined}>
        {content}
      </Link>
    );
  }
  return (
    <NavLink
      to={href}
      className={({ isActive }) => className(isActive)}
      title={isCollapsed ? label : undefined}
    >
      {content}
    </NavLink>
  );
}

function SignedInSidebarBody({
  session,
  isCollapsed,
}: {
  session: Extract<SessionState, { status: 'authenticated' }>;
  isCollapsed: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isSigningOut, setIsSigningOut] = useState(false);
  const { user, organizations, currentOrganization } = session;
  const initial = (user.name.trim()[0] ?? user.email[0] ?? '?').toUpperCase();

  const handleSignOut = async () => {
    setIsSigningOut(true);
    await signOut(queryClient);
    await navigate(paths.auth.login.href(), { replace: true });
  };

  return (
    <>
      <div className={cn('border-b border-line px-3 py-3', isCollapsed && 'px-2')}>
        {organizations.length > 1 ? (
          <OrganizationSwitcher session={session} isCollapsed={isCollapsed} />
        ) : (
          <div
            className={cn(
              'flex items-center gap-3 rounded-lg px-2 py-1.5',
              isCollapsed && 'justify-center px-0',
            )}
            title={isCollapsed ? currentOrganization?.name : undefined}
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-surface-muted text-fg-muted">
              <Building2 aria-hidden="true" className="size-4" />
            </span>
            <span className={cn('min-w-0', isCollapsed && 'sr-only')}>
              <span className="block text-xs text-fg-subtle">Organization</span>
              <span className="block truncate text-sm font-semibold text-fg" data-testid="organization-name">
                {currentOrganization?.name ?? 'No organization'}
              </span>
            </span>
          </div>
        )}
      </div>
      <PrimaryNav items={appNavigation} isCollapsed={isCollapsed} />
      <div className={cn('flex flex-col gap-2 border-t border-line p-3', isCollapsed && 'items-center px-2')}>
        <Link
          to={profileNavigation.href}
          className={cn(
            'flex items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-surface-muted',
            isCollapsed && 'px-0',
          )}
          title={isCollapsed ? `${user.name} (profile)` : undefined}
        >
          <span
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white dark:bg-brand-500"
            data-testid="user-initial"
          >
            {initial}
          </span>
          <span className={cn('min-w-0', isCollapsed && 'sr-only')}>
            <span className="block truncate text-sm font-medium text-fg" data-testid="user-name">
              {user.name}
            </span>
            <span className="block truncate text-xs text-fg-subtle">{user.email}</span>
          </span>
        </Link>
        <div className={cn('flex items-center gap-2', isCollapsed && 'flex-col')}>
          <ThemeToggle />
          <Button
            variant="ghost"
            className={cn('flex-1 justify-start', isCollapsed && 'size-10 flex-none justify-center px-0')}
            onClick={() => void handleSignOut()}
            isLoading={isSigningOut}
            aria-label={isCollapsed ? 'Sign Out' : undefined}
            title={isCollapsed ? 'Sign Out' : undefined}
          >
            {isSigningOut ? null : <LogOut aria-hidden="true" />}
            <span className={cn(isCollapsed && 'sr-only')}>Sign Out</span>
          </Button>
        </div>
      </div>
    </>
  );
}

/** The sidebar's main links, the same for visitors and signed-in people. */
function PrimaryNav({ items, isCollapsed }: { items: readonly AppNavigationItem[]; isCollapsed: boolean }) {
  return (
    <nav aria-label="Primary" className="flex-1 overflow-y-auto px-3 py-3">
      <ul className="flex flex-col gap-0.5">
        {items.map((item) => (
          <li key={item.label}>
            <SidebarLink
              href={item.href}
              label={item.label}
              icon={<item.icon aria-hidden="true" />}
              isCollapsed={isCollapsed}
              isExternal={item.isExternal}
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function VisitorSidebarBody({ isCollapsed }: { isCollapsed: boolean }) {
  const items = visitorNavigation.filter((item) => !['Sign in', 'Sign up'].includes(item.label));
  const accountItems = visitorNavigation.filter((item) => ['Sign in', 'Sign up'].includes(item.label));
  return (
    <>
      <PrimaryNav items={items} isCollapsed={isCollapsed} />
      <div className={cn('flex flex-col gap-1 border-t border-line p-3', isCollapsed && 'items-center px-2')}>
        {accountItems.map((item) => (
          <SidebarLink
            key={item.label}
            href={item.href}
            label={item.label}
            icon={<item.icon aria-hidden="true" />}
            isCollapsed={isCollapsed}
          />
        ))}
        <div className={cn('px-1 pt-1', isCollapsed && 'px-0')}>
          <ThemeToggle />
        </div>
      </div>
    </>
  );
}
