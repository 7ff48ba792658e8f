import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { trackLoggedIn, trackLoginFailed } from '@/lib/analytics';
import { getSessionToken, setSessionToken } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { LoginForm } from './login-form';

vi.mock('@/lib/analytics', () => ({
  trackLoggedIn: vi.fn(),
  trackLoginFailed: vi.fn(),
  trackLoggedOut: vi.fn(),
  identifyUser: vi.fn(),
  groupByOrganization: vi.fn(),
}));
vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const user = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' };
const me = {
  user,
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

beforeEach(() => {
  vi.clearAllMocks();
  setSessionToken(null);
});

describe('LoginForm', () => {
  it('shows the field errors inline and sends nothing when the form is empty', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    renderWithQueryClient(<LoginForm onSignedIn={vi.fn()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('disables the button while signing in, stores the session and reports user_logged_in', async () => {
    let release: (response: Response) => void = () => {};
    stubFetch((url) => {
      if (url === '/api/session') return new Promise<Response>((resolve) => (release = resolve));
      if (url === '/api/me') return jsonResponse(200, me);
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });
    const onSignedIn = vi.fn();
    renderWithQueryClient(<LoginForm onSignedIn={onSignedIn} />);

    await userEvent.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    const busy = await screen.findByRole('button', { name: 'Signing in…' });
    expect(busy).toBeDisabled();

    release(jsonResponse(200, { token: 'tok-1', user }));

    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ token: 'tok-1', user }));
    expect(getSessionToken()).toBe('tok-1');
    expect(trackLoggedIn).toHaveBeenCalledWith('password', 'ada@example.com');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('shows the server message in a toast and reports login_failed on a wrong password', async () => {
    stubFetch(() => jsonResponse(401, { error: 'Invalid email or password', code: 'UNAUTHENTICATED' }));
    const onSignedIn = vi.fn();
    renderWithQueryClient(<LoginForm onSignedIn={onSignedIn} />);

    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Invalid email or password'));
    expect(trackLoginFailed).toHaveBeenCalledWith('invalid_credentials', 'ada@example.com');
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(getSessionToken()).toBeNull();
  });
});
