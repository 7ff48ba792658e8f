import { ArrowLeft, Construction } from 'lucide-react';
import { Link } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

export type AuthComingSoonProps = {
  title: string;
};

/** Holds the place of the sign-in and sign-up screens until the identity work ships them. */
export function AuthComingSoon({ title }: AuthComingSoonProps) {
  return (
    <>
      <title>{`${title} · CourseLens`}</title>
      <PageMessage
        icon={<Construction aria-hidden="true" />}
        eyebrow="Coming soon"
        title={title}
        actions={
          <>
            <Link to={paths.home.href()} className={buttonClassName({ variant: 'outline' })}>
              <ArrowLeft aria-hidden="true" />
              Back to home
            </Link>
            <a href={paths.docs.href()} className={buttonClassName({ variant: 'ghost' })}>
              Read the API reference
            </a>
          </>
        }
      >
        <p>
          This screen arrives with the identity issue: accounts, organizations, team invitations and API keys.
        </p>
      </PageMessage>
    </>
  );
}
