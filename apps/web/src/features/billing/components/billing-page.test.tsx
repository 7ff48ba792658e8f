import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { freeOverview, meAs, teamOverview } from './billing-fixtures';
import { BillingPage, CHECKOUT_RETURN_MESSAGES } from './billing-page';
import { LOCAL_PROVIDER_SENTENCE } from './billing-states';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderPage({
  role = 'owner',
  entry = '/billing',
}: { role?: 'owner' | 'team_member'; entry?: string } = {}) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, meAs(role));
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/billing" element={<BillingPage />} />
        <Route path="/subscribe" element={<p>Subscribe page</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
    { queryClient },
  );
}

const pathOf = (url: string) => new URL(url, 'http://x').pathname;

beforeEach(() => {
  vi.clearAllMocks();
});

describe('BillingPage', () => {
  it('shows an owner the plan, the local provider in plain words, the meters and no invoices', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'local', invoices: [] })
        : jsonResponse(200, freeOverview()),
    );
    renderPage();

    expect(await screen.findByTestId('current-plan-name')).toHaveTextContent('Free');
    expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByText(LOCAL_PROVIDER_SENTENCE)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Learners' })).toHaveAttribute(
      'aria-valuetext',
      '12 of 100 learners used (12 %)',
    );
    expect(screen.getByRole('progressbar', { name: 'Courses' })).toHaveAttribute(
      'aria-valuetext',
      '3 of 3 courses used (100 %)',
    );
    expect(screen.getByRole('progressbar', { name: 'Custom AI agents' })).toBeInTheDocument();
    expect(screen.getByText('Limit reached')).toBeInTheDocument();
    expect(screen.getByText('12 added in the last 30 days.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change plan' })).toHaveAttribute('href', '/subscribe');
    // Free has nothing to cancel; the local provider has no card to show.
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('payment-method')).not.toBeInTheDocument();
    expect(await screen.findByText('No invoices: the local provider does not charge.')).toBeInTheDocument();
  });

  it('lists the notices newest first', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'local', invoices: [] })
        : jsonResponse(
            200,
            freeOverview({
              notices: [
                {
                  id: 'n1',
                  metric: 'learners',
                  threshold: 80,
                  message: 'You have used 80 % of your plan’s learners: 80 learners of 100.',
                  createdAt: '2026-03-01T09:00:00.000Z',
                },
                {
                  id: 'n2',
                  metric: 'learners',
                  threshold: 90,
                  message: 'You have used 90 % of your plan’s learners: 90 learners of 100.',
                  createdAt: '2026-03-05T09:00:00.000Z',
                },
              ],
            }),
          ),
    );
    renderPage();

    const list = await screen.findByRole('list', { name: 'Notices, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('90 %');
    expect(items[1]).toHaveTextContent('80 %');
  });

  it('tells a team member that only owners see billing, and asks the server nothing', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, { error: 'unexpected' }));
    renderPage({ role: 'team_member' });

    expect(await screen.findByText('Only owners can manage billing')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change plan' })).not.toBeInTheDocument();
    expect(fetchedRequests(fetchMock)).toEqual([]);
  });

  it('shows the server’s refusal as the owner-only state', async () => {
    stubFetch(() => jsonResponse(403, { error: 'Only owners can manage billing', code: 'FORBIDDEN' }));
    renderPage();

    expect(await screen.findByTestId('billing-owner-only')).toHaveTextContent(
      'Only owners can manage billing',
    );
  });

  it('says when billing could not be loaded, and tries again', async () => {
    let isDown = true;
    stubFetch((url) => {
      if (isDown) return jsonResponse(400, { error: 'Billing is unavailable', code: 'BAD_REQUEST' });
      return pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'local', invoices: [] })
        : jsonResponse(200, freeOverview());
    });
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Billing could not be loaded.');
    expect(alert).toHaveTextContent('Billing is unavailable');
    isDown = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('current-plan-name')).toHaveTextContent('Free');
  });

  it('says a Stripe checkout was paid for, and takes the flag out of the address', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'stripe', invoices: [] })
        : jsonResponse(200, freeOverview({ provider: 'stripe' })),
    );
    renderPage({ entry: '/billing?checkout=success' });

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/billing$/));
    expect(toast.success).toHaveBeenCalledWith(CHECKOUT_RETURN_MESSAGES.success, expect.anything());
    expect(screen.getByTestId('checkout-return')).toHaveTextContent(CHECKOUT_RETURN_MESSAGES.success);
  });

  it('asks again until Stripe confirms the new plan, then says so and stops waiting', async () => {
    let confirmed = false;
    const fetchMock = stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'stripe', invoices: [] })
        : jsonResponse(200, confirmed ? teamOverview() : freeOverview({ provider: 'stripe' })),
    );
    renderPage({ entry: '/billing?checkout=success' });
    expect(await screen.findByTestId('current-plan-name')).toHaveTextContent('Free');
    confirmed = true;
    await waitFor(() => expect(screen.getByTestId('current-plan-name')).toHaveTextContent('Team'), {
      timeout: 8000,
    });
    expect(toast.success).toHaveBeenCalledWith(
      'Your organization is now on the Team plan.',
      expect.anything(),
    );
    expect(screen.queryByTestId('checkout-return')).not.toBeInTheDocument();
    const asked = fetchedRequests(fetchMock).filter(
      (request) => pathOf(request.url) === '/api/billing',
    ).length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(
      fetchedRequests(fetchMock).filter((request) => pathOf(request.url) === '/api/billing'),
    ).toHaveLength(asked);
  }, 15_000);

  it('says a canceled checkout changed nothing', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'stripe', invoices: [] })
        : jsonResponse(200, freeOverview({ provider: 'stripe' })),
    );
    renderPage({ entry: '/billing?checkout=canceled' });

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/billing$/));
    expect(toast.info).toHaveBeenCalledWith('Checkout canceled: nothing changed.', expect.anything());
    expect(screen.queryByTestId('checkout-return')).not.toBeInTheDocument();
  });

  it('shows a Stripe subscription: interval, renewal, card, invoices with their PDF', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, {
            provider: 'stripe',
            invoices: [
              {
                id: 'in_1',
                number: 'CL-0001',
                createdAt: '2026-03-01T10:00:00.000Z',
                amountDue: 4900,
                currency: 'usd',
                status: 'paid',
                pdfUrl: 'https://pay.stripe.com/invoice/in_1/pdf',
                hostedUrl: 'https://invoice.stripe.com/i/in_1',
              },
            ],
          })
        : jsonResponse(
            200,
            teamOverview({
              provider: 'stripe',
              renewsAt: '2027-03-14T10:00:00.000Z',
              paymentMethod: { brand: 'visa', last4: '4242', expMonth: 4, expYear: 2030 },
            }),
          ),
    );
    renderPage();

    const plan = await screen.findByTestId('current-plan');
    expect(within(plan).getByText('Monthly')).toBeInTheDocument();
    expect(within(plan).getByText('Renews on')).toBeInTheDocument();
    expect(within(plan).getAllByText('14 March 2027').length).toBeGreaterThan(0);
    expect(screen.queryByText(LOCAL_PROVIDER_SENTENCE)).not.toBeInTheDocument();
    const card = screen.getByTestId('payment-method');
    expect(card).toHaveTextContent('visa');
    expect(card).toHaveTextContent('4242');
    expect(card).toHaveTextContent('Expires 04/2030');
    expect(within(card).getByRole('button', { name: 'Manage in Stripe' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(table).getByText('$49.00')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Download invoice CL-0001 (PDF)' })).toHaveAttribute(
      'href',
      'https://pay.stripe.com/invoice/in_1/pdf',
    );
  });

  it('cancels the subscription after asking, and says what happens', async () => {
    let overview = teamOverview();
    const fetchMock = stubFetch((url, init) => {
      if (pathOf(url) === '/api/billing/invoices')
        return jsonResponse(200, { provider: 'local', invoices: [] });
      if (pathOf(url) === '/api/billing/cancel' && init?.method === 'POST') {
        overview = freeOverview();
        return jsonResponse(200, overview);
      }
      return jsonResponse(200, overview);
    });
    renderPage();

    await userEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'End the Team plan?' });
    expect(dialog).toHaveTextContent('Your organization moves to the Free plan at once');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Your organization is now on the Free plan.'),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByTestId('current-plan-name')).toHaveTextContent('Free');
    expect(
      fetchedRequests(fetchMock)
        .filter((request) => request.method === 'POST')
        .map(({ url }) => url),
    ).toEqual(['/api/billing/cancel']);
  });

  it('shows the learner grace period and a failed payment', async () => {
    stubFetch((url) =>
      pathOf(url) === '/api/billing/invoices'
        ? jsonResponse(200, { provider: 'stripe', invoices: [] })
        : jsonResponse(
            200,
            teamOverview({
              provider: 'stripe',
              status: 'past_due',
              paymentGraceEndsAt: '2027-03-21T10:00:00.000Z',
              learnerGrace: {
                startedAt: '2027-03-01T10:00:00.000Z',
                endsAt: '2027-03-15T10:00:00.000Z',
                ended: false,
              },
            }),
          ),
    );
    renderPage();

    expect(await screen.findByTestId('learner-grace')).toHaveTextContent(
      'New learners are still stored until 15 March 2027',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The last payment failed');
    expect(screen.getByRole('alert')).toHaveTextContent('21 March 2027');
  });
});
