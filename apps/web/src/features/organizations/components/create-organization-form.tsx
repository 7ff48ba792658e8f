import {
  createOrganizationInput,
  slugifySubdomain,
  subdomainSchema,
  type OrganizationBody,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useCreateOrganization } from '../api/create-organization';

import { subdomainServerMessages } from './subdomain-messages';
import { TextField } from '@/components/ui/text-field';

/** The contracts' schema, with an empty subdomain meaning "derive it from the name". */
const createOrganizationFormSchema = createOrganizationInput.extend({
  subdomain: z.union([z.literal(''), subdomainSchema]),
});
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
  const suggestedSubdomain = slugifySubdomain(name ?? '');

  async function handleValidSubmit(values: CreateOrganizationFormOutput) {
    try {
      onCreated(
        await createOrganization.mutateAsync({ name: values.name, subdomain: values.subdomain || undefined }),
      );
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (subdomainServerMessages.includes(message)) setError('subdomain', { type: 'server', message });
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
      <TextField
        label="Subdomain"
        labelAside="Optional"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={suggestedSubdomain || 'acme-learning'}
        hint={
          suggestedSubdomain
            ? `Leave empty to use “${suggestedSubdomain}” (or a free variant of it).`
            : 'Leave empty to derive it from the organization name.'
        }
        error={errors.subdomain?.message}
        {...register('subdomain')}
      />
      <Button type="submit" size="lg" className="w-full sm:w-auto sm:self-end" isLoading={isSubmitting}>
        {isSubmitting ? 'Creating…' : 'Create organization'}
      </Button>
    </form>
  );
}
