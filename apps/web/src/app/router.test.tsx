import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { createTestQueryClient, jsonResponse, stubFetch } from '@/testing/test-utils';

import { createRoutes } from './router';

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('routes', () => {
  it('shows the 404 page for an unknown path, and Go Home leads to the home page', async () => {
    stubFetch(() => jsonResponse(200, { status: 'ok', database: 'pglite', version: '0.1.0' }));
    const router = renderAt('/this/does/not/exist');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText("The page you're looking for doesn't exist or has been moved."),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Go Home' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Turn every course run into insight' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('renders the home page inside the page landmarks, without server internals', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { status: 'ok', database: 'pglite', version: '0.1.0' }),
    );
    renderAt('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Turn every course run into insight' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Start free/ })).toHaveAttribute('href', '/signup');
    // A visitor is told nothing about how the server runs (engine, version, health).
    expect(screen.queryByText(/PGlite|PostgreSQL|System status/)).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => typeof url === 'string' && url.includes('/api/health'))).toBe(
      false,
    );
  });

  it('says plainly on /chat/:id that the assistant is not available yet, with no chat box', async () => {
    stubFetch(() => jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHENTICATED' }));
    renderAt('/chat/agent-1');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This assistant is not available yet' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/not part of CourseLens yet/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByText(/What will appear here/)).not.toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
  });

  it.each([
    ['/login', 'Sign in to CourseLens'],
    ['/signup', 'Create your CourseLens account'],
  ])('serves the identity screen at %s inside the page landmarks', async (path, title) => {
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeInTheDocument();
  });
});
