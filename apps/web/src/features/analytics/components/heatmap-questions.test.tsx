import type { HeatmapQuestionsResponse } from '@courselens/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { testAnalyticsBasis } from '@/testing/analytics-basis';

import { HeatmapQuestions } from './heatmap-questions';

const cell = {
  interactionId: 'q1',
  label: 'Which helmet?',
  slideNumber: 2,
  questionNumber: 1,
  position: 1,
  learners: 5,
  correct: 4,
  responses: 6,
  correctRate: 0.8,
  low: 0.3755,
  high: 0.9638,
  isTooFew: true,
};
const data: HeatmapQuestionsResponse = {
  basis: testAnalyticsBasis(),
  course: { id: 'c1', title: 'Safety' },
  slides: [2, 5],
  positions: 2,
  cells: [
    { ...cell, questionId: 'a' },
    {
      ...cell,
      questionId: 'b',
      interactionId: 'q2',
      label: 'Gloves?',
      position: 2,
      learners: 60,
      correct: 12,
      correctRate: 0.2,
      low: 0.12,
      high: 0.32,
      isTooFew: false,
    },
    {
      ...cell,
      questionId: 'c',
      interactionId: 'q3',
      label: 'Boots?',
      slideNumber: 5,
      learners: 0,
      correct: 0,
      correctRate: null,
      low: null,
      high: null,
    },
  ],
  thresholds: { minResponses: 5, maxIntervalWidth: 0.3, confidence: 0.95 },
};

describe('HeatmapQuestions', () => {
  it('lays questions out by slide with their rate, interval and the too-few mark in words', () => {
    render(<HeatmapQuestions data={data} />);
    const grid = screen.getByRole('table', { name: 'Questions by slide' });
    expect(within(grid).getAllByRole('row')).toHaveLength(3);
    expect(
      within(grid).getByText(
        'Slide 2, question 1 (Which helmet?): 80% correct, 4 of 5 learners, 95% interval 38% to 96%; too few responses to trust the colour',
      ),
    ).toBeInTheDocument();
    expect(
      within(grid).getByText(
        'Slide 2, question 2 (Gloves?): 20% correct, 12 of 60 learners, 95% interval 12% to 32%',
      ),
    ).toBeInTheDocument();
    expect(
      within(grid).getByText('Slide 5, question 1 (Boots?): no graded answers in the period'),
    ).toBeInTheDocument();
    // Slide 5 has one question: its second column is empty.
    expect(within(grid).getByText('No value')).toBeInTheDocument();
    expect(screen.getByText(/Too few responses \(under 5 learners/)).toBeInTheDocument();
  });
});
