import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RouteErrorBoundary } from './route-error-boundary';
import { NotFoundRoute } from './routes/not-found';

/**
 * The route table. Every page is a lazy module (its own chunk); a module may
 * export a `clientLoader(queryClient)` that prefetches with the same query
 * options its components use.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteErrorBoundary,
      HydrateFallback: AppLoading,
      children: [
        {
          Component: PublicLayout,
          children: [
            {
              path: paths.home.path,
              lazy: async () => {
                const { HomeRoute, clientLoader } = await import('./routes/home');
                return { Component: HomeRoute, loader: clientLoader(queryClient) };
              },
            },
            {
              path: paths.auth.login.path,
              lazy: async () => ({ Component: (await import('./routes/auth/login')).LoginRoute }),
            },
            {
              path: paths.auth.signup.path,
              lazy: async () => ({ Component: (await import('./routes/auth/signup')).SignupRoute }),
            },
            // Not lazy: the root error boundary renders the same page, so it
            // is in the main chunk anyway.
            { path: paths.notFound.path, Component: NotFoundRoute },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}

export function AppRouter() {
  const queryClient = useQueryClient();
  const router = useMemo(() => createAppRouter(queryClient), [queryClient]);
  return <RouterProvider router={router} />;
}

/** Shown while the first route's code loads. */
function AppLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center text-accent">
      <Spinner size="lg" label="Loading CourseLens" />
    </div>
  );
}
