import { useQueryClient } from '@tanstack/react-query';
import { Building2, Check, ChevronsUpDown, Star } from 'lucide-react';
import { useId, useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import {
  markOrganizationPrimary,
  selectOrganization,
  type OrganizationMembership,
  type SessionState,
} from '@/lib/auth';
import { cn } from '@/lib/cn';
import { organizationKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

const roleLabels: Record<string, string> = { owner: 'Owner', team_member: 'Team member' };

export type OrganizationSwitcherProps = {
  session: SessionState;
  isCollapsed?: boolean;
};

/**
 * Lists the user's organizations with their role and a Primary badge; selects
 * one as current or marks one as primary (spec section 2). The sidebar shows
 * it only when the user belongs to more than one organization.
 */
export function OrganizationSwitcher({ session, isCollapsed = false }: OrganizationSwitcherProps) {
  const queryClient = useQueryClient();
  const [isOpen, setIsOpen] = useState(false);
  const [pendingPrimaryId, setPendingPrimaryId] = useState<string | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const listId = useId();
  useClickOutside(containerRef, () => setIsOpen(false), isOpen);
  useEscapeKey(() => setIsOpen(false), isOpen);

  const current = session.currentOrganization;

  const handleSelect = (organization: OrganizationMembership) => {
    const previousId = current?.id;
    selectOrganization(organization.id);
    // The pages now read the new organization's keys (all under its root);
    // the cache of the one left behind is dropped by its root.
    if (previousId !== organization.id) queryClient.removeQueries({ queryKey: organizationKey(previousId) });
    setIsOpen(false);
  };

  const handleMakePrimary = async (organization: OrganizationMembership) => {
    setPendingPrimaryId(organization.id);
    try {
      await markOrganizationPrimary(queryClient, organization.id);
      toast.success(`${organization.name} is now your primary organization`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not change the primary organization');
    } finally {
      setPendingPrimaryId(null);
    }
  };

  return (
    <div ref={containerRef} className="relative">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-label={isCollapsed ? `Organization: ${current?.name ?? 'none'}. Switch organization` : undefined}
        onClick={() => setIsOpen((open) => !open)}
        className={cn(
          'flex w-full items-center gap-3 rounded-lg px-2 py-1.5 text-left hover:bg-surface-muted',
          isCollapsed && 'justify-center px-0',
        )}
      >
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-surface-muted text-fg-muted">
          <Building2 aria-hidden="true" className="size-4" />
        </span>
        {isCollapsed ? null : (
          <>
            <span className="min-w-0 flex-1">
              <span className="block text-xs text-fg-subtle">Organization</span>
              <span className="block truncate text-sm font-semibold text-fg" data-testid="organization-name">
                {current?.name ?? 'No organization'}
              </span>
            </span>
            <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
          </>
        )}
      </button>
      {isOpen ? (
        <div
          id={listId}
          className={cn(
            'absolute z-50 mt-2 w-72 rounded-xl border border-line bg-surface p-1.5 shadow-xl',
            isCollapsed ? 'left-full top-0 ml-2' : 'left-0',
          )}
        >
          <OrganizationList
            session={session}
            pendingPrimaryId={pendingPrimaryId}
            onSelect={handleSelect}
            onMakePrimary={(organization) => void handleMakePrimary(organization)}
          />
        </div>
      ) : null}
    </div>
  );
}

export type OrganizationListProps = {
  session: SessionState;
  pendingPrimaryId: string | null;
  onSelect: (organization: OrganizationMembership) => void;
  onMakePrimary: (organization: OrganizationMembership) => void;
};

export function OrganizationList({
  session,
  pendingPrimaryId,
  onSelect,
  onMakePrimary,
}: OrganizationListProps) {
  if (session.status === 'loading') {
    return (
      <p className="flex items-center gap-2 px-3 py-2 text-sm text-fg-muted" role="status">
        <Spinner size="sm" label={null} /> Loading organizations...
      </p>
    );
  }
  if (session.organizations.length === 0) {
    return <p className="px-3 py-2 text-sm text-fg-muted">No organizations available</p>;
  }
  return (
    <ul aria-label="Your organizations" className="flex flex-col gap-0.5">
      {session.organizations.map((organization) => {
        const isCurrent = organization.id === session.currentOrganization?.id;
        return (
          <li key={organization.id} className="flex items-center gap-1 rounded-lg hover:bg-surface-muted">
            <button
              type="button"
              onClick={() => onSelect(organization)}
              aria-current={isCurrent ? 'true' : undefined}
              className="flex min-w-0 flex-1 items-center gap-2 rounded-lg px-2.5 py-2 text-left"
            >
              <span className="flex size-4 shrink-0 items-center justify-center text-accent">
                {isCurrent ? <Check aria-hidden="true" className="size-4" /> : null}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-2">
                  <span className="truncate text-sm font-medium text-fg">{organization.name}</span>
                  {organization.isPrimary ? <Badge variant="brand">Primary</Badge> : null}
                </span>
                <span className="block text-xs text-fg-subtle">
                  {roleLabels[organization.role] ?? organization.role}
                </span>
              </span>
            </button>
            {organization.isPrimary ? null : (
              <button
                type="button"
                onClick={() => onMakePrimary(organization)}
                disabled={pendingPrimaryId !== null}
                className="mr-1 flex size-8 shrink-0 items-center justify-center rounded-md text-fg-subtle hover:bg-surface hover:text-accent disabled:opacity-50"
                aria-label={`Make ${organization.name} primary`}
                title="Make primary"
              >
                {pendingPrimaryId === organization.id ? (
                  <Spinner size="sm" label={null} />
                ) : (
                  <Star aria-hidden="true" className="size-4" />
                )}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
