import { changePasswordInput, PROFILE_MESSAGES, type ChangePasswordInput } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useChangePassword } from '../api/change-password';

import { TextField } from '@/components/ui/text-field';

/** Needs the current password; the server signs out every other session. */
export function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { currentPassword: '', newPassword: '' },
  });

  async function handleValidSubmit(values: ChangePasswordInput) {
    try {
      await changePassword.mutateAsync(values);
      reset();
      toast.success('Password changed. Other sessions were signed out.');
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (message === PROFILE_MESSAGES.wrongPassword)
        setError('currentPassword', { type: 'server', message });
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
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="8 to 128 characters. Your other sessions will be signed out."
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? 'Changing…' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
