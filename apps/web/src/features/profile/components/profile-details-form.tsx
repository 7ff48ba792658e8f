import { updateProfileInput, type PublicUser } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { type z } from 'zod';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useUpdateProfile } from '../api/update-profile';

import { TextField } from '@/components/ui/text-field';

/** The contracts' profile schema with both fields filled in, as the form always sends them. */
const profileFormSchema = updateProfileInput.required();
type ProfileFormValues = z.input<typeof profileFormSchema>;
type ProfileFormOutput = z.output<typeof profileFormSchema>;

export type ProfileDetailsFormProps = { user: PublicUser };

export function ProfileDetailsForm({ user }: ProfileDetailsFormProps) {
  const updateProfile = useUpdateProfile();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileFormValues, unknown, ProfileFormOutput>({
    resolver: zodResolver(profileFormSchema),
    values: { name: user.name, email: user.email },
  });

  async function handleValidSubmit(values: ProfileFormOutput) {
    try {
      const updated = await updateProfile.mutateAsync(values);
      reset({ name: updated.name, email: updated.email });
      toast.success('Profile updated');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting} disabled={!isDirty}>
          {isSubmitting ? 'Saving…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
