import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import {
  getSelectedOrganizationId,
  selectOrganization,
  type OrganizationMembership,
  type SessionState,
} from '@/lib/auth';
import { organizationDomainKey, sharedViewKey } from '@/lib/query-keys';
import { renderWithQueryClient } from '@/testing/test-utils';

import { OrganizationList, OrganizationSwitcher } from './organization-switcher';

const org = (id: string, isPrimary: boolean, role: string): OrganizationMembership => ({
  id,
  name: `Org ${id}`,
  subdomain: id,
  role,
  isPrimary,
});

const noop = () => {};

describe('OrganizationList', () => {
  it("says 'Loading organizations...' while the session loads", () => {
    const session: SessionState = {
      status: 'loading',
      user: null,
      organizations: [],
      currentOrganization: null,
    };
    render(
      <OrganizationList session={session} pendingPrimaryId={null} onSelect={noop} onMakePrimary={noop} />,
    );
    expect(screen.getByText('Loading organizations...')).toBeInTheDocument();
  });

  it("says 'No organizations available' when there are none", () => {
    const session: SessionState = {
      status: 'authenticated',
      user: { id: 'u', name: 'Ada', email: 'a@x.dev' },
      organizations: [],
      currentOrganization: null,
    };
    render(
      <OrganizationList session={session} pendingPrimaryId={null} onSelect={noop} onMakePrimary={noop} />,
    );
    expect(screen.getByText('No organizations available')).toBeInTheDocument();
  });

  it('lists role and Primary, selects one and marks another primary', async () => {
    const a = org('a', true, 'owner');
    const b = org('b', false, 'team_member');
    const session: SessionState = {
      status: 'authenticated',
      user: { id: 'u', name: 'Ada', email: 'a@x.dev' },
      organizations: [a, b],
      currentOrganization: a,
    };
    const onSelect = vi.fn();
    const onMakePrimary = vi.fn();
    render(
      <OrganizationList
        session={session}
        pendingPrimaryId={null}
        onSelect={onSelect}
        onMakePrimary={onMakePrimary}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Org aPrimaryOwner');
    expect(items[1]).toHaveTextContent('Org bTeam member');
    expect(screen.queryByRole('button', { name: 'Make Org a primary' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Org b/ }));
    expect(onSelect).toHaveBeenCalledWith(b);
    await userEvent.click(screen.getByRole('button', { name: 'Make Org b primary' }));
    expect(onMakePrimary).toHaveBeenCalledWith(b);
  });
});

describe('OrganizationSwitcher', () => {
  it('switching drops the cache of the organization left behind, and only that', async () => {
    const a = org('a', true, 'owner');
    const b = org('b', false, 'team_member');
    const session: SessionState = {
      status: 'authenticated',
      user: { id: 'u', name: 'Ada', email: 'a@x.dev' },
      organizations: [a, b],
      currentOrganization: a,
    };
    const keys = {
      session: ['session'],
      left: [...organizationDomainKey('a', 'courses'), 'list'],
      next: [...organizationDomainKey('b', 'courses'), 'list'],
      shared: [...sharedViewKey('report'), 'token'],
    };
    const { queryClient } = renderWithQueryClient(<OrganizationSwitcher session={session} />);
    for (const key of Object.values(keys)) queryClient.setQueryData(key, { cached: true });

    await userEvent.click(screen.getByRole('button', { name: /Organization/ }));
    await userEvent.click(screen.getByRole('button', { name: /^Org b/ }));

    expect(getSelectedOrganizationId()).toBe('b');
    expect(queryClient.getQueryData(keys.left)).toBeUndefined();
    expect(queryClient.getQueryData(keys.next)).toEqual({ cached: true });
    expect(queryClient.getQueryData(keys.session)).toEqual({ cached: true });
    expect(queryClient.getQueryData(keys.shared)).toEqual({ cached: true });
    selectOrganization(null);
  });
});
