import { SUBDOMAIN_MESSAGES } from '@courselens/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { toast } from '@/lib/toast';
import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { SignupForm } from './signup-form';

vi.mock('@/lib/analytics', () => ({
  trackLoggedIn: vi.fn(),
  trackLoginFailed: vi.fn(),
  trackLoggedOut: vi.fn(),
  identifyUser: vi.fn(),
  groupByOrganization: vi.fn(),
}));
vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const user = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' };
const organization = { id: 'o1', name: 'Acme Learning', subdomain: 'acme-learning' };

async function fillAccount() {
  await userEvent.type(screen.getByLabelText('Your name'), 'Ada Lovelace');
  await userEvent.type(screen.getByLabelText('Work email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
  await userEvent.type(screen.getByLabelText('Organization name'), 'Acme Learning');
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('SignupForm', () => {
  it('shows every field error inline when the form is empty', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    renderWithQueryClient(<SignupForm onSignedUp={vi.fn()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(screen.getByText('Organization name is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['ab', SUBDOMAIN_MESSAGES.tooShort],
    ['Acme', SUBDOMAIN_MESSAGES.characters],
    ['-acme', SUBDOMAIN_MESSAGES.edgeHyphen],
    ['ac--me', SUBDOMAIN_MESSAGES.consecutiveHyphens],
    ['admin', SUBDOMAIN_MESSAGES.reserved],
    ['a'.repeat(51), SUBDOMAIN_MESSAGES.tooLong],
  ])('shows the spec message for the subdomain %s', async (subdomain, message) => {
    stubFetch(() => jsonResponse(500, {}));
    renderWithQueryClient(<SignupForm onSignedUp={vi.fn()} />);

    await userEvent.type(screen.getByLabelText(/Subdomain/), subdomain);
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('suggests the derived subdomain and leaves it to the server when empty', async () => {
    const fetchMock = stubFetch((url) => {
      if (url === '/api/signup') return jsonResponse(201, { token: 'tok-1', user, organization });
      return jsonResponse(200, {
        user,
        organizations: [{ ...organization, role: 'owner', isPrimary: true }],
      });
    });
    const onSignedUp = vi.fn();
    renderWithQueryClient(<SignupForm onSignedUp={onSignedUp} />);

    await fillAccount();
    expect(screen.getByText(/Leave empty to use “acme-learning”/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(onSignedUp).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(init?.body as string)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'correct horse',
      organizationName: 'Acme Learning',
    });
  });

  it('disables the button while submitting and puts a taken e-mail in a toast', async () => {
    let release: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    renderWithQueryClient(<SignupForm onSignedUp={vi.fn()} />);

    await fillAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('button', { name: 'Creating your account…' })).toBeDisabled();

    release(jsonResponse(409, { error: 'An account with this email already exists', code: 'CONFLICT' }));

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('An account with this email already exists'),
    );
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });

  it('shows a subdomain refused by the server under the subdomain field', async () => {
    stubFetch(() => jsonResponse(409, { error: 'This subdomain is already taken', code: 'CONFLICT' }));
    renderWithQueryClient(<SignupForm onSignedUp={vi.fn()} />);

    await fillAccount();
    await userEvent.type(screen.getByLabelText(/Subdomain/), 'acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('This subdomain is already taken')).toBeInTheDocument();
    expect(screen.getByLabelText(/Subdomain/)).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();
  });
});
