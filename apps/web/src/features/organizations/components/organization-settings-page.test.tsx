import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { OrganizationSettingsPage } from './organization-settings-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function renderPage(role: 'owner' | 'team_member', initialEntry = '/organization/settings') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, {
    user: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
    organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
  });
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[initialEntry]}>
      <OrganizationSettingsPage
        membersTab={<p>members panel</p>}
        invitationsTab={<p>invitations panel</p>}
        apiKeysTab={<p>api keys panel</p>}
        jobsTab={<p>jobs panel</p>}
      />
    </MemoryRouter>,
    { queryClient },
  );
}

describe('OrganizationSettingsPage', () => {
  it('opens the tab named in the address and moves between tabs with the arrow keys', async () => {
    stubFetch(() => jsonResponse(200, {}));
    renderPage('owner', '/organization/settings?tab=api-keys');

    expect(screen.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('api keys panel');

    screen.getByRole('tab', { name: 'API keys' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Background jobs' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'General' })).toHaveFocus();
    expect(screen.getByLabelText('Organization name')).toHaveValue('Acme');

    await userEvent.click(screen.getByRole('tab', { name: 'Members' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('members panel');
  });

  it('lets an owner rename the organization and shows subdomain rules inline', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { id: 'o1', name: 'Acme Academy', subdomain: 'acme' }),
    );
    renderPage('owner');

    const subdomain = screen.getByLabelText('Subdomain');
    await userEvent.clear(subdomain);
    await userEvent.type(subdomain, 'acme--academy');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Subdomain cannot contain consecutive hyphens')).toBeInTheDocument();

    await userEvent.clear(subdomain);
    await userEvent.type(subdomain, 'acme');
    const name = screen.getByLabelText('Organization name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Acme Academy');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/organizations/o1',
        expect.objectContaining({
          method: 'PATCH',
          body: JSON.stringify({ name: 'Acme Academy', subdomain: 'acme' }),
        }),
      ),
    );
  });

  it('shows the settings read-only to a team member', () => {
    stubFetch(() => jsonResponse(200, {}));
    renderPage('team_member');

    expect(screen.getByLabelText('Organization name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Only owners can change the organization settings: its name and subdomain.'),
    ).toBeInTheDocument();
  });
});
