import { AuthComingSoon } from './coming-soon';

export function LoginRoute() {
  return <AuthComingSoon title="Sign in to CourseLens" />;
}
