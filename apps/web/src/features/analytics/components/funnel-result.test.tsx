import type { FunnelComputeResult, FunnelStepResult, QuestionStatistics } from '@courselens/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { testAnalyticsBasis } from '@/testing/analytics-basis';

import { FunnelResult, formatDuration } from './funnel-result';

const questionId = '33333333-3333-4333-8333-333333333333';

function step(overrides: Partial<FunnelStepResult> & Pick<FunnelStepResult, 'index'>): FunnelStepResult {
  return {
    kind: 'course_started',
    label: 'Started the course',
    courseId: 'c1',
    courseTitle: 'Safety basics',
    questionId: null,
    count: 0,
    conversionFromFirst: 0,
    conversionFromPrevious: 0,
    droppedOff: 0,
    medianSeconds: null,
    histogram: [],
    comparison: null,
    ...overrides,
  };
}

const result: FunnelComputeResult = {
  period: { from: '2026-03-01', to: '2026-03-31' },
  previousPeriod: { from: '2026-01-29', to: '2026-02-28' },
  order: 'sequential',
  windowDays: 14,
  isDefaultWindow: true,
  entered: 200,
  converted: 90,
  conversion: 0.45,
  medianSecondsToConvert: 5400,
  steps: [
    step({ index: 0, count: 200, conversionFromFirst: 1, conversionFromPrevious: 1 }),
    step({
      index: 1,
      kind: 'question_answered',
      label: 'Answered Q1 · Which helmet?',
      questionId,
      count: 150,
      conversionFromFirst: 0.75,
      conversionFromPrevious: 0.75,
      droppedOff: 50,
      medianSeconds: 300,
      histogram: [
        { from: 0, to: 60, label: 'Under 1 min', count: 10 },
        { from: 60, to: 300, label: '1 min–5 min', count: 60 },
        { from: 300, to: 900, label: '5 min–15 min', count: 80 },
      ],
      comparison: {
        previousRate: 0.6,
        previousCount: 120,
        previousBase: 200,
        change: 0.15,
        zScore: 3.25,
        pValue: 0.0012,
        isSignificant: true,
      },
    }),
    step({
      index: 2,
      kind: 'completed',
      label: 'Completed',
      count: 90,
      conversionFromFirst: 0.45,
      conversionFromPrevious: 0.6,
      droppedOff: 60,
      medianSeconds: 4800,
      comparison: {
        previousRate: 0.62,
        previousCount: 74,
        previousBase: 120,
        change: -0.02,
        zScore: -0.35,
        pValue: 0.73,
        isSignificant: false,
      },
    }),
  ],
  comparison: {
    previousRate: 0.37,
    previousCount: 74,
    previousBase: 200,
    change: 0.08,
    zScore: 1.63,
    pValue: 0.1,
    isSignificant: false,
  },
  breakdown: {
    kind: 'variable',
    label: 'department',
    groups: [
      { key: 'Sales', label: 'Sales', isOther: false, counts: [120, 100, 70], conversion: 70 / 120 },
      { key: null, label: 'Other', isOther: true, counts: [50, 30, 15], conversion: 0.3 },
      { key: null, label: '(no value)', isOther: false, counts: [30, 20, 5], conversion: 5 / 30 },
    ],
  },
  basis: testAnalyticsBasis(),
};

const helmetStats = {
  questionId,
  facility: 0.42,
  discriminationIndex: -0.12,
  attempts: 148,
  flags: [{ kind: 'negative_discrimination', reason: 'Discrimination −0.12: weaker learners did better.' }],
} as unknown as QuestionStatistics;

function renderResult(value: FunnelComputeResult = result, onShowDroppedOff = vi.fn()) {
  render(
    <MemoryRouter>
      <FunnelResult
        result={value}
        questionStats={new Map([[questionId, helmetStats]])}
        onShowDroppedOff={onShowDroppedOff}
      />
    </MemoryRouter>,
  );
  return onShowDroppedOff;
}

describe('FunnelResult', () => {
  it('draws a bar per step with its counts, shares, time and the change against the previous period', () => {
    renderResult();
    const summary = screen.getByLabelText('Funnel summary');
    expect(within(summary).getByText('200')).toBeInTheDocument();
    expect(within(summary).getByText('1.5 h')).toBeInTheDocument();

    const quiz = screen.getByTestId('funnel-step-1');
    expect(within(quiz).getByRole('heading', { name: /Answered Q1 · Which helmet\?/ })).toBeInTheDocument();
    expect(within(quiz).getByText('150')).toBeInTheDocument();
    expect(within(quiz).getByRole('img')).toHaveAccessibleName(
      '75% of the learners who entered reached this step; 50 dropped off after the previous step',
    );
    expect(within(quiz).getByText('5 min')).toBeInTheDocument();
    // A significant rise: +15 pts with the star, said in words for screen readers.
    expect(within(quiz).getByText('+15 pts')).toBeInTheDocument();
    expect(within(quiz).getByText('(significant)')).toBeInTheDocument();
    // The question's item analysis beside the quiz step.
    expect(within(quiz).getByText('Question statistics')).toBeInTheDocument();
    expect(within(quiz).getByText('42%')).toBeInTheDocument();
    expect(within(quiz).getByText('Negative discrimination')).toBeInTheDocument();

    const last = screen.getByTestId('funnel-step-2');
    expect(within(last).getByText('−2 pts')).toBeInTheDocument();
    expect(within(last).getByText('(not significant)')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'What the significance mark means' }),
    ).toHaveAccessibleDescription(/two-proportion z-test/);
  });

  it('shows the time histogram on demand and asks for the dropped-off learners', async () => {
    const user = userEvent.setup();
    const onShowDroppedOff = renderResult();
    const quiz = screen.getByTestId('funnel-step-1');
    await user.click(within(quiz).getByRole('button', { name: 'Time to convert' }));
    expect(within(quiz).getByRole('button', { name: 'Hide time to convert' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(within(quiz).getByText('Time from step 1 to step 2')).toBeInTheDocument();

    await user.click(within(quiz).getByRole('button', { name: 'See who dropped off (50)' }));
    expect(onShowDroppedOff).toHaveBeenCalledWith(1);
    // The first step has nobody to drop off before it.
    expect(
      within(screen.getByTestId('funnel-step-0')).queryByRole('button', { name: /dropped off/ }),
    ).toBeNull();
  });

  it('offers a table view and the breakdown table, every cell with a text value', async () => {
    const user = userEvent.setup();
    renderResult();
    await user.click(screen.getByRole('button', { name: 'Table' }));
    const steps = screen.getByRole('table', { name: 'Conversion by step' });
    const rows = within(steps).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(
      within(rows[2] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['150', '75%', '75%', '50', '5 min', '60% (significant change)']);

    const breakdown = screen.getByRole('table', { name: 'Funnel by department' });
    const groups = within(breakdown)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(groups).toEqual(['Sales', 'Other', '(no value)']);
    expect(within(breakdown).getAllByRole('row')[1]).toHaveTextContent('Sales120100(83%)70(58%)58%');
  });

  it('says what to do when nobody entered the funnel', () => {
    renderResult({
      ...result,
      entered: 0,
      converted: 0,
      conversion: 0,
      steps: result.steps.map((one) => ({ ...one, count: 0 })),
      breakdown: null,
    });
    expect(screen.getByText('No learner entered this funnel in the period')).toBeInTheDocument();
    expect(screen.getByText(/Choose a longer period/)).toBeInTheDocument();
  });

  it('writes durations in the unit that reads best', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(600)).toBe('10 min');
    expect(formatDuration(5400)).toBe('1.5 h');
    expect(formatDuration(3 * 86_400)).toBe('3 d');
    expect(formatDuration(null)).toBe('—');
  });
});
