import type { OrganizationBody } from '@courselens/contracts';
import { useNavigate } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { selectOrganization } from '@/lib/auth';
import { toast } from '@/lib/toast';

import { CreateOrganizationForm } from './create-organization-form';

/** `/create-organization`: a further organization (not primary); it becomes the current one. */
export function CreateOrganizationPage() {
  const navigate = useNavigate();

  function handleCreated(organization: OrganizationBody) {
    selectOrganization(organization.id);
    toast.success(`Organization “${organization.name}” created`);
    void navigate(paths.organization.settings.href());
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Create an organization · CourseLens</title>
      <PageHeader
        title="Create an organization"
        description="A separate workspace with its own courses, learners, team and API keys. You will be its owner."
      />
      <Card>
        <CardContent>
          <CreateOrganizationForm onCreated={handleCreated} />
        </CardContent>
      </Card>
    </div>
  );
}
