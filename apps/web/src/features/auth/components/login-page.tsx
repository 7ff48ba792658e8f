import { Link, useNavigate, useSearchParams } from 'react-router';

import { paths } from '@/config/paths';
import { getPostSignInPath } from '@/lib/auth';

import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';

const linkClassName =
  'font-medium text-brand-600 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus rounded-sm dark:text-brand-300';

/** `/login`: signs in and returns to `redirectTo` (a path of this app) or the dashboard. */
export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get('redirectTo');

  function handleSignedIn() {
    void navigate(getPostSignInPath(redirectTo, paths.dashboard.href()), { replace: true });
  }

  return (
    <AuthCard
      title="Sign in to CourseLens"
      description="Welcome back. Use the e-mail and password of your account."
      footer={
        <>
          New to CourseLens?{' '}
          <Link to={paths.auth.signup.href()} className={linkClassName}>
            Create an account
          </Link>
        </>
      }
    >
      <LoginForm onSignedIn={handleSignedIn} />
    </AuthCard>
  );
}
