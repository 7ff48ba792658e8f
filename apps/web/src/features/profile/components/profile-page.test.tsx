import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { getSessionToken, sessionQueryKey, setSessionToken } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { ProfilePage } from './profile-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

function renderPage() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(<ProfilePage />, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
  setSessionToken('old-token');
});

describe('ProfilePage', () => {
  it('shows the name and e-mail, validates them inline and saves a change', async () => {
    const fetchMock = stubFetch((url) =>
      url === '/api/profile'
        ? jsonResponse(200, { ...me.user, name: 'Ada King' })
        : jsonResponse(200, { ...me, user: { ...me.user, name: 'Ada King' } }),
    );
    renderPage();

    const name = screen.getByLabelText('Name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');

    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();

    await userEvent.type(name, 'Ada King');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Profile updated'));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile',
      expect.objectContaining({
        method: 'PATCH',
        body: JSON.stringify({ name: 'Ada King', email: 'ada@example.com' }),
      }),
    );
  });

  it('asks for the current password only when the e-mail changes and sends it with the change', async () => {
    let answer = jsonResponse(400, { error: 'Current password is incorrect', code: 'BAD_REQUEST' });
    const fetchMock = stubFetch((url) =>
      url === '/api/profile'
        ? answer
        : jsonResponse(200, { ...me, user: { ...me.user, email: 'ada@new.example' } }),
    );
    renderPage();
    const passwordLabel = 'Current password for the new e-mail';
    expect(screen.queryByLabelText(passwordLabel)).not.toBeInTheDocument();

    const email = screen.getByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'Ada@New.Example');
    expect(screen.getByLabelText(passwordLabel)).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('Enter your current password to change your e-mail address'),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/profile', expect.anything());

    await userEvent.type(screen.getByLabelText(passwordLabel), 'not my password');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile',
      expect.objectContaining({
        method: 'PATCH',
        body: JSON.stringify({
          name: 'Ada Lovelace',
          email: 'ada@new.example',
          currentPassword: 'not my password',
        }),
      }),
    );

    answer = jsonResponse(200, { ...me.user, email: 'ada@new.example' });
    await userEvent.clear(screen.getByLabelText(passwordLabel));
    await userEvent.type(screen.getByLabelText(passwordLabel), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Profile updated'));

    // Saved: the address is the account's now, so no password is asked any more.
    await waitFor(() => expect(screen.queryByLabelText(passwordLabel)).not.toBeInTheDocument());
    expect(screen.getByLabelText('Email')).toHaveValue('ada@new.example');
  });

  it('needs the current password, shows a wrong one under its field and keeps the new token', async () => {
    let answer = jsonResponse(400, { error: 'Current password is incorrect', code: 'BAD_REQUEST' });
    stubFetch(() => answer);
    renderPage();

    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Current password'), 'not my password');
    await userEvent.type(screen.getByLabelText('New password'), 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(getSessionToken()).toBe('old-token');

    answer = jsonResponse(200, { token: 'new-token' });
    await userEvent.clear(screen.getByLabelText('Current password'));
    await userEvent.type(screen.getByLabelText('Current password'), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(getSessionToken()).toBe('new-token'));
    expect(toast.success).toHaveBeenCalledWith('Password changed. Other sessions were signed out.');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });
});
