import { BILLING_MESSAGES } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
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

import { freeOverview, meAs, meterOf, teamOverview } from './billing-fixtures';
import { SubscribePage } from './subscribe-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

function renderPage(role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, meAs(role));
  return renderWithQueryClient(
    <MemoryRouter initialEntries={['/subscribe']}>
      <Routes>
        <Route path="/subscribe" element={<SubscribePage />} />
        <Route path="/billing" element={<h1>Billing page</h1>} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

const planCard = (id: string) => screen.getByTestId(`plan-${id}`);
/** The POSTs a page sent: where, and the JSON it sent. */
const posted = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([input, init]) => ({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));

beforeEach(() => {
  vi.clearAllMocks();
});

describe('SubscribePage', () => {
  it('lists the plans with their caps, the current one marked and not choosable', async () => {
    stubFetch(() => jsonResponse(200, freeOverview()));
    renderPage();

    await screen.findByTestId('plan-team');
    const free = planCard('free');
    expect(within(free).getByText('Current plan', { selector: 'span' })).toBeInTheDocument();
    expect(within(free).getByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(within(planCard('team')).getByRole('button', { name: 'Choose Team' })).toBeEnabled();
    expect(within(planCard('business')).getByRole('button', { name: 'Choose Business' })).toBeEnabled();
    expect(within(planCard('team')).getByText('2,500')).toBeInTheDocument();
    expect(within(planCard('team')).getByText('25')).toBeInTheDocument();
    expect(within(planCard('team')).getByText('$49')).toBeInTheDocument();
    expect(screen.getByText(/uses the local billing provider/)).toBeInTheDocument();
  });

  it('offers the current plan with the other interval, and keeping a plan set to end', async () => {
    stubFetch(() => jsonResponse(200, teamOverview({ interval: 'month' })));
    const first = renderPage();
    const team = await screen.findByTestId('plan-team');
    expect(within(team).getByRole('button', { name: 'Current plan' })).toBeDisabled();
    await userEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(within(planCard('team')).getByRole('button', { name: 'Switch to yearly billing' })).toBeEnabled();
    first.unmount();

    stubFetch(() => jsonResponse(200, teamOverview({ interval: 'month', cancelAtPeriodEnd: true })));
    renderPage();
    const ending = await screen.findByTestId('plan-team');
    expect(within(ending).getByRole('button', { name: 'Keep Team' })).toBeEnabled();
  });

  it('switches to yearly prices: ten months for twelve, two months free', async () => {
    stubFetch(() => jsonResponse(200, freeOverview()));
    renderPage();

    const monthly = await screen.findByRole('radio', { name: 'Monthly' });
    const yearly = screen.getByRole('radio', { name: /Yearly/ });
    expect(monthly).toBeChecked();
    expect(within(planCard('team')).getByText('/ month')).toBeInTheDocument();

    await userEvent.click(yearly);

    expect(yearly).toBeChecked();
    expect(within(planCard('team')).getByText('$490')).toBeInTheDocument();
    expect(within(planCard('team')).getByText('/ year')).toBeInTheDocument();
    expect(within(planCard('team')).getByText('2 months free')).toBeInTheDocument();
    expect(within(planCard('business')).getByText('$1,990')).toBeInTheDocument();
    // Free stays free: no saving to announce.
    expect(within(planCard('free')).queryByText('2 months free')).not.toBeInTheDocument();
  });

  it('changes the plan at once with the local provider and goes back to Billing', async () => {
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(200, { kind: 'changed', overview: teamOverview({ interval: 'year' }) })
        : jsonResponse(200, freeOverview()),
    );
    renderPage();

    await userEvent.click(await screen.findByRole('radio', { name: /Yearly/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Choose Team' }));

    expect(await screen.findByRole('heading', { name: 'Billing page' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Your organization is now on the Team plan.');
    expect(posted(fetchMock)).toEqual([
      { url: '/api/billing/checkout', body: { plan: 'team', interval: 'year' } },
    ]);
  });

  it('goes to Stripe Checkout when the server answers with a page to pay on', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    stubFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(200, { kind: 'redirect', url: 'https://checkout.stripe.com/c/pay/cs_test_1' })
        : jsonResponse(200, freeOverview({ provider: 'stripe' })),
    );
    renderPage();

    await userEvent.click(await screen.findByRole('button', { name: 'Choose Business' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(within(planCard('business')).getByRole('button', { name: 'Choose Business' })).toBeDisabled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('shows a refused downgrade on the plan, in the server’s words', async () => {
    const refusal = BILLING_MESSAGES.downgradeRefused('Team', [{ metric: 'courses', over: 5, cap: 25 }]);
    stubFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(409, { error: refusal, code: 'CONFLICT' })
        : jsonResponse(
            200,
            teamOverview({
              plan: { id: 'business', name: 'Business' },
              meters: [
                meterOf({ metric: 'learners', used: 10, cap: 25_000 }),
                meterOf({ metric: 'courses', used: 30, cap: 250 }),
                meterOf({ metric: 'chatbots', used: 0, cap: 25 }),
              ],
            }),
          ),
    );
    renderPage();

    const team = await screen.findByTestId('plan-team');
    expect(team).toHaveTextContent('Your organization has 30 courses; this plan allows 25.');
    await userEvent.click(within(team).getByRole('button', { name: 'Choose Team' }));

    const alert = await within(team).findByRole('alert');
    expect(alert).toHaveTextContent(refusal);
    expect(within(team).getByRole('button', { name: 'Choose Team' })).toHaveAccessibleDescription(refusal);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('asks before moving to Free, then checks out the Free plan', async () => {
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(200, { kind: 'changed', overview: freeOverview() })
        : jsonResponse(200, teamOverview()),
    );
    renderPage();

    await userEvent.click(await screen.findByRole('button', { name: 'Move to Free' }));
    const dialog = screen.getByRole('dialog', { name: 'End the Team plan?' });
    expect(posted(fetchMock)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move to Free' }));

    expect(await screen.findByRole('heading', { name: 'Billing page' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Your organization is now on the Free plan.');
    expect(posted(fetchMock)).toEqual([
      { url: '/api/billing/checkout', body: { plan: 'free', interval: 'month' } },
    ]);
  });

  it('tells a team member that only owners choose plans, and asks the server nothing', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, { error: 'unexpected' }));
    renderPage('team_member');

    expect(await screen.findByText('Only owners can manage billing')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Choose/ })).not.toBeInTheDocument();
    expect(fetchedRequests(fetchMock)).toEqual([]);
  });
});
