import { Outlet, ScrollRestoration } from 'react-router';

/** Wraps every route: restores the scroll position on back/forward and starts new pages at the top. */
export function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
