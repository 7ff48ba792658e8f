/**
 * Every route path of the web app, defined once. Routes register `path`;
 * links call `href(...)`, so no URL string is typed twice.
 */
export const paths = {
  home: {
    path: '/',
    href: () => '/',
  },
  auth: {
    login: {
      path: '/login',
      /** `redirectTo` brings the visitor back to where they were after signing in. */
      href: (redirectTo?: string | null) =>
        redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login',
    },
    signup: {
      path: '/signup',
      href: () => '/signup',
    },
  },
  /** Served by the API server (product docs and the API reference), not by the SPA. */
  docs: {
    path: '/docs/',
    href: () => '/docs/',
  },
  notFound: {
    path: '*',
  },
} as const;
