import { useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';

import { AppShell } from './app-shell';

/** Wraps every route: every navigation starts at the top of the page (spec section 2). */
export function RootLayout() {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, search]);
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
