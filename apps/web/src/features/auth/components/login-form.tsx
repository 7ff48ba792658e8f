import { signInInput, type SignInInput, type SignInResponse } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { groupByOrganization, identifyUser, trackLoggedIn, trackLoginFailed } from '@/lib/analytics';
import { isApiError } from '@/lib/api-client';
import { ensureCurrentOrganization, signIn } from '@/lib/auth';
import { toast } from '@/lib/toast';

import { useCreateSession } from '../api/create-session';
import { errorMessage } from '../utils/server-errors';

import { TextField } from '@/components/ui/text-field';

/** The `reason` of a `login_failed` event: a small fixed vocabulary, never the raw message. */
export function loginFailureReason(error: unknown): string {
  if (!isApiError(error)) return 'unknown';
  if (error.status === 401) return 'invalid_credentials';
  if (error.status === 429) return 'rate_limited';
  if (error.status === 400) return 'invalid_input';
  if (error.status === 0) return 'network_error';
  return 'server_error';
}

export type LoginFormProps = {
  /** Called once the session is stored and loaded. */
  onSignedIn: (response: SignInResponse) => void;
  defaultEmail?: string;
  submitLabel?: string;
};

/** E-mail and password sign-in; stores the session through lib/auth and reports the analytics events. */
export function LoginForm({ onSignedIn, defaultEmail = '', submitLabel = 'Sign in' }: LoginFormProps) {
  const queryClient = useQueryClient();
  const createSession = useCreateSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({
    resolver: zodResolver(signInInput),
    defaultValues: { email: defaultEmail, password: '' },
  });

  async function handleValidSubmit(values: SignInInput) {
    let response: SignInResponse;
    try {
      response = await createSession.mutateAsync(values);
    } catch (error) {
      trackLoginFailed(loginFailureReason(error), values.email);
      toast.error(errorMessage(error));
      return;
    }
    trackLoggedIn('password', values.email);
    identifyUser(response.user.id);
    const profile = await signIn(queryClient, response.token);
    const current = profile ? ensureCurrentOrganization(profile) : null;
    if (current) groupByOrganization(current.id, current.name);
    onSignedIn(response);
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" size="lg" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? 'Signing in…' : submitLabel}
      </Button>
    </form>
  );
}
