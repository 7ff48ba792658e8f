import type { BillingStatus } from '@courselens/contracts';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { billingStatusQueryOptions } from '../api/get-billing-status';
import { BillingBanner } from './billing-banner';
import { meAs } from './billing-fixtures';

function renderBanner(status: BillingStatus, role: 'owner' | 'team_member' = 'owner', path = '/dashboard') {
  stubFetch(() => jsonResponse(200, status));
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, meAs(role));
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <BillingBanner />
      <p>The page</p>
    </MemoryRouter>,
    { queryClient },
  );
}

const plan = { id: 'team', name: 'Team' } as const;

describe('BillingBanner', () => {
  it('says the learner grace period politely, with a link to Billing for owners', async () => {
    renderBanner({
      plan,
      banner: {
        kind: 'learner-grace',
        message: 'Your organization has reached its limit of 2,500 learners.',
      },
    });

    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent('Your organization has reached its limit of 2,500 learners.');
    expect(screen.getByRole('link', { name: 'Go to Billing' })).toHaveAttribute('href', '/billing');
  });

  it.each(['payment-failed', 'learner-blocked'] as const)('interrupts for %s', async (kind) => {
    renderBanner({ plan, banner: { kind, message: 'Act now.' } });

    expect(await screen.findByRole('alert')).toHaveTextContent('Act now.');
  });

  it('gives a team member the message without the link', async () => {
    renderBanner(
      { plan, banner: { kind: 'learner-blocked', message: 'Events of new learners are refused.' } },
      'team_member',
    );

    expect(await screen.findByRole('alert')).toHaveTextContent('Events of new learners are refused.');
    expect(screen.queryByRole('link', { name: 'Go to Billing' })).not.toBeInTheDocument();
  });

  it('leaves out the link on the Billing page itself', async () => {
    renderBanner(
      { plan, banner: { kind: 'payment-failed', message: 'The last payment failed.' } },
      'owner',
      '/billing',
    );

    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to Billing' })).not.toBeInTheDocument();
  });

  it('shows nothing when billing needs no attention', async () => {
    const { queryClient } = renderBanner({ plan, banner: null });

    // Once the status has arrived (and rendered), nothing was added to the page.
    const key = billingStatusQueryOptions('o1').queryKey;
    await waitFor(() => expect(queryClient.getQueryState(key)?.status).toBe('success'));
    expect(screen.getByText('The page')).toBeInTheDocument();
    expect(screen.queryByTestId('billing-banner')).not.toBeInTheDocument();
  });
});
