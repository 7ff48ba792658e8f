import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { getSelectedOrganizationId, getSessionToken, sessionQueryKey, setSessionToken } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { TeamSignupPage } from './team-signup-page';

vi.mock('@/lib/analytics', () => ({
  trackLoggedIn: vi.fn(),
  trackLoginFailed: vi.fn(),
  trackLoggedOut: vi.fn(),
  identifyUser: vi.fn(),
  groupByOrganization: vi.fn(),
}));
vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const preview = {
  organizationName: 'Acme Learning',
  inviterName: 'Grace Hopper',
  email: 'ada@example.com',
  role: 'team_member',
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const organization = { id: 'o1', name: 'Acme Learning', subdomain: 'acme' };
const user = { id: 'u2', name: 'Ada Lovelace', email: 'ada@example.com' };

function renderPage(session: unknown = null) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, session);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={['/team-signup?token=tok-abc']}>
      <Routes>
        <Route path="/team-signup" element={<TeamSignupPage />} />
        <Route path="/dashboard" element={<p>dashboard</p>} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  setSessionToken(null);
});

describe('TeamSignupPage', () => {
  it('shows the organization and inviter, and a new person creates an account and joins', async () => {
    const fetchMock = stubFetch((url) => {
      if (url === '/api/invitations/tok-abc') return jsonResponse(200, preview);
      if (url === '/api/invitations/tok-abc/signup')
        return jsonResponse(201, { token: 'session-1', user, organization });
      return jsonResponse(200, {
        user,
        organizations: [{ ...organization, role: 'team_member', isPrimary: true }],
      });
    });
    renderPage();

    expect(await screen.findByRole('heading', { name: 'Join Acme Learning' })).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Your name'), 'Ada Lovelace');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(getSessionToken()).toBe('session-1');
    expect(getSelectedOrganizationId()).toBe('o1');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/invitations/tok-abc/signup',
      expect.objectContaining({ body: JSON.stringify({ name: 'Ada Lovelace', password: 'correct horse' }) }),
    );
  });

  it('lets a signed-in person accept the invitation', async () => {
    setSessionToken('session-0');
    const fetchMock = stubFetch((url) => {
      if (url === '/api/invitations/tok-abc') return jsonResponse(200, preview);
      if (url === '/api/invitations/tok-abc/accept') return jsonResponse(200, organization);
      return jsonResponse(200, { user, organizations: [] });
    });
    renderPage({ user, organizations: [] });

    await userEvent.click(await screen.findByRole('button', { name: 'Accept and join Acme Learning' }));

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/invitations/tok-abc/accept',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(toast.success).toHaveBeenCalledWith('Welcome to Acme Learning!');
  });

  it('says so when the invitation has expired', async () => {
    stubFetch(() => jsonResponse(410, { error: 'This invitation has expired', code: 'BAD_REQUEST' }));
    renderPage();

    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired');
    await waitFor(() => expect(screen.queryByRole('button', { name: /join/i })).not.toBeInTheDocument());
  });
});
