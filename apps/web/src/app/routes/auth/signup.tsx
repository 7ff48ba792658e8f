import { AuthComingSoon } from './coming-soon';

export function SignupRoute() {
  return <AuthComingSoon title="Create your CourseLens account" />;
}
