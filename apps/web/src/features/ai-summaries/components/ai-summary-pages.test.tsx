import {
  AI_SUMMARY_COUNT_DEFINITIONS,
  AI_SUMMARY_MESSAGES,
  type VariableAiSummary,
} from '@courselens/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CourseVariableAiSummaryPage, VariableAiSummaryPage } from './ai-summary-pages';
import { parseNarrative } from './summary-narrative';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const COURSE_ID = '33333333-3333-4333-8333-333333333333';
const VARIABLE_ID = '11111111-1111-4111-8111-111111111111';

function summary(overrides: Partial<VariableAiSummary> = {}): VariableAiSummary {
  return {
    content: 'Final score in Safety: 6 learners have a value.\n\n- Highest: Cyd (90)\n- Lowest: Eve (10)',
    engine: 'builtin',
    model: null,
    generatedAt: '2026-01-25T12:00:00.000Z',
    notice: null,
    hasNewerData: false,
    statistics: {
      subject: {
        variableType: 'course',
        variableId: VARIABLE_ID,
        variableName: 'final_score',
        variableTitle: 'Final score',
        description: null,
        dataType: 'number',
        courseId: COURSE_ID,
        courseTitle: 'Workplace safety',
      },
      learners: 6,
      values: 7,
      recordedValues: 9,
      definitions: AI_SUMMARY_COUNT_DEFINITIONS,
      distinctValues: 6,
      firstRecordedAt: '2026-01-06T10:00:00.000Z',
      lastRecordedAt: '2026-01-21T10:00:00.000Z',
      numeric: {
        mean: 68.333,
        median: 77.5,
        standardDeviation: 26.87,
        min: 10,
        max: 90,
        q1: 71.25,
        q3: 83.75,
      },
      distribution: { kind: 'histogram', bins: [{ from: 10, to: 90, label: '10–90', count: 6 }] },
      trend: { metric: 'mean', weeks: [], direction: 'up', from: 60, to: 68.333 },
      outliers: { lowerFence: 52.5, upperFence: 102.5, count: 1, learners: [{ name: 'Eve', value: '10' }] },
      topLearners: [{ name: 'Cyd', value: '90' }],
      bottomLearners: [{ name: 'Eve', value: '10' }],
      otherCourses: [{ courseId: 'c2', courseTitle: 'Sales basics', learners: 2, mean: 60 }],
      computedAt: '2026-01-25T12:00:00.000Z',
    },
    ...overrides,
  };
}

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/course/:courseId/variable/:variableName/ai-summary"
          element={<CourseVariableAiSummaryPage />}
        />
        <Route path="/variable/:variableId/:variableType/ai-summary" element={<VariableAiSummaryPage />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('parseNarrative', () => {
  it('splits paragraphs and "- " bullet lists, keeping line breaks inside a paragraph', () => {
    expect(parseNarrative('One\ntwo\n\n- a\n- b\n\nIntro:\n- c')).toEqual([
      { kind: 'paragraph', lines: ['One', 'two'] },
      { kind: 'list', items: ['a', 'b'] },
      { kind: 'paragraph', lines: ['Intro:'] },
      { kind: 'list', items: ['c'] },
    ]);
  });
});

describe('the AI summary page', () => {
  it('shows the narrative, the engine and the key figures, with links to the reports', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, summary()));
    renderAt(`/course/${COURSE_ID}/variable/final_score/ai-summary`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Final score' })).toBeInTheDocument();
    expect(screen.getByText('Final score in Safety: 6 learners have a value.')).toBeInTheDocument();
    expect(screen.getByText('Highest: Cyd (90)')).toBeInTheDocument();
    expect(screen.getByText('Written by the built-in engine')).toBeInTheDocument();
    expect(screen.getByText('77.5')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Chart' })).toHaveAttribute(
      'href',
      `/course/${COURSE_ID}/variable/final_score/chart`,
    );
    expect(screen.getByRole('link', { name: 'Sales basics' })).toHaveAttribute(
      'href',
      '/course/c2/variable/final_score/ai-summary',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`/api/ai-summaries/courses/${COURSE_ID}/variables/final_score`);
  });

  it('names the model of the LLM engine, and regenerates with a pending state', async () => {
    let resolveRegenerate: (response: Response) => void = () => undefined;
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'POST'
        ? new Promise<Response>((resolve) => {
            resolveRegenerate = resolve;
          })
        : jsonResponse(200, summary({ engine: 'llm', model: 'llama3', hasNewerData: true })),
    );
    renderAt(`/variable/${VARIABLE_ID}/course/ai-summary`);

    expect(await screen.findByText('Written by llama3')).toBeInTheDocument();
    expect(screen.getByText(/New values arrived since this summary was written/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    const pending = await screen.findByRole('button', { name: 'Regenerating…' });
    expect(pending).toBeDisabled();
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(`/api/ai-summaries/variables/${VARIABLE_ID}`);

    resolveRegenerate(
      jsonResponse(200, summary({ content: 'Fresh text.', generatedAt: new Date().toISOString() })),
    );
    expect(await screen.findByText('Fresh text.')).toBeInTheDocument();
    expect(screen.getByText('Written by the built-in engine')).toBeInTheDocument();
    expect(screen.queryByText(/New values arrived/)).not.toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Summary regenerated');
  });

  it('shows the fallback notice when the model failed', async () => {
    stubFetch(() => jsonResponse(200, summary({ notice: AI_SUMMARY_MESSAGES.llmFailedFellBack })));
    renderAt(`/course/${COURSE_ID}/variable/final_score/ai-summary`);
    expect(await screen.findByText(AI_SUMMARY_MESSAGES.llmFailedFellBack)).toBeInTheDocument();
  });

  it('says a missing variable is not found, and shows the server’s message for agent variables', async () => {
    stubFetch((url) =>
      url.includes('chatbot-variable')
        ? jsonResponse(404, { error: 'No agent captures this variable', code: 'NOT_FOUND' })
        : jsonResponse(404, { error: 'Variable not found', code: 'NOT_FOUND' }),
    );
    const { unmount } = renderAt(`/course/${COURSE_ID}/variable/nope/ai-summary`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Variable not found' })).toBeInTheDocument();
    unmount();

    renderAt(`/variable/${VARIABLE_ID}/chatbot/ai-summary`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agent variable not found' }),
    ).toBeInTheDocument();
    expect(screen.getByText('No agent captures this variable')).toBeInTheDocument();
  });

  it('refuses an unknown variable type without calling the server', () => {
    const fetchMock = stubFetch(() => jsonResponse(200, summary()));
    renderAt(`/variable/${VARIABLE_ID}/other/ai-summary`);
    expect(screen.getByText(AI_SUMMARY_MESSAGES.unknownVariableType)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows an error with a retry when the server fails', async () => {
    let calls = 0;
    stubFetch(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(500, { error: 'Database unavailable', code: 'INTERNAL_ERROR' })
        : jsonResponse(200, summary());
    });
    renderAt(`/course/${COURSE_ID}/variable/final_score/ai-summary`);
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Final score' })).toBeInTheDocument(),
    );
  });
});
