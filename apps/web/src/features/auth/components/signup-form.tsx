import {
  SUBDOMAIN_FIELD_MESSAGES,
  optionalSubdomainField,
  signupInput,
  type SignupResponse,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';

import { SubdomainField } from '@/components/subdomain-field';
import { Button } from '@/components/ui/button';
import { groupByOrganization, identifyUser, trackLoggedIn } from '@/lib/analytics';
import { signIn } from '@/lib/auth';

import { useSignUp } from '../api/sign-up';
import { reportServerError } from '../utils/server-errors';

import { TextField } from '@/components/ui/text-field';

/** The sign-up schema of contracts, with an empty subdomain meaning "derive it from the name". */
const signupFormSchema = signupInput.extend({ subdomain: optionalSubdomainField });
type SignupFormValues = z.input<typeof signupFormSchema>;
type SignupFormOutput = z.output<typeof signupFormSchema>;

export type SignupFormProps = {
  /** Called once the new session is stored and loaded. */
  onSignedUp: (response: SignupResponse) => void;
};

/** Account and organization in one form (`POST /api/signup`). */
export function SignupForm({ onSignedUp }: SignupFormProps) {
  const queryClient = useQueryClient();
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SignupFormValues, unknown, SignupFormOutput>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { name: '', email: '', password: '', organizationName: '', subdomain: '' },
  });
  const organizationName = useWatch({ control, name: 'organizationName' });

  async function handleValidSubmit(values: SignupFormOutput) {
    let response: SignupResponse;
    try {
      response = await signUp.mutateAsync({ ...values, subdomain: values.subdomain || undefined });
    } catch (error) {
      reportServerError(
        error,
        setError,
        ['name', 'email', 'password', 'organizationName', 'subdomain'],
        (message) => (SUBDOMAIN_FIELD_MESSAGES.includes(message) ? 'subdomain' : null),
      );
      return;
    }
    trackLoggedIn('signup', values.email);
    identifyUser(response.user.id);
    groupByOrganization(response.organization.id, response.organization.name);
    await signIn(queryClient, response.token);
    onSignedUp(response);
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField label="Your name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Work email"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="8 to 128 characters."
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="h-px bg-line" role="presentation" />
      <TextField
        label="Organization name"
        autoComplete="organization"
        error={errors.organizationName?.message}
        {...register('organizationName')}
      />
      <SubdomainField
        organizationName={organizationName}
        error={errors.subdomain?.message}
        {...register('subdomain')}
      />
      <Button type="submit" size="lg" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? 'Creating your account…' : 'Create account'}
      </Button>
    </form>
  );
}
