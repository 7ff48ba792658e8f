import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Navigate, Outlet, createBrowserRouter, redirect, useLocation, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { actionRoutes } from '@/features/actions/routes';
import { activityRoutes } from '@/features/activity/routes';
import { chatRoutes } from '@/features/chat/routes';
import { chatbotRoutes } from '@/features/chatbots/routes';
import { analyticsRoutes } from '@/features/analytics/routes';
import { aiSummaryRoutes } from '@/features/ai-summaries/routes';
import { billingRoutes } from '@/features/billing/routes';
import { courseLayoutLoader, courseRoutes, courseSectionRoutes } from '@/features/courses/routes';
import { customReportRoutes, publicReportRoutes } from '@/features/custom-reports/routes';
import { dashboardRoutes } from '@/features/dashboard/routes';
import { learnerRoutes } from '@/features/learners/routes';
import { pipelineGeneratorRoutes } from '@/features/pipeline-generator/routes';
import { pipelineRoutes } from '@/features/pipelines/routes';
import { questionReportRoutes, sharedQuestionReportRoutes } from '@/features/question-reports/routes';
import { courseQuestionRoutes, questionRoutes } from '@/features/questions/routes';
import {
  chatbotVariableReportRoutes,
  sharedVariableReportRoutes,
  variableReportRoutes,
} from '@/features/variable-reports/routes';
import { courseVariableRoutes, variableRoutes } from '@/features/variables/routes';
import {
  ensureCurrentOrganization,
  getPostSignInPath,
  loadSession,
  startSession,
  useSession,
} from '@/lib/auth';

import { RootLayout } from './layouts/root-layout';
import { RouteErrorBoundary } from './route-error-boundary';
import { organizationSettingsLoader, teamSignupLoader } from './routes/loaders';
import { NotFoundRoute } from './routes/not-found';

/** `/login?redirectTo=…` for the page a signed-out visitor asked for. */
function loginRedirect(request: Request) {
  const url = new URL(request.url);
  return redirect(paths.auth.login.href(`${url.pathname}${url.search}`));
}

/**
 * Guards the auth routes: a signed-out visitor goes to /login and comes back
 * after signing in (`redirectTo`); a signed-in user gets a current
 * organization (primary, else first) before the page renders.
 */
function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'unauthenticated') {
    return <Navigate to={paths.auth.login.href(`${location.pathname}${location.search}`)} replace />;
  }
  return <Outlet />;
}

/** The feature screens, mounted under the auth guard. */
function featureRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    ...variableReportRoutes(queryClient),
    ...chatbotVariableReportRoutes(queryClient),
    ...questionReportRoutes(queryClient),
    ...dashboardRoutes(queryClient),
    ...courseRoutes(queryClient),
    ...learnerRoutes(queryClient),
    ...variableRoutes(queryClient),
    ...questionRoutes(queryClient),
    ...activityRoutes(queryClient),
    ...customReportRoutes(queryClient),
    ...aiSummaryRoutes(queryClient),
    ...chatbotRoutes(queryClient),
    ...actionRoutes(queryClient),
    ...pipelineRoutes(queryClient),
    ...pipelineGeneratorRoutes(queryClient),
    ...analyticsRoutes(queryClient),
    ...billingRoutes(queryClient),
  ];
}

/** The screens of one course, mounted inside the course layout (one header, one width). */
function coursePageRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    ...courseSectionRoutes(queryClient),
    ...courseVariableRoutes(queryClient),
    ...courseQuestionRoutes(queryClient),
  ];
}

/**
 * The route table of spec section 2. Every page is a lazy module (its own
 * chunk). A data page's loader prefetches with the query options its
 * components use (`lib/route-loaders`), so requests start at navigation,
 * beside the chunk download, and the loaders of a layout and its tab start
 * theirs together. The loaders' bodies live in each feature's `prefetch.ts`,
 * loaded on demand with the page: the main chunk, which the public pages
 * download too, holds only the route table (no contracts, no zod).
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const authFeatureRoutes = featureRoutes(queryClient);
  const courseRoutesInLayout = coursePageRoutes(queryClient);
  const builtPaths = new Set([...authFeatureRoutes, ...courseRoutesInLayout].map((route) => route.path));

  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteErrorBoundary,
      HydrateFallback: AppLoading,
      // Start-up order: the theme is already applied (theme-init.js, before
      // paint), then the session, then the current organization. Errors are
      // swallowed inside startSession.
      loader: async () => {
        await startSession(queryClient);
        return null;
      },
      shouldRevalidate: () => false,
      children: [
        {
          path: paths.home.path,
          // A signed-in user on / goes to /dashboard (spec section 2).
          loader: async () => {
            if (await loadSession(queryClient)) return redirect(paths.dashboard.href());
            return null;
          },
          lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }),
        },
        {
          path: paths.features.path,
          lazy: async () => ({ Component: (await import('./routes/public/features')).FeaturesRoute }),
        },
        {
          path: paths.solutions.path,
          lazy: async () => ({ Component: (await import('./routes/public/solutions')).SolutionsRoute }),
        },
        {
          path: paths.pricing.path,
          lazy: async () => ({ Component: (await import('./routes/public/pricing')).PricingRoute }),
        },
        {
          path: paths.blog.list.path,
          lazy: async () => ({ Component: (await import('./routes/public/blog')).BlogRoute }),
        },
        {
          path: paths.blog.article.path,
          lazy: async () => ({ Component: (await import('./routes/public/blog-article')).BlogArticleRoute }),
        },
        {
          path: paths.auth.login.path,
          loader: async ({ request }) => {
            // Already signed in (or just signed in elsewhere): go where the guard sent us from.
            if (await loadSession(queryClient)) {
              return redirect(getPostSignInPath(new URL(request.url).searchParams.get('redirectTo')));
            }
            return null;
          },
          lazy: async () => ({
            Component: (await import('@/features/auth/components/login-page')).LoginPage,
          }),
        },
        {
          path: paths.auth.signup.path,
          lazy: async () => ({
            Component: (await import('@/features/auth/components/signup-page')).SignupPage,
          }),
        },
        {
          path: paths.auth.signupSuccess.path,
          lazy: async () => ({
            Component: (await import('@/features/auth/components/signup-success-page')).SignupSuccessPage,
          }),
        },
        {
          path: paths.auth.teamSignup.path,
          loader: teamSignupLoader(queryClient),
          lazy: async () => ({
            Component: (await import('@/features/team/components/team-signup-page')).TeamSignupPage,
          }),
        },
        ...chatRoutes(),
        ...publicReportRoutes(queryClient),
        ...sharedVariableReportRoutes(queryClient),
        ...sharedQuestionReportRoutes(queryClient),
        {
          Component: RequireAuth,
          loader: async ({ request }) => {
            const profile = await loadSession(queryClient);
            if (!profile) return loginRedirect(request);
            ensureCurrentOrganization(profile);
            return null;
          },
          children: [
            ...(builtPaths.has(paths.dashboard.path)
              ? []
              : [
                  {
                    path: paths.dashboard.path,
                    lazy: async () => ({
                      Component: (await import('./routes/app/dashboard')).DashboardRoute,
                    }),
                  },
                ]),
            {
              path: paths.organization.create.path,
              lazy: async () => ({
                Component: (await import('@/features/organizations/components/create-organization-page'))
                  .CreateOrganizationPage,
              }),
            },
            {
              path: paths.organization.settings.path,
              loader: organizationSettingsLoader(queryClient),
              lazy: async () => ({
                Component: (await import('./routes/app/organization-settings')).OrganizationSettingsRoute,
              }),
            },
            {
              path: paths.profile.path,
              lazy: async () => ({
                Component: (await import('@/features/profile/components/profile-page')).ProfilePage,
              }),
            },
            ...authFeatureRoutes,
            {
              loader: courseLayoutLoader(queryClient),
              // The header's course stays the same while the tabs switch or filter.
              shouldRevalidate: ({ currentParams, nextParams }) =>
                currentParams.courseId !== nextParams.courseId,
              lazy: async () => ({
                Component: (await import('./routes/app/course-layout')).CourseLayout,
              }),
              children: courseRoutesInLayout,
            },
          ],
        },
        // Not lazy: the root error boundary renders the same page, so it
        // is in the main chunk anyway.
        { path: paths.notFound.path, Component: NotFoundRoute },
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
