import {
  acceptInvitationSignupInput,
  signInInput,
  type AcceptInvitationSignupInput,
  type InvitationPreview,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { MailWarning, UsersRound } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type z } from 'zod';

import { Logo } from '@/components/logo';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { groupByOrganization, identifyUser, trackLoggedIn, trackLoginFailed } from '@/lib/analytics';
import { isApiError } from '@/lib/api-client';
import { selectOrganization, signIn, useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useAcceptInvitation } from '../api/accept-invitation';
import { useCreateSession } from '../api/create-session';
import { useInvitationPreview } from '../api/get-invitation-preview';
import { useSignUpWithInvitation } from '../api/sign-up-with-invitation';

import { TextField } from '@/components/ui/text-field';

const UNEXPECTED = 'Something went wrong. Please try again.';
const roleLabel = { owner: 'Owner', team_member: 'Team member' } as const;

function messageOf(error: unknown): string {
  return isApiError(error) ? error.message : UNEXPECTED;
}

/** `/team-signup?token=…`: shows who invites whom where, then creates an account or signs in, and joins. */
export function TeamSignupPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const preview = useInvitationPreview(token);
  const session = useSession();

  let content: ReactNode;
  if (!token) {
    content = <InvitationProblem message="This invitation link is incomplete. Ask for a new invitation." />;
  } else if (preview.isPending || session.status === 'loading') {
    content = (
      <div className="flex justify-center py-10 text-fg-muted">
        <Spinner label="Loading the invitation" />
      </div>
    );
  } else if (preview.isError) {
    content = <InvitationProblem message={messageOf(preview.error)} />;
  } else if (session.status === 'authenticated') {
    content = <AcceptAsSignedIn token={token} preview={preview.data} email={session.user.email} />;
  } else {
    content = <JoinAsVisitor token={token} preview={preview.data} />;
  }

  return (
    <section className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10 sm:py-16">
      <title>Join your team · CourseLens</title>
      <div className="mb-6 flex justify-center">
        <Link
          to={paths.home.href()}
          aria-label="CourseLens home"
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-focus"
        >
          <Logo />
        </Link>
      </div>
      <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm shadow-slate-900/5 sm:p-8 dark:shadow-black/20">
        {preview.data ? (
          <div className="mb-6 flex items-start gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300 [&_svg]:size-5">
              <UsersRound aria-hidden="true" />
            </span>
            <div>
              <h1 className="text-xl font-bold tracking-tight text-balance text-fg">
                Join {preview.data.organizationName}
              </h1>
              <p className="mt-1 text-sm text-fg-muted">
                <span className="font-medium text-fg">{preview.data.inviterName}</span> invited{' '}
                <span className="font-medium text-fg">{preview.data.email}</span> as{' '}
                {roleLabel[preview.data.role].toLowerCase()}.
              </p>
            </div>
          </div>
        ) : (
          <h1 className="mb-4 text-xl font-bold tracking-tight text-fg">Join your team</h1>
        )}
        {content}
      </div>
    </section>
  );
}

function InvitationProblem({ message }: { message: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-4 text-center">
      <MailWarning aria-hidden="true" className="size-8 text-amber-500" />
      <p className="text-sm text-fg">{message}</p>
      <Link to={paths.auth.login.href()} className={buttonClassName({ variant: 'outline', size: 'sm' })}>
        Go to sign in
      </Link>
    </div>
  );
}

type InvitationStepProps = { token: string; preview: InvitationPreview };

/** Joins with the current session; used after signing in too. */
function useJoin(token: string) {
  const acceptInvitation = useAcceptInvitation();
  const navigate = useNavigate();
  return async () => {
    const organization = await acceptInvitation.mutateAsync(token);
    selectOrganization(organization.id);
    groupByOrganization(organization.id, organization.name);
    toast.success(`Welcome to ${organization.name}!`);
    void navigate(paths.dashboard.href(), { replace: true });
  };
}

function AcceptAsSignedIn({ token, preview, email }: InvitationStepProps & { email: string }) {
  const join = useJoin(token);
  const [isJoining, setIsJoining] = useState(false);

  async function handleAccept() {
    setIsJoining(true);
    try {
      await join();
    } catch (error) {
      toast.error(messageOf(error));
      setIsJoining(false);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-fg-muted">
        You are signed in as <span className="font-medium text-fg">{email}</span>.
      </p>
      {email.toLowerCase() !== preview.email.toLowerCase() ? (
        <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-400/10 dark:text-amber-100 dark:ring-amber-400/25">
          This invitation was sent to {preview.email}. Sign out and use that account to accept it.
        </p>
      ) : null}
      <Button size="lg" className="w-full" isLoading={isJoining} onClick={() => void handleAccept()}>
        {isJoining ? 'Joining…' : `Accept and join ${preview.organizationName}`}
      </Button>
    </div>
  );
}

type Mode = 'new' | 'existing';

function JoinAsVisitor({ token, preview }: InvitationStepProps) {
  const [mode, setMode] = useState<Mode>('new');
  return (
    <div className="flex flex-col gap-5">
      <div
        role="group"
        aria-label="Account"
        className="grid grid-cols-2 gap-1 rounded-xl bg-surface-muted p-1"
      >
        {(
          [
            ['new', 'I’m new here'],
            ['existing', 'I have an account'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={mode === value}
            onClick={() => setMode(value)}
            className={cn(
              'rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-focus',
              mode === value ? 'bg-surface text-fg shadow-sm' : 'text-fg-muted hover:text-fg',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      {mode === 'new' ? (
        <NewAccountForm token={token} preview={preview} />
      ) : (
        <ExistingAccountForm token={token} preview={preview} />
      )}
    </div>
  );
}

function NewAccountForm({ token, preview }: InvitationStepProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signUp = useSignUpWithInvitation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AcceptInvitationSignupInput>({
    resolver: zodResolver(acceptInvitationSignupInput),
    defaultValues: { name: '', password: '' },
  });

  async function handleValidSubmit(values: AcceptInvitationSignupInput) {
    try {
      const response = await signUp.mutateAsync({ token, input: values });
      trackLoggedIn('invitation', response.user.email);
      identifyUser(response.user.id);
      groupByOrganization(response.organization.id, response.organization.name);
      selectOrganization(response.organization.id);
      await signIn(queryClient, response.token);
      void navigate(paths.dashboard.href(), { replace: true });
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField label="Email" type="email" value={preview.email} readOnly autoComplete="email" />
      <TextField label="Your name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="8 to 128 characters."
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" size="lg" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? 'Creating your account…' : 'Create account and join'}
      </Button>
    </form>
  );
}

/** The password rule of the sign-in schema; the e-mail is the invitation's. */
const existingAccountSchema = signInInput.pick({ password: true });
type ExistingAccountValues = z.infer<typeof existingAccountSchema>;

function ExistingAccountForm({ token, preview }: InvitationStepProps) {
  const queryClient = useQueryClient();
  const createSession = useCreateSession();
  const join = useJoin(token);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ExistingAccountValues>({
    resolver: zodResolver(existingAccountSchema),
    defaultValues: { password: '' },
  });

  async function handleValidSubmit({ password }: ExistingAccountValues) {
    let sessionToken: string;
    try {
      const response = await createSession.mutateAsync({ email: preview.email, password });
      trackLoggedIn('password', preview.email);
      identifyUser(response.user.id);
      sessionToken = response.token;
    } catch (error) {
      trackLoginFailed(
        isApiError(error) && error.status === 401 ? 'invalid_credentials' : 'error',
        preview.email,
      );
      toast.error(messageOf(error));
      return;
    }
    await signIn(queryClient, sessionToken);
    try {
      await join();
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField label="Email" type="email" value={preview.email} readOnly autoComplete="username" />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" size="lg" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? 'Signing in…' : 'Sign in and join'}
      </Button>
    </form>
  );
}
