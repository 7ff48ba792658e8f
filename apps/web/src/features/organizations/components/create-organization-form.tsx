import {
  SUBDOMAIN_FIELD_MESSAGES,
  createOrganizationInput,
  optionalSubdomainField,
  type OrganizationBody,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';

import { SubdomainField } from '@/components/subdomain-field';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useCreateOrganization } from '../api/create-organization';

import { TextField } from '@/components/ui/text-field';

/** The contracts' schema, with an empty subdomain meaning "derive it from the name". */
const createOrganizationFormSchema = createOrganizationInput.extend({ subdomain: optionalSubdomainField });
type CreateOrganizationFormValues = z.input<typeof createOrganizationFormSchema>;
type CreateOrganizationFormOutput = z.output<typeof createOrganizationFormSchema>;

export type CreateOrganizationFormProps = {
  onCreated: (organization: OrganizationBody) => void;
};

export function CreateOrganizationForm({ onCreated }: CreateOrganizationFormProps) {
  const createOrganization = useCreateOrganization();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<CreateOrganizationFormValues, unknown, CreateOrganizationFormOutput>({
    resolver: zodResolver(createOrganizationFormSchema),
    defaultValues: { name: '', subdomain: '' },
  });
  const name = useWatch({ control, name: 'name' });

  async function handleValidSubmit(values: CreateOrganizationFormOutput) {
    try {
      onCreated(
        await createOrganization.mutateAsync({ name: values.name, subdomain: values.subdomain || undefined }),
      );
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
      <TextField
        label="Organization name"
        autoComplete="organization"
        error={errors.name?.message}
        {...register('name')}
      />
      <SubdomainField organizationName={name} error={errors.subdomain?.message} {...register('subdomain')} />
      <Button type="submit" size="lg" className="w-full sm:w-auto sm:self-end" isLoading={isSubmitting}>
        {isSubmitting ? 'Creating…' : 'Create organization'}
      </Button>
    </form>
  );
}
