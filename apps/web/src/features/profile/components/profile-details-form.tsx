import { PROFILE_MESSAGES, updateProfileInput, type PublicUser } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { type z } from 'zod';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useUpdateProfile } from '../api/update-profile';

import { TextField } from '@/components/ui/text-field';

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * The contracts' profile schema with name and e-mail filled in, as the form
 * always sends them; a new e-mail address also needs the current password
 * (the server checks it too).
 */
function profileFormSchema(currentEmail: string) {
  return updateProfileInput
    .required({ name: true, email: true })
    .refine((values) => values.email === currentEmail || Boolean(values.currentPassword), {
      path: ['currentPassword'],
      error: PROFILE_MESSAGES.passwordNeededForEmail,
    });
}
type ProfileFormSchema = ReturnType<typeof profileFormSchema>;
type ProfileFormValues = z.input<ProfileFormSchema>;
type ProfileFormOutput = z.output<ProfileFormSchema>;

/** Server messages that belong under the password field. */
const PASSWORD_MESSAGES: string[] = [PROFILE_MESSAGES.wrongPassword, PROFILE_MESSAGES.passwordNeededForEmail];

export type ProfileDetailsFormProps = { user: PublicUser };

export function ProfileDetailsForm({ user }: ProfileDetailsFormProps) {
  const updateProfile = useUpdateProfile();
  const schema = useMemo(() => profileFormSchema(user.email), [user.email]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileFormValues, unknown, ProfileFormOutput>({
    resolver: zodResolver(schema),
    values: { name: user.name, email: user.email, currentPassword: '' },
  });
  const isEmailChanged = normalizeEmail(useWatch({ control, name: 'email' })) !== user.email;

  async function handleValidSubmit(values: ProfileFormOutput) {
    try {
      const updated = await updateProfile.mutateAsync({
        name: values.name,
        email: values.email,
        ...(values.email !== user.email ? { currentPassword: values.currentPassword } : {}),
      });
      reset({ name: updated.name, email: updated.email, currentPassword: '' });
      toast.success('Profile updated');
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (PASSWORD_MESSAGES.includes(message)) setError('currentPassword', { type: 'server', message });
      else toast.error(message);
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
      {isEmailChanged ? (
        <TextField
          label="Current password for the new e-mail"
          type="password"
          autoComplete="current-password"
          hint="Changing the e-mail address needs your current password."
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting} disabled={!isDirty}>
          {isSubmitting ? 'Saving…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
