import { SUBDOMAIN_FIELD_MESSAGES, organizationNameSchema, subdomainSchema } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import type { OrganizationMembership } from '@/lib/auth';
import { permissionFor } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useUpdateOrganization } from '../api/update-organization';

import { TextField } from '@/components/ui/text-field';

/** The fields of the contracts' update schema, both required on this form. */
const organizationGeneralSchema = z.object({ name: organizationNameSchema, subdomain: subdomainSchema });
type OrganizationGeneralValues = z.input<typeof organizationGeneralSchema>;
type OrganizationGeneralOutput = z.output<typeof organizationGeneralSchema>;

export type OrganizationGeneralFormProps = { organization: OrganizationMembership };

/** Name and subdomain of the current organization; owners edit, members read. */
export function OrganizationGeneralForm({ organization }: OrganizationGeneralFormProps) {
  const permission = permissionFor(organization.role, 'organization');
  const isOwner = permission.isAllowed;
  const updateOrganization = useUpdateOrganization();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<OrganizationGeneralValues, unknown, OrganizationGeneralOutput>({
    resolver: zodResolver(organizationGeneralSchema),
    values: { name: organization.name, subdomain: organization.subdomain },
  });

  async function handleValidSubmit(values: OrganizationGeneralOutput) {
    try {
      const updated = await updateOrganization.mutateAsync({
        organizationId: organization.id,
        input: values,
      });
      reset({ name: updated.name, subdomain: updated.subdomain });
      toast.success('Organization updated');
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (SUBDOMAIN_FIELD_MESSAGES.includes(message)) setError('subdomain', { type: 'server', message });
      else toast.error(message);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <fieldset disabled={!isOwner} className="flex flex-col gap-5">
        <TextField label="Organization name" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Subdomain"
          autoCapitalize="none"
          spellCheck={false}
          hint="3 to 50 lowercase letters, numbers and single hyphens."
          error={errors.subdomain?.message}
          {...register('subdomain')}
        />
      </fieldset>
      {isOwner ? (
        <div className="flex justify-end">
          <Button type="submit" isLoading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-fg-muted">{permission.reason}: its name and subdomain.</p>
      )}
    </form>
  );
}
