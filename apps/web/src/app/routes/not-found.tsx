import { House } from 'lucide-react';
import { Link } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';

/** Any unknown path (spec section 2). 'Go Home' leads to / or, signed in, to /dashboard. */
export function NotFoundRoute() {
  const { status } = useSession();
  const homeHref = status === 'authenticated' ? paths.dashboard.href() : paths.home.href();
  return (
    <>
      <title>Page Not Found · CourseLens</title>
      <PageMessage
        eyebrow="404"
        title="Page Not Found"
        actions={
          <Link to={homeHref} className={buttonClassName({ size: 'lg' })}>
            <House aria-hidden="true" />
            Go Home
          </Link>
        }
      >
        <p>The page you're looking for doesn't exist or has been moved.</p>
      </PageMessage>
    </>
  );
}
