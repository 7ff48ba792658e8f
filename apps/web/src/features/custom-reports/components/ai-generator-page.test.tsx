import type { GenerateReportResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { AiGeneratorPage } from './ai-generator-page';
import type { BuilderLocationState } from './report-builder-page';
import { catalog, ONBOARDING, PASSED, SAFETY } from './report-fixtures';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const PROMPT = 'Pass rate of passed safety check by department in safety, and revenue';

const asked: GenerateReportResponse = {
  engine: 'builtin',
  draft: {
    name: 'Pass rate by department',
    description: null,
    reportType: 'table',
    config: { periodDays: null, limit: null },
    items: [],
  },
  understood: ['Measure: pass rate', 'Breakdown: department'],
  notFound: ['revenue'],
  ambiguities: [
    {
      phrase: 'safety',
      message: '“safety” matches 2 courses. Which one did you mean?',
      options: [
        { kind: 'course', id: SAFETY, label: 'Workplace Safety' },
        { kind: 'course', id: ONBOARDING, label: 'New Hire Onboarding' },
      ],
    },
  ],
};

const answered: GenerateReportResponse = {
  ...asked,
  ambiguities: [],
  understood: [...asked.understood, 'Course: Workplace Safety'],
  draft: {
    ...asked.draft,
    items: [
      {
        displayName: null,
        chart: 'auto',
        query: {
          subject: { kind: 'variable', variableIds: [PASSED] },
          measure: { fn: 'pass_rate', mark: null },
          breakdown: { kind: 'variable', variableName: 'department' },
          filters: { courseIds: [SAFETY], period: null, values: [], activity: [] },
          sort: null,
          limit: null,
        },
      },
    ],
  },
};

function BuilderStub() {
  const state = useLocation().state as BuilderLocationState;
  return <p>Builder with {state?.draft?.items.length ?? 0} items</p>;
}

describe('AiGeneratorPage', () => {
  it('asks back when a phrase names two courses, and re-sends the request with the choice', async () => {
    const user = userEvent.setup();
    const requests: unknown[] = [];
    stubFetch((url, init) => {
      if (url === '/api/custom-reports/catalog') return jsonResponse(200, catalog);
      if (url === '/api/custom-reports/generate') {
        const body = JSON.parse(init?.body as string) as { choices: unknown[] };
        requests.push(body);
        return jsonResponse(200, body.choices.length === 0 ? asked : answered);
      }
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, me);
    renderWithQueryClient(
      <MemoryRouter initialEntries={['/custom-reports/ai-generator']}>
        <Routes>
          <Route path="/custom-reports/ai-generator" element={<AiGeneratorPage />} />
          <Route path="/custom-reports/create" element={<BuilderStub />} />
        </Routes>
      </MemoryRouter>,
      { queryClient },
    );

    await user.type(screen.getByRole('textbox', { name: 'What should the report show?' }), PROMPT);
    await user.click(screen.getByRole('button', { name: 'Generate draft' }));
    const question = await screen.findByRole('group', {
      name: '“safety” matches 2 courses. Which one did you mean?',
    });
    expect(screen.getByTestId('not-found')).toHaveTextContent('revenue');
    expect(screen.getByTestId('understood')).toHaveTextContent('Breakdown: department');
    expect(screen.getByText('No variable or question of yours matched yet.')).toBeInTheDocument();

    await user.click(within(question).getByRole('button', { name: 'Course: Workplace Safety' }));
    await waitFor(() =>
      expect(requests).toEqual([
        { prompt: PROMPT, choices: [] },
        { prompt: PROMPT, choices: [{ phrase: 'safety', id: SAFETY }] },
      ]),
    );
    const items = await screen.findByTestId('draft-items');
    expect(items).toHaveTextContent('Pass rate of Passed safety check by department');
    expect(screen.queryByTestId('ambiguities')).not.toBeInTheDocument();
    expect(screen.getByTestId('understood')).toHaveTextContent('Course: Workplace Safety');

    await user.click(screen.getByRole('button', { name: 'Open in builder' }));
    expect(await screen.findByText('Builder with 1 items')).toBeInTheDocument();
  });
});
