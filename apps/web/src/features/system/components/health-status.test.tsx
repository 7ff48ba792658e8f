import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { HealthStatus } from './health-status';

function statusRegion() {
  return screen.getByRole('region', { name: 'System status' });
}

describe('HealthStatus', () => {
  it('shows the database engine and version when the API is healthy', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { status: 'ok', database: 'pglite', version: '0.1.0' }),
    );

    renderWithQueryClient(<HealthStatus />);

    expect(within(statusRegion()).getByText('Checking the API and database…')).toBeInTheDocument();
    expect(await within(statusRegion()).findByText('Operational')).toBeInTheDocument();
    expect(within(statusRegion()).getByText('PGlite')).toBeInTheDocument();
    expect(within(statusRegion()).getByText('v0.1.0')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/health', expect.objectContaining({ method: 'GET' }));
  });

  it('names PostgreSQL when the server runs on a PostgreSQL server', async () => {
    stubFetch(() => jsonResponse(200, { status: 'ok', database: 'postgres', version: '1.2.3' }));

    renderWithQueryClient(<HealthStatus />);

    expect(await within(statusRegion()).findByText('PostgreSQL')).toBeInTheDocument();
    expect(within(statusRegion()).queryByText('PGlite')).not.toBeInTheDocument();
  });

  it('shows an error and no engine when the health check answers 503', async () => {
    stubFetch(() => jsonResponse(503, { status: 'error' }));

    renderWithQueryClient(<HealthStatus />);

    expect(await within(statusRegion()).findByText('Unavailable')).toBeInTheDocument();
    expect(within(statusRegion()).getByText(/database is not answering/)).toBeInTheDocument();
    expect(within(statusRegion()).queryByText('Operational')).not.toBeInTheDocument();
    expect(within(statusRegion()).queryByText('PGlite')).not.toBeInTheDocument();
  });

  it('does not claim the system is up on an answer it does not understand', async () => {
    stubFetch(() => jsonResponse(200, { status: 'ok' }));

    renderWithQueryClient(<HealthStatus />);

    expect(await within(statusRegion()).findByText('Unavailable')).toBeInTheDocument();
    expect(within(statusRegion()).getByText(/unexpected format/)).toBeInTheDocument();
  });

  it('checks again when the visitor asks and shows the recovery', async () => {
    let isDatabaseUp = false;
    const fetchMock = stubFetch(() =>
      isDatabaseUp
        ? jsonResponse(200, { status: 'ok', database: 'postgres', version: '0.1.0' })
        : jsonResponse(503, { status: 'error' }),
    );
    renderWithQueryClient(<HealthStatus />);
    const retryButton = await within(statusRegion()).findByRole('button', { name: 'Try again' });

    isDatabaseUp = true;
    await userEvent.click(retryButton);

    expect(await within(statusRegion()).findByText('Operational')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
