import type { ApiKeyBody } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { ApiKeysPanel } from './api-keys-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const meAs = (role: 'owner' | 'team_member') => ({
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
});

const ingestKey: ApiKeyBody = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Onboarding course',
  prefix: 'cl_ing_ab12',
  scope: 'ingest',
  expires_at: '2099-01-31T00:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
};
const revokedKey: ApiKeyBody = {
  ...ingestKey,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Old script',
  prefix: 'cl_old_cd34',
  expires_at: null,
  revoked_at: '2026-02-01T00:00:00.000Z',
};

const SECRET = 'cl_ing_ab12_s3cr3t-s3cr3t-s3cr3t-s3cr3t';

function renderPanel(role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, meAs(role));
  return renderWithQueryClient(<ApiKeysPanel />, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('ApiKeysPanel', () => {
  it('lists keys with prefix, scope, expiry, last use and status, never a secret', async () => {
    stubFetch(() => jsonResponse(200, { apiKeys: [ingestKey, revokedKey] }));
    renderPanel();

    const table = await screen.findByRole('table', { name: 'API keys' });
    const [, firstRow, secondRow] = within(table).getAllByRole('row');
    expect(within(firstRow!).getByText('cl_ing_ab12…')).toBeInTheDocument();
    expect(within(firstRow!).getByText('Ingest only')).toBeInTheDocument();
    expect(within(firstRow!).getByText('Never used')).toBeInTheDocument();
    expect(within(firstRow!).getByText('Active')).toBeInTheDocument();
    expect(within(firstRow!).getByRole('button', { name: 'Revoke Onboarding course' })).toBeInTheDocument();
    expect(within(secondRow!).getByText('Ingest only')).toBeInTheDocument();
    expect(within(secondRow!).getByText('Never')).toBeInTheDocument();
    expect(within(secondRow!).getByText('Revoked')).toBeInTheDocument();
    expect(within(secondRow!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('requires a name before creating a key', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, { apiKeys: [] }));
    renderPanel();

    await userEvent.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));

    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.every(([, init]) => init?.method === 'GET')).toBe(true);
  });

  it('shows the secret once: disabled while creating, copyable, gone after closing', async () => {
    let keys: ApiKeyBody[] = [];
    let release: (response: Response) => void = () => {};
    const fetchMock = stubFetch((url, init) => {
      if (url === '/api/api-keys' && init?.method === 'POST') {
        return new Promise<Response>((resolve) => (release = resolve));
      }
      return jsonResponse(200, { apiKeys: keys });
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPanel();

    await userEvent.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Onboarding course');
    expect(within(dialog).getByText(/reads nothing, so it is safe inside a published course/)).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));

    expect(await within(dialog).findByRole('button', { name: 'Creating…' })).toBeDisabled();
    const postCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const body = JSON.parse(postCall?.[1]?.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Onboarding course', scope: 'ingest' });
    expect(typeof body.expires_at).toBe('string');

    keys = [ingestKey];
    release(
      jsonResponse(201, {
        id: ingestKey.id,
        name: 'Onboarding course',
        prefix: ingestKey.prefix,
        expires_at: ingestKey.expires_at,
        scope: 'ingest',
        key: SECRET,
      }),
    );

    const secretDialog = await screen.findByRole('dialog', { name: 'Copy your API key' });
    expect(within(secretDialog).getByDisplayValue(SECRET)).toBeInTheDocument();
    await userEvent.click(within(secretDialog).getByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);

    await userEvent.click(within(secretDialog).getByRole('button', { name: 'I have stored it' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('cl_ing_ab12…')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET);

    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    expect(screen.getByRole('dialog', { name: 'Create an API key' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('revokes a key only after confirmation', async () => {
    let keys: ApiKeyBody[] = [ingestKey];
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'POST') {
        keys = [{ ...ingestKey, revoked_at: '2026-03-01T00:00:00.000Z' }];
        return jsonResponse(200, keys[0]);
      }
      return jsonResponse(200, { apiKeys: keys });
    });
    renderPanel();

    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Onboarding course' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this API key?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Onboarding course' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Revoke this API key?' })).getByRole('button', {
        name: 'Revoke key',
      }),
    );

    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        `/api/api-keys/${ingestKey.id}/revoke`,
        expect.objectContaining({ method: 'POST' }),
      ),
    );
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('tells a team member that only owners manage keys, and fetches none', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, { apiKeys: [ingestKey] }));
    renderPanel('team_member');

    expect(screen.getByText('Only owners can manage API keys')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create API key' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription(/Only owners can manage API keys/);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
