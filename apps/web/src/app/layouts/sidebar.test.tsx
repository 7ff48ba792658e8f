import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { SessionState } from '@/lib/auth';
import { renderWithQueryClient } from '@/testing/test-utils';

import { SIDEBAR_COLLAPSED_KEY, SMALL_SCREEN_QUERY, Sidebar } from './sidebar';

const visitor: SessionState = {
  status: 'unauthenticated',
  user: null,
  organizations: [],
  currentOrganization: null,
};

/** jsdom has no layout: the small-screen query answers what the test says. */
function stubScreen({ isSmall }: { isSmall: boolean }) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === SMALL_SCREEN_QUERY ? isSmall : false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

function CurrentPath() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderShell(path = '/blog') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <Sidebar session={visitor} />
              <main>
                <CurrentPath />
                <button type="button">Page button</button>
              </main>
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const aside = () => screen.getByRole('complementary', { name: 'Sidebar' });

describe('Sidebar under 768 px', () => {
  beforeEach(() => stubScreen({ isSmall: true }));
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.style.overflow = '';
  });

  it('stays narrow and opens as a drawer over the page, with focus inside and the page locked', async () => {
    renderShell();
    expect(aside()).toHaveAttribute('data-collapsed', 'true');
    expect(screen.queryByTestId('sidebar-backdrop')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));

    expect(aside()).toHaveAttribute('data-drawer', 'open');
    expect(aside()).toHaveClass('w-64');
    expect(screen.getByTestId('sidebar-backdrop')).toBeInTheDocument();
    // Focus moved into the drawer, on its first link.
    expect(aside()).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).toHaveAccessibleName('Home');
    expect(document.body.style.overflow).toBe('hidden');
    // The page beside it is out of reach while covered.
    expect(screen.getByRole('main', { hidden: true })).toHaveProperty('inert', true);
    // Opening on a small screen is not the stored preference.
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBeNull();
  });

  it('Escape closes it and gives focus back to the toggle; the page scrolls again', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    await userEvent.keyboard('{Escape}');
    expect(aside()).toHaveAttribute('data-collapsed', 'true');
    expect(aside()).not.toHaveAttribute('data-drawer');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(document.body.style.overflow).toBe('');
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
  });

  it('a tap outside (on the backdrop) closes it', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    fireEvent.pointerDown(screen.getByTestId('sidebar-backdrop'));
    expect(aside()).toHaveAttribute('data-collapsed', 'true');
    expect(screen.queryByTestId('sidebar-backdrop')).not.toBeInTheDocument();
  });

  it('a navigation closes it, even to the page already shown', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    await userEvent.click(screen.getByRole('link', { name: 'Pricing' }));
    expect(screen.getByTestId('path')).toHaveTextContent('/pricing');
    expect(aside()).toHaveAttribute('data-collapsed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    await userEvent.click(screen.getByRole('link', { name: 'Pricing' }));
    expect(aside()).toHaveAttribute('data-collapsed', 'true');
  });

  it('keeps Tab inside the open drawer', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    const focusable = aside().querySelectorAll<HTMLElement>('a[href], button:not([disabled])');
    focusable[focusable.length - 1]!.focus();
    await userEvent.tab();
    expect(aside()).toContainElement(document.activeElement as HTMLElement);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(focusable[focusable.length - 1]);
  });
});

describe('Sidebar from 768 px', () => {
  beforeEach(() => stubScreen({ isSmall: false }));
  afterEach(() => vi.unstubAllGlobals());

  it('collapses in place, remembers it, and never shows a backdrop', async () => {
    renderShell();
    expect(aside()).toHaveAttribute('data-collapsed', 'false');
    await userEvent.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(aside()).toHaveAttribute('data-collapsed', 'true');
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    expect(screen.queryByTestId('sidebar-backdrop')).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');
  });
});

describe('Sidebar navigation', () => {
  beforeEach(() => stubScreen({ isSmall: false }));
  afterEach(() => vi.unstubAllGlobals());

  const member: SessionState = {
    status: 'authenticated',
    user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
    organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
    currentOrganization: { id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true },
  };

  it.each([
    ['/course/c1/variables', 'Courses'],
    ['/courses/c1/broadcasts', 'Courses'],
    ['/learner/l1/responses', 'Learners'],
  ])('marks the section of %s (%s) as current', (path, label) => {
    renderWithQueryClient(
      <MemoryRouter initialEntries={[path]}>
        <Sidebar session={member} />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual([label]);
  });
});
