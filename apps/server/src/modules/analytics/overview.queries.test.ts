import { describe, expect, it } from 'vitest';
import { NO_OVERVIEW_FIGURES, addOverviewShares, type OverviewDayRow } from './overview.queries';

const day = (date: string, figures: Partial<OverviewDayRow>): OverviewDayRow => ({
  day: date,
  ...NO_OVERVIEW_FIGURES,
  ...figures,
});

describe('addOverviewShares', () => {
  it('adds each day’s figures and the distinct learners of disjoint shares, days in order', () => {
    const total = addOverviewShares([
      {
        days: [
          day('2026-03-02', { runs: 2, completed: 1, scored: 1, scoreSum: 80, active: 2 }),
          day('2026-03-04', { answers: 3, gradedAnswers: 3, correct: 2, active: 1 }),
        ],
        activeCurrent: 2,
        activePrevious: 1,
      },
      { days: [], activeCurrent: 0, activePrevious: 0 },
      {
        days: [
          day('2026-03-01', { runs: 1, active: 1 }),
          day('2026-03-02', { runs: 1, graded: 1, passed: 1, scored: 1, scoreSum: 60, active: 1 }),
        ],
        activeCurrent: 1,
        activePrevious: 2,
      },
    ]);
    expect(total).toEqual({
      days: [
        day('2026-03-01', { runs: 1, active: 1 }),
        day('2026-03-02', {
          runs: 3,
          completed: 1,
          graded: 1,
          passed: 1,
          scored: 2,
          scoreSum: 140,
          active: 3,
        }),
        day('2026-03-04', { answers: 3, gradedAnswers: 3, correct: 2, active: 1 }),
      ],
      activeCurrent: 3,
      activePrevious: 3,
    });
  });
});
