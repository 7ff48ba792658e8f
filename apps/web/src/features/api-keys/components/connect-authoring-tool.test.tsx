import type { ApiKeyBody } from '@courselens/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { ApiKeysPanel } from './api-keys-panel';
import { ConnectAuthoringTool, launchLinkTemplate, xapiEndpoint } from './connect-authoring-tool';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const activeKey: ApiKeyBody = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Storyline player',
  prefix: 'cl_ing_ab12',
  scope: 'ingest',
  expires_at: '2099-01-31T00:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
  created_at: '2026-01-02T00:00:00.000Z',
};
const neverExpiringKey: ApiKeyBody = {
  ...activeKey,
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Rise courses',
  prefix: 'cl_ing_ef56',
  expires_at: null,
};
const revokedKey: ApiKeyBody = {
  ...activeKey,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Old script',
  prefix: 'cl_old_cd34',
  revoked_at: '2026-02-01T00:00:00.000Z',
};
const expiredKey: ApiKeyBody = {
  ...activeKey,
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Pilot',
  prefix: 'cl_pil_gh78',
  expires_at: '2020-01-01T00:00:00.000Z',
};

const SECRET = 'cl_ing_ab12_s3cr3t-s3cr3t-s3cr3t-s3cr3t';

function stubClipboard() {
  const writeText = vi.fn((_text: string) => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  vi.clearAllMocks();
});

describe('launchLinkTemplate', () => {
  it('URL-encodes the endpoint and the actor and leaves the authorization as a placeholder', () => {
    expect(launchLinkTemplate('https://app.example.com/xapi/')).toBe(
      'index_lms.html?endpoint=https%3A%2F%2Fapp.example.com%2Fxapi%2F' +
        '&auth=Basic%20<base64 of LRS key:LRS secret>' +
        '&actor=%7B%22objectType%22%3A%22Agent%22%2C%22name%22%3A%5B%22Learner%20name%22%5D%2C' +
        '%22mbox%22%3A%5B%22mailto%3Alearner%40example.com%22%5D%7D',
    );
  });
});

describe('ConnectAuthoringTool', () => {
  it('offers only active keys and shows the endpoint and the selected key’s id', async () => {
    render(
      <ConnectAuthoringTool
        apiKeys={[revokedKey, activeKey, expiredKey, neverExpiringKey]}
        onCreateKey={vi.fn()}
      />,
    );

    const card = screen.getByRole('region', { name: 'Connect an authoring tool' });
    expect(within(card).getByText(/no tracker code needed/)).toBeInTheDocument();
    const select = within(card).getByLabelText('API key');
    expect(
      within(select)
        .getAllByRole<HTMLOptionElement>('option')
        .map((option) => option.label),
    ).toEqual(['Storyline player (cl_ing_ab12…)', 'Rise courses (cl_ing_ef56…)']);

    const endpoint = `${window.location.origin}/xapi/`;
    expect(xapiEndpoint(window.location.origin)).toBe(endpoint);
    expect(within(card).getByRole('textbox', { name: 'LRS endpoint' })).toHaveTextContent(endpoint);
    expect(within(card).getByRole('textbox', { name: 'LRS key' })).toHaveTextContent(activeKey.id);
    const secret = within(card).getByRole('textbox', { name: 'LRS secret' });
    expect(secret).toHaveValue('');
    expect(secret).toHaveAccessibleDescription(/the API key itself .* shown once when you created it/i);

    const configuration = within(card).getByLabelText('Connection settings');
    expect(configuration.tagName).toBe('PRE');
    expect(configuration).toHaveTextContent(`LRS endpoint: ${endpoint}`);
    expect(configuration).toHaveTextContent(`LRS key: ${activeKey.id}`);
    expect(configuration).toHaveTextContent(launchLinkTemplate(endpoint));

    await userEvent.selectOptions(select, neverExpiringKey.id);
    expect(within(card).getByRole('textbox', { name: 'LRS key' })).toHaveTextContent(neverExpiringKey.id);
    expect(configuration).toHaveTextContent(`LRS key: ${neverExpiringKey.id}`);
    expect(configuration).toHaveTextContent('cl_ing_ef56…');
  });

  it('copies the endpoint, the key and the connection settings to the clipboard', async () => {
    const writeText = stubClipboard();
    render(<ConnectAuthoringTool apiKeys={[activeKey]} onCreateKey={vi.fn()} origin="https://lms.example" />);

    await userEvent.click(screen.getByRole('button', { name: 'Copy LRS endpoint' }));
    expect(writeText).toHaveBeenLastCalledWith('https://lms.example/xapi/');
    expect(toast.success).toHaveBeenLastCalledWith('LRS endpoint copied to the clipboard');

    await userEvent.click(screen.getByRole('button', { name: 'Copy LRS key' }));
    expect(writeText).toHaveBeenLastCalledWith(activeKey.id);

    await userEvent.click(screen.getByRole('button', { name: 'Copy connection settings' }));
    expect(writeText).toHaveBeenLastCalledWith(
      expect.stringContaining(launchLinkTemplate('https://lms.example/xapi/')),
    );
  });

  it('says how to copy by hand when the clipboard refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    render(<ConnectAuthoringTool apiKeys={[activeKey]} onCreateKey={vi.fn()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Copy LRS key' }));

    expect(toast.error).toHaveBeenCalledWith('Could not copy the LRS key. Select it and copy it by hand.');
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });

  it('without an active key, says so and offers to create one', async () => {
    const onCreateKey = vi.fn();
    render(<ConnectAuthoringTool apiKeys={[revokedKey, expiredKey]} onCreateKey={onCreateKey} />);

    expect(screen.getByText('No active API key')).toBeInTheDocument();
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'LRS key' })).not.toBeInTheDocument();
    expect(screen.getByText('What CourseLens records')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create an API key' }));
    expect(onCreateKey).toHaveBeenCalledOnce();
  });
});

describe('ApiKeysPanel with the authoring tool card', () => {
  function renderPanel(role: 'owner' | 'team_member') {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, {
      user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
      organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
    });
    return renderWithQueryClient(<ApiKeysPanel />, { queryClient });
  }

  it('an owner without keys creates one from the card and gets its LRS key and secret', async () => {
    let keys: ApiKeyBody[] = [];
    stubFetch((url, init) => {
      if (url === '/api/api-keys' && init?.method === 'POST') {
        keys = [activeKey];
        return jsonResponse(201, {
          id: activeKey.id,
          name: activeKey.name,
          prefix: activeKey.prefix,
          expires_at: activeKey.expires_at,
          scope: 'ingest',
          key: SECRET,
        });
      }
      return jsonResponse(200, { apiKeys: keys });
    });
    const writeText = stubClipboard();
    renderPanel('owner');

    const card = await screen.findByRole('region', { name: 'Connect an authoring tool' });
    await userEvent.click(within(card).getByRole('button', { name: 'Create an API key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await userEvent.type(within(dialog).getByLabelText('Name'), activeKey.name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Copy your API key' });
    expect(within(secretDialog).getByRole('textbox', { name: 'LRS key' })).toHaveTextContent(activeKey.id);
    expect(within(secretDialog).getByRole('textbox', { name: 'LRS secret' })).toHaveTextContent(SECRET);
    expect(within(secretDialog).getByRole('textbox', { name: 'LRS endpoint' })).toHaveTextContent(
      `${window.location.origin}/xapi/`,
    );
    await userEvent.click(within(secretDialog).getByRole('button', { name: 'Copy LRS key' }));
    expect(writeText).toHaveBeenLastCalledWith(activeKey.id);
    await userEvent.click(within(secretDialog).getByRole('button', { name: 'Copy LRS secret' }));
    expect(writeText).toHaveBeenLastCalledWith(SECRET);

    await userEvent.click(within(secretDialog).getByRole('button', { name: 'I have stored it' }));
    expect(await within(card).findByRole('textbox', { name: 'LRS key' })).toHaveTextContent(activeKey.id);
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('a team member does not see the card', () => {
    stubFetch(() => jsonResponse(200, { apiKeys: [activeKey] }));
    renderPanel('team_member');

    expect(screen.queryByRole('region', { name: 'Connect an authoring tool' })).not.toBeInTheDocument();
  });
});
