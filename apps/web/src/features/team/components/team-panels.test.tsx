import type { InvitationBody, Member } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { InvitationsPanel } from './invitations-panel';
import { MembersPanel } from './members-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const owner: Member = {
  userId: '11111111-1111-4111-8111-111111111111',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  role: 'owner',
  joinedAt: '2026-01-01T00:00:00.000Z',
};
const teammate: Member = {
  userId: '22222222-2222-4222-8222-222222222222',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'team_member',
  joinedAt: '2026-01-02T00:00:00.000Z',
};
const pending: InvitationBody = {
  id: '33333333-3333-4333-8333-333333333333',
  email: 'alan@example.com',
  role: 'team_member',
  status: 'pending',
  inviterName: 'Grace Hopper',
  expiresAt: '2099-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
};

function renderAs(ui: React.ReactElement, role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, {
    user: { id: owner.userId, name: owner.name, email: owner.email },
    organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
  });
  return renderWithQueryClient(ui, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('InvitationsPanel', () => {
  it('validates the e-mail, then shows the invitation link to copy', async () => {
    let invitations: InvitationBody[] = [];
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'POST') {
        invitations = [pending];
        return jsonResponse(201, {
          invitation: pending,
          link: 'http://localhost/team-signup?token=tok-1',
          token: 'tok-1',
          isEmailed: false,
        });
      }
      return jsonResponse(200, { invitations });
    });
    renderAs(<InvitationsPanel />);

    expect(await screen.findByText('No invitations yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'not an address');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'alan@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByLabelText('Invitation link')).toHaveValue(
      'http://localhost/team-signup?token=tok-1',
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/invitations',
      expect.objectContaining({ body: JSON.stringify({ email: 'alan@example.com', role: 'team_member' }) }),
    );
    expect(await screen.findByText('Pending')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Revoke the invitation for alan@example.com' }),
    ).toBeInTheDocument();
  });

  it('tells a team member that only owners see invitations', () => {
    const fetchMock = stubFetch(() => jsonResponse(200, { invitations: [] }));
    renderAs(<InvitationsPanel />, 'team_member');

    expect(
      screen.getByText(
        'Only owners can invite people and change or remove members. Ask an owner to invite a colleague.',
      ),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('MembersPanel', () => {
  it('shows the last-owner refusal in a toast', async () => {
    stubFetch((url, init) =>
      init?.method === 'PATCH'
        ? jsonResponse(409, { error: 'An organization needs at least one owner', code: 'CONFLICT' })
        : jsonResponse(200, { members: [owner, teammate] }),
    );
    renderAs(<MembersPanel />);

    await userEvent.selectOptions(await screen.findByLabelText('Role of Grace Hopper'), 'team_member');

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('An organization needs at least one owner'));
  });

  it('removes a member after confirmation', async () => {
    let members = [owner, teammate];
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'DELETE') {
        members = [owner];
        return new Response(null, { status: 204 });
      }
      return jsonResponse(200, { members });
    });
    renderAs(<MembersPanel />);

    await userEvent.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Ada Lovelace?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));

    await waitFor(() => expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/team/members/${teammate.userId}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
  });

  it('shows a team member the team without role or removal controls, and says why', async () => {
    stubFetch(() => jsonResponse(200, { members: [owner, teammate] }));
    renderAs(<MembersPanel />, 'team_member');

    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByTestId('members-owners-only')).toHaveTextContent(
      'Only owners can invite people and change or remove members.',
    );
    expect(screen.queryByLabelText('Role of Ada Lovelace')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Ada Lovelace' })).not.toBeInTheDocument();
  });
});
