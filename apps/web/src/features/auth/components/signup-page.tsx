import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';

import { AuthCard } from './auth-card';
import { SignupForm } from './signup-form';

const linkClassName =
  'font-medium text-brand-600 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus rounded-sm dark:text-brand-300';

/** `/signup`: the account and its first organization, then `/signup-success`. */
export function SignupPage() {
  const navigate = useNavigate();

  function handleSignedUp() {
    void navigate(paths.auth.signupSuccess.href(), { replace: true });
  }

  return (
    <AuthCard
      title="Create your CourseLens account"
      description="Your account and your organization’s workspace, in one step."
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.auth.login.href()} className={linkClassName}>
            Sign in
          </Link>
        </>
      }
    >
      <SignupForm onSignedUp={handleSignedUp} />
    </AuthCard>
  );
}
