import { SUBDOMAIN_MESSAGES } from '@courselens/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { toast } from '@/lib/toast';
import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CreateOrganizationForm } from './create-organization-form';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

beforeEach(() => {
  vi.clearAllMocks();
});

describe('CreateOrganizationForm', () => {
  it('shows the name and subdomain errors inline without calling the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    renderWithQueryClient(<CreateOrganizationForm onCreated={vi.fn()} />);

    await userEvent.type(screen.getByLabelText(/Subdomain/), 'www');
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));

    expect(await screen.findByText('Organization name is required')).toBeInTheDocument();
    expect(screen.getByText(SUBDOMAIN_MESSAGES.reserved)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('disables the button while creating and hands back the organization', async () => {
    let release: (response: Response) => void = () => {};
    const fetchMock = stubFetch((url) =>
      url === '/api/organizations'
        ? new Promise<Response>((resolve) => (release = resolve))
        : jsonResponse(200, { user: {}, organizations: [] }),
    );
    const onCreated = vi.fn();
    renderWithQueryClient(<CreateOrganizationForm onCreated={onCreated} />);

    await userEvent.type(screen.getByLabelText('Organization name'), 'Second School');
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('button', { name: 'Creating…' })).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/organizations',
      expect.objectContaining({ body: JSON.stringify({ name: 'Second School' }) }),
    );

    const organization = { id: 'o2', name: 'Second School', subdomain: 'second-school' };
    release(jsonResponse(201, organization));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(organization));
  });

  it('puts a taken subdomain under its field and other failures in a toast', async () => {
    let answer = jsonResponse(409, { error: 'This subdomain is already taken', code: 'CONFLICT' });
    stubFetch(() => answer);
    renderWithQueryClient(<CreateOrganizationForm onCreated={vi.fn()} />);

    await userEvent.type(screen.getByLabelText('Organization name'), 'Acme');
    await userEvent.type(screen.getByLabelText(/Subdomain/), 'acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText('This subdomain is already taken')).toBeInTheDocument();

    answer = jsonResponse(500, { error: 'Organization creation failed.', code: 'INTERNAL_ERROR' });
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Organization creation failed.'));
  });
});
