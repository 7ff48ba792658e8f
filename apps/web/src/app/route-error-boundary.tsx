import { RotateCw, TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { Button } from '@/components/ui/button';

import { NotFoundRoute } from './routes/not-found';

/**
 * Last line of defence for anything a route throws while loading or
 * rendering, including a lazy route chunk that no longer exists after a
 * deploy (a reload fetches the new build).
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="flex min-h-dvh flex-col">
        <NotFoundRoute />
      </main>
    );
  }
  if (import.meta.env.DEV) console.error(error);
  return (
    <div className="flex min-h-dvh flex-col">
      <title>Something went wrong · CourseLens</title>
      <main className="flex flex-1 flex-col">
        <PageMessage
          icon={<TriangleAlert aria-hidden="true" />}
          title="Something went wrong"
          actions={
            <Button onClick={() => window.location.reload()}>
              <RotateCw aria-hidden="true" />
              Reload the page
            </Button>
          }
        >
          <p>
            An unexpected error stopped this page. Reloading usually fixes it; if it does not, try again in a
            minute.
          </p>
        </PageMessage>
      </main>
    </div>
  );
}
