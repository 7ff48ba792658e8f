import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';

import { cn } from '@/lib/cn';

export type ReportTab = { id: string; label: string; href: string };

export type ReportTabsProps = {
  tabs: readonly ReportTab[];
  current: string;
  label?: string;
};

/** Room left beside a tab scrolled into view, so its neighbour shows there is more. */
const SCROLL_MARGIN_PX = 24;

/**
 * Scrolls the tab strip sideways (never the page) so the current tab is in
 * view: on a narrow screen the strip scrolls instead of cutting tabs off.
 */
function useCurrentTabInView(current: string) {
  const navRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const nav = navRef.current;
    const tab = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !tab) return;
    const navBox = nav.getBoundingClientRect();
    const tabBox = tab.getBoundingClientRect();
    if (tabBox.left < navBox.left) nav.scrollLeft -= navBox.left - tabBox.left + SCROLL_MARGIN_PX;
    else if (tabBox.right > navBox.right) nav.scrollLeft += tabBox.right - navBox.right + SCROLL_MARGIN_PX;
  }, [current]);
  return navRef;
}

type HiddenEdges = { isLeftHidden: boolean; isRightHidden: boolean };

/** Which ends of the strip have tabs scrolled out of sight, kept current on scroll and resize. */
function useHiddenEdges(navRef: RefObject<HTMLElement | null>) {
  const [edges, setEdges] = useState<HiddenEdges>({ isLeftHidden: false, isRightHidden: false });
  const update = useCallback(() => {
    const nav = navRef.current;
    if (!nav) return;
    const isLeftHidden = nav.scrollLeft > 1;
    const isRightHidden = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1;
    setEdges((previous) =>
      previous.isLeftHidden === isLeftHidden && previous.isRightHidden === isRightHidden
        ? previous
        : { isLeftHidden, isRightHidden },
    );
  }, [navRef]);
  useLayoutEffect(() => {
    update();
    const nav = navRef.current;
    if (!nav || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(nav);
    return () => observer.disconnect();
  }, [navRef, update]);
  return { ...edges, update };
}

/** Fades the ends with tabs out of sight, so a phone shows that the strip scrolls. */
const edgeMasks: Record<string, string> = {
  right: '[mask-image:linear-gradient(to_right,#000_calc(100%_-_2.5rem),transparent)]',
  left: '[mask-image:linear-gradient(to_left,#000_calc(100%_-_2.5rem),transparent)]',
  both: '[mask-image:linear-gradient(to_right,transparent,#000_2.5rem,#000_calc(100%_-_2.5rem),transparent)]',
};

/**
 * The views of a report (or the sections of a course) as links, each with
 * its own URL and the current one marked. The strip scrolls sideways when
 * the tabs do not fit, with the current one scrolled into view and the ends
 * with more tabs faded.
 */
export function ReportTabs({ tabs, current, label = 'Views' }: ReportTabsProps) {
  const navRef = useCurrentTabInView(current);
  const { isLeftHidden, isRightHidden, update } = useHiddenEdges(navRef);
  const mask =
    isLeftHidden && isRightHidden
      ? edgeMasks.both
      : isLeftHidden
        ? edgeMasks.left
        : isRightHidden
          ? edgeMasks.right
          : undefined;
  return (
    <nav
      ref={navRef}
      aria-label={label}
      onScroll={update}
      data-hidden-edges={
        [isLeftHidden && 'left', isRightHidden && 'right'].filter(Boolean).join(' ') || undefined
      }
      className={cn('-mx-1 overflow-x-auto overscroll-x-contain', mask)}
    >
      <ul className="flex min-w-max gap-1 border-b border-line px-1">
        {tabs.map((tab) => {
          const isCurrent = tab.id === current;
          return (
            <li key={tab.id}>
              <Link
                to={tab.href}
                aria-current={isCurrent ? 'page' : undefined}
                className={cn(
                  '-mb-px inline-flex items-center border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
                  'rounded-t-lg focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-focus',
                  isCurrent
                    ? 'border-brand-600 text-fg dark:border-brand-300'
                    : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
