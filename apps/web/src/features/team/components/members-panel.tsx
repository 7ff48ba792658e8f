import type { Member, MemberRole } from '@courselens/contracts';
import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMemberRole } from '../api/update-member-role';

import { Dialog } from '@/components/ui/dialog';
import { inputClassName } from '@/components/ui/text-field';

const roleLabel: Record<MemberRole, string> = { owner: 'Owner', team_member: 'Team member' };

function messageOf(error: unknown): string {
  return isApiError(error) ? error.message : 'Something went wrong. Please try again.';
}

/** The organization's members; owners change roles and remove people (never the last owner). */
export function MembersPanel() {
  const session = useSession();
  const organization = session.currentOrganization;
  const organizationId = organization?.id;
  const permission = useCanManage('team');
  const isOwner = permission.isAllowed;
  const members = useMembers(organizationId);
  const updateMemberRole = useUpdateMemberRole(organizationId);
  const removeMember = useRemoveMember(organizationId);
  const [memberToRemove, setMemberToRemove] = useState<Member | null>(null);

  async function handleRoleChange(member: Member, role: MemberRole) {
    try {
      await updateMemberRole.mutateAsync({ userId: member.userId, role });
      toast.success(`${member.name} is now ${roleLabel[role].toLowerCase()}`);
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  async function handleRemove() {
    if (!memberToRemove) return;
    try {
      await removeMember.mutateAsync(memberToRemove.userId);
      toast.success(`${memberToRemove.name} was removed from ${organization?.name ?? 'the organization'}`);
      setMemberToRemove(null);
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  if (!organization) return <p className="text-sm text-fg-muted">No organization selected</p>;

  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="members-heading" className="text-lg font-semibold tracking-tight text-fg">
          Members
        </h2>
        <p className="mt-1 text-sm text-fg-muted">
          Owners manage the team, settings, billing and API keys, delete courses and share publicly; everyone
          works with the learning data.
        </p>
        {permission.reason ? (
          <p className="mt-2 text-sm font-medium text-fg" data-testid="members-owners-only">
            {permission.reason}.
          </p>
        ) : null}
      </div>
      {members.isPending ? (
        <div className="flex justify-center py-8 text-fg-muted">
          <Spinner label="Loading members" />
        </div>
      ) : members.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {members.error.message}
        </p>
      ) : (
        <ul className="divide-y divide-line rounded-2xl border border-line bg-surface">
          {members.data.map((member) => {
            const isSelf = member.userId === session.user?.id;
            return (
              <li key={member.userId} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
                <div className="flex min-w-0 flex-1 items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700 dark:bg-brand-400/10 dark:text-brand-200"
                  >
                    {member.name.charAt(0).toUpperCase() || '?'}
                  </span>
                  <div className="min-w-0">
                    <p className="truncate font-medium text-fg">
                      {member.name}
                      {isSelf ? <span className="font-normal text-fg-muted"> (you)</span> : null}
                    </p>
                    <p className="truncate text-sm text-fg-muted" title={member.email}>
                      {member.email}
                    </p>
                  </div>
                </div>
                {isOwner ? (
                  <div className="flex items-center gap-2">
                    <label htmlFor={`role-${member.userId}`} className="sr-only">
                      Role of {member.name}
                    </label>
                    <select
                      id={`role-${member.userId}`}
                      value={member.role}
                      disabled={updateMemberRole.isPending}
                      onChange={(event) => void handleRoleChange(member, event.target.value as MemberRole)}
                      className={`${inputClassName} h-8 w-40`}
                    >
                      <option value="owner">Owner</option>
                      <option value="team_member">Team member</option>
                    </select>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setMemberToRemove(member)}
                      aria-label={`Remove ${member.name}`}
                      className="text-rose-600 hover:text-rose-700 dark:text-rose-400 dark:hover:text-rose-300"
                    >
                      Remove
                    </Button>
                  </div>
                ) : (
                  <Badge variant={member.role === 'owner' ? 'brand' : 'neutral'}>
                    {roleLabel[member.role]}
                  </Badge>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Dialog
        open={memberToRemove !== null}
        onClose={() => setMemberToRemove(null)}
        title={`Remove ${memberToRemove?.name ?? 'this member'}?`}
        description={`They lose access to ${organization.name} at once. You can invite them again later.`}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setMemberToRemove(null)} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" isLoading={removeMember.isPending} onClick={() => void handleRemove()}>
            Remove member
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
