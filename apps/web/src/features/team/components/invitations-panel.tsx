import {
  createInvitationInput,
  type CreateInvitationInput,
  type InvitationBody,
  type SentInvitation,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useCreateInvitation } from '../api/create-invitation';
import { useInvitations } from '../api/get-invitations';
import { useResendInvitation } from '../api/resend-invitation';
import { useRevokeInvitation } from '../api/revoke-invitation';

import { CopyLinkField } from './copy-link-field';
import { inputClassName, TextField } from '@/components/ui/text-field';

type InviteFormOutput = z.output<typeof createInvitationInput>;

const statusBadge: Record<InvitationBody['status'] | 'expired', { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'warning' },
  accepted: { label: 'Accepted', variant: 'success' },
  revoked: { label: 'Revoked', variant: 'neutral' },
  expired: { label: 'Expired', variant: 'neutral' },
};
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A pending invitation past its expiry shows as expired. */
export function invitationStatus(
  invitation: InvitationBody,
  now: Date = new Date(),
): InvitationBody['status'] | 'expired' {
  const isExpired =
    invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() <= now.getTime();
  return isExpired ? 'expired' : invitation.status;
}

function messageOf(error: unknown): string {
  return isApiError(error) ? error.message : 'Something went wrong. Please try again.';
}

/** Owners invite by e-mail and see the link to copy; pending invitations can be re-sent or revoked. */
export function InvitationsPanel() {
  const session = useSession();
  const organization = session.currentOrganization;
  const organizationId = organization?.id;
  const permission = useCanManage('team');
  const invitations = useInvitations(permission.isAllowed ? organizationId : null);
  const createInvitation = useCreateInvitation(organizationId);
  const resendInvitation = useResendInvitation(organizationId);
  const revokeInvitation = useRevokeInvitation(organizationId);
  const [sent, setSent] = useState<SentInvitation | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CreateInvitationInput, unknown, InviteFormOutput>({
    resolver: zodResolver(createInvitationInput),
    defaultValues: { email: '', role: 'team_member' },
  });

  if (!organization) return <p className="text-sm text-fg-muted">No organization selected</p>;
  if (!permission.isAllowed) {
    return permission.reason ? (
      <p className="text-sm text-fg-muted" data-testid="invitations-owners-only">
        {permission.reason}. Ask an owner to invite a colleague.
      </p>
    ) : null;
  }

  async function handleInvite(values: InviteFormOutput) {
    try {
      setSent(await createInvitation.mutateAsync(values));
      reset();
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  async function handleResend(invitation: InvitationBody) {
    try {
      setSent(await resendInvitation.mutateAsync(invitation.id));
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  async function handleRevoke(invitation: InvitationBody) {
    try {
      await revokeInvitation.mutateAsync(invitation.id);
      if (sent?.invitation.id === invitation.id) setSent(null);
      toast.success(`Invitation for ${invitation.email} revoked`);
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Invite a teammate</CardTitle>
          <CardDescription>The link works for 7 days. You can always copy it here.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(handleInvite)(event)}
            className="flex flex-col gap-4 sm:flex-row sm:items-start"
          >
            <div className="flex-1">
              <TextField
                label="Email"
                type="email"
                autoComplete="off"
                placeholder="Teammate’s e-mail address"
                error={errors.email?.message}
                {...register('email')}
              />
            </div>
            <div className="flex flex-col gap-1.5 sm:w-44">
              <label htmlFor="invitation-role" className="text-sm font-medium text-fg">
                Role
              </label>
              <select id="invitation-role" className={inputClassName} {...register('role')}>
                <option value="team_member">Team member</option>
                <option value="owner">Owner</option>
              </select>
            </div>
            <Button type="submit" isLoading={isSubmitting} className="sm:mt-6.5">
              {isSubmitting ? 'Inviting…' : 'Send invitation'}
            </Button>
          </form>
          {sent ? (
            <div className="flex flex-col gap-3 rounded-xl border border-emerald-600/20 bg-emerald-50/60 p-4 dark:border-emerald-400/25 dark:bg-emerald-400/10">
              <p className="flex items-center gap-2 text-sm text-fg" role="status">
                <MailCheck aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
                {sent.isEmailed
                  ? `Invitation e-mailed to ${sent.invitation.email}.`
                  : `Invitation for ${sent.invitation.email} created. Send them this link.`}
              </p>
              <CopyLinkField label="Invitation link" value={sent.link} />
            </div>
          ) : null}
        </CardContent>
      </Card>

      <section aria-labelledby="invitations-heading" className="flex flex-col gap-3">
        <h2 id="invitations-heading" className="text-lg font-semibold tracking-tight text-fg">
          Invitations
        </h2>
        {invitations.isPending ? (
          <div className="flex justify-center py-8 text-fg-muted">
            <Spinner label="Loading invitations" />
          </div>
        ) : invitations.isError ? (
          <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
            {invitations.error.message}
          </p>
        ) : invitations.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-line-strong px-4 py-8 text-center text-sm text-fg-muted">
            No invitations yet.
          </p>
        ) : (
          <ul className="divide-y divide-line rounded-2xl border border-line bg-surface">
            {invitations.data.map((invitation) => {
              const status = invitationStatus(invitation);
              return (
                <li key={invitation.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-fg" title={invitation.email}>
                      {invitation.email}
                    </p>
                    <p className="text-sm text-fg-muted">
                      {invitation.role === 'owner' ? 'Owner' : 'Team member'}
                      {invitation.inviterName ? ` · invited by ${invitation.inviterName}` : ''} · expires{' '}
                      {dateFormat.format(new Date(invitation.expiresAt))}
                    </p>
                  </div>
                  <Badge variant={statusBadge[status].variant} dot className="self-start sm:self-center">
                    {statusBadge[status].label}
                  </Badge>
                  {invitation.status === 'pending' ? (
                    <div className="flex gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => void handleResend(invitation)}
                        aria-label={`Re-send the invitation for ${invitation.email}`}
                      >
                        Re-send
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => void handleRevoke(invitation)}
                        aria-label={`Revoke the invitation for ${invitation.email}`}
                        className="text-rose-600 hover:text-rose-700 dark:text-rose-400 dark:hover:text-rose-300"
                      >
                        Revoke
                      </Button>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
