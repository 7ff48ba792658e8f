import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { useLocation, useMatches } from 'react-router';

import { groupByOrganization, identifyUser } from '@/lib/analytics';
import { useSession } from '@/lib/auth';
import { isEmbeddedInFrame, resolveLayout } from '@/lib/layout';

import { PublicFooter } from './public-footer';
import { Sidebar } from './sidebar';
import { TopNavbar } from './top-navbar';

export const MAIN_CONTENT_ID = 'main-content';

// Its own chunk, loaded beside the page: the banner never holds the page,
// and the main chunk (which the public pages download) stays without it.
const BillingBanner = lazy(async () => ({
  default: (await import('@/features/billing/components/billing-banner')).BillingBanner,
}));

/** Route `handle` fields the shell reads. */
export type RouteHandle = { shared?: boolean };

function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only z-[60] rounded-lg bg-surface px-4 py-2 text-sm font-medium text-fg shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}

/**
 * Picks the chrome of the current page with the layout rules of
 * `lib/layout.ts`: the top navbar on the marketing pages, the sidebar on the
 * others, nothing on chat pages, shared views and views embedded in a frame.
 * Signed-in pages with the sidebar get the billing banner above them when
 * billing needs attention (a grace period, a failed payment).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const matches = useMatches();
  const session = useSession();
  const isSharedRoute = matches.some((match) => (match.handle as RouteHandle | undefined)?.shared === true);
  const layout = resolveLayout({ pathname, isEmbedded: isEmbeddedInFrame(), isSharedRoute });

  // Product analytics: identify by user id, group by the current organization.
  const userId = session.user?.id;
  const organizationId = session.currentOrganization?.id;
  const organizationName = session.currentOrganization?.name;
  useEffect(() => {
    if (userId) identifyUser(userId);
    if (organizationId) groupByOrganization(organizationId, organizationName);
  }, [userId, organizationId, organizationName]);

  if (layout.showNavbar) {
    return (
      <div className="flex min-h-dvh flex-col" data-layout={layout.kind}>
        <SkipLink />
        <TopNavbar session={session} />
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
          {children}
        </main>
        <PublicFooter />
      </div>
    );
  }

  if (layout.showSidebar) {
    return (
      <div className="flex min-h-dvh" data-layout={layout.kind}>
        <SkipLink />
        <Sidebar session={session} />
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-w-0 flex-1 flex-col focus:outline-none">
          {organizationId ? (
            <Suspense fallback={null}>
              <BillingBanner />
            </Suspense>
          ) : null}
          {children}
        </main>
      </div>
    );
  }

  return (
    <div className="flex min-h-dvh flex-col" data-layout={layout.kind}>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        {children}
      </main>
    </div>
  );
}
