import type { LrsActivityResponse } from '@courselens/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { LrsActivity } from './lrs-activity';

const quiet: LrsActivityResponse = {
  unmapped: 0,
  lastStoredAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
  recentUnmapped: [],
};

function region() {
  return screen.getByRole('region', { name: 'Statements received' });
}

describe('LrsActivity', () => {
  it('says when no statement has arrived yet', async () => {
    stubFetch(() => jsonResponse(200, { unmapped: 0, lastStoredAt: null, recentUnmapped: [] }));
    renderWithQueryClient(<LrsActivity organizationId="o1" />);
    expect(await within(region()).findByText('No statement yet')).toBeInTheDocument();
  });

  it('says when the last statement came and that all became data', async () => {
    stubFetch((url) => (url === '/api/lrs/activity' ? jsonResponse(200, quiet) : jsonResponse(404, {})));
    renderWithQueryClient(<LrsActivity organizationId="o1" />);
    expect(await within(region()).findByText('Last statement 3 hours ago.')).toBeInTheDocument();
    expect(
      within(region()).getByText('Every statement of the last 30 days became course data.'),
    ).toBeInTheDocument();
  });

  it('lists the latest statements that made no data, with why', async () => {
    stubFetch(() =>
      jsonResponse(200, {
        ...quiet,
        unmapped: 42,
        recentUnmapped: [
          {
            id: '9a1b2c3d-0000-4000-8000-000000000001',
            stored: '2026-11-24T10:00:00.000Z',
            verb: 'http://adlnet.gov/expapi/verbs/experienced',
            object: 'https://courses.example.com/fire-safety/slide-1',
            actor: 'mbox_sha1sum:aaaa',
            reason:
              'the actor has only an mbox_sha1sum, which hides the e-mail address, so it is not a learner',
          },
        ],
      }),
    );
    renderWithQueryClient(<LrsActivity organizationId="o1" />);
    const list = await within(region()).findByRole('list', { name: /42 statements of the last 30 days/ });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('experienced');
    expect(item).toHaveTextContent('https://courses.example.com/fire-safety/slide-1');
    expect(item).toHaveTextContent('Why: the actor has only an mbox_sha1sum');
  });

  it('offers to try again when loading fails', async () => {
    let calls = 0;
    stubFetch(() => {
      calls += 1;
      return calls === 1 ? jsonResponse(500, { error: 'Internal server error' }) : jsonResponse(200, quiet);
    });
    renderWithQueryClient(<LrsActivity organizationId="o1" />);
    const alert = await within(region()).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load what the LRS received.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(
      await within(region()).findByText('Every statement of the last 30 days became course data.'),
    ).toBeInTheDocument();
  });
});
