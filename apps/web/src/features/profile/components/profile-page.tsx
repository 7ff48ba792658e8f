import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';

import { ChangePasswordForm } from './change-password-form';
import { ProfileDetailsForm } from './profile-details-form';

/** `/profile/update`: name, e-mail and password of the signed-in person. */
export function ProfilePage() {
  const session = useSession();

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Profile · CourseLens</title>
      <PageHeader title="Profile" description="Your name, e-mail address and password." />
      {session.status === 'authenticated' ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle>Personal details</CardTitle>
              <CardDescription>How teammates see you and where CourseLens writes to you.</CardDescription>
            </CardHeader>
            <CardContent>
              <ProfileDetailsForm user={session.user} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Password</CardTitle>
              <CardDescription>Enter your current password to choose a new one.</CardDescription>
            </CardHeader>
            <CardContent>
              <ChangePasswordForm />
            </CardContent>
          </Card>
        </>
      ) : (
        <div className="flex justify-center py-16 text-fg-muted">
          <Spinner label="Loading your profile" />
        </div>
      )}
    </div>
  );
}
