import { House } from 'lucide-react';
import { Link } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function NotFoundRoute() {
  return (
    <>
      <title>Page Not Found · CourseLens</title>
      <PageMessage
        eyebrow="404"
        title="Page Not Found"
        actions={
          <Link to={paths.home.href()} className={buttonClassName({ size: 'lg' })}>
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
