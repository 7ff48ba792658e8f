import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { fetchedRequests, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { FunnelBuilder } from './funnel-builder';
import { configFromDraft, draftProblems, emptyDraft, emptyStep, type FunnelDraft } from './funnel-draft';

const safety = '11111111-1111-4111-8111-111111111111';
const ethics = '22222222-2222-4222-8222-222222222222';
const questionId = '33333333-3333-4333-8333-333333333333';
const courses = [
  { id: safety, title: 'Safety basics' },
  { id: ethics, title: 'Ethics' },
];

let latest: FunnelDraft = emptyDraft();

function Harness({ initial }: { initial: FunnelDraft }) {
  const [draft, setDraft] = useState(initial);
  return (
    <FunnelBuilder
      organizationId="o1"
      draft={draft}
      onChange={(next) => {
        latest = next;
        setDraft(next);
      }}
      courses={courses}
      defaultWindowDays={14}
      problems={draftProblems(draft)}
    />
  );
}

function stepKinds(): string[] {
  return screen
    .getAllByRole('listitem', { name: /^Step \d+$/ })
    .map((item) => within(item).getByRole<HTMLSelectElement>('combobox', { name: /event$/ }).value);
}

describe('FunnelBuilder', () => {
  it('adds, reorders with the keyboard and removes steps', async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 }));
    renderWithQueryClient(<Harness initial={{ ...emptyDraft(safety) }} />);
    expect(stepKinds()).toEqual(['course_started', 'completed']);
    // Two steps is the least: neither can be removed.
    expect(screen.getByRole('button', { name: 'Remove step 1' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Add step' }));
    expect(stepKinds()).toEqual(['course_started', 'completed', 'question_answered']);
    // The keyboard goes to the new step's event (a frame later).
    await waitFor(() =>
      expect(
        within(screen.getByRole('listitem', { name: 'Step 3' })).getByRole('combobox', { name: /event$/ }),
      ).toHaveFocus(),
    );

    // Move the new step up with the keyboard: focus its button, press Enter.
    screen.getByRole('button', { name: 'Move step 3 up' }).focus();
    await user.keyboard('{Enter}');
    expect(stepKinds()).toEqual(['course_started', 'question_answered', 'completed']);
    // The keyboard stays on the moved step's "up" button (now step 2).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move step 2 up' })).toHaveFocus());

    expect(screen.getByRole('button', { name: 'Move step 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move step 3 down' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove step 1' }));
    expect(stepKinds()).toEqual(['question_answered', 'completed']);
    expect(configFromDraft(latest)?.definition.steps).toEqual([
      { kind: 'question_answered', courseId: null, questionId: null },
      { kind: 'completed', courseId: null },
    ]);
  });

  it('asks each kind of step for its slide, question or variable', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((url) => {
      if (url.includes(`/courses/${safety}/questions`)) {
        return jsonResponse(200, {
          items: [
            {
              id: questionId,
              courseId: safety,
              courseTitle: 'Safety basics',
              interactionId: 'q-helmet',
              slideNumber: 3,
              questionNumber: 1,
              questionText: 'Which helmet protects best?',
              correctAnswer: 'B',
              active: true,
              totalResponses: 0,
              correctResponses: 0,
              uniqueLearnersCount: 0,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 100,
          course: { id: safety, courseTitle: 'Safety basics' },
        });
      }
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 });
    });
    renderWithQueryClient(
      <Harness
        initial={{ ...emptyDraft(safety), steps: [emptyStep('course_started'), emptyStep('completed')] }}
      />,
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Step 2 event' }), 'slide_viewed');
    const slide = screen.getByRole('textbox', { name: 'Step 2 slide number' });
    expect(slide).toHaveAccessibleDescription(
      'Enter the slide number of this step (a whole number, 0 or more)',
    );
    await user.type(slide, '4');
    expect(slide).not.toHaveAttribute('aria-invalid');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Step 2 event' }), 'question_answered');
    const question = screen.getByRole('combobox', { name: 'Step 2 question' });
    await screen.findByRole('option', { name: 'Slide 3 · Q1: Which helmet protects best?' });
    expect(
      fetchedRequests(fetchMock).some((request) => request.url.includes(`/api/courses/${safety}/questions`)),
    ).toBe(true);
    await user.selectOptions(question, questionId);
    expect(configFromDraft(latest)?.definition).toEqual({
      courseId: safety,
      order: 'sequential',
      windowDays: null,
      steps: [
        { kind: 'course_started', courseId: null },
        { kind: 'question_answered', courseId: null, questionId },
      ],
    });

    // Across courses: without the funnel's course a question step needs its own.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Course' }), '');
    expect(screen.getByRole('combobox', { name: 'Step 2 course' })).toHaveAccessibleDescription(
      'Choose the course of this step (or the funnel’s course)',
    );
    expect(configFromDraft(latest)).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Step 2 course' }), ethics);
    expect(configFromDraft(latest)?.definition.steps[1]).toEqual({
      kind: 'question_answered',
      courseId: ethics,
      questionId: null,
    });
  });

  it('sets the order, the window and a breakdown by variable', async () => {
    const user = userEvent.setup();
    stubFetch(() =>
      jsonResponse(200, {
        items: [
          { id: 'v1', name: 'department', title: null, courseId: safety, courseTitle: 'Safety basics' },
        ],
        total: 1,
        page: 1,
        pageSize: 100,
      }),
    );
    renderWithQueryClient(<Harness initial={emptyDraft(safety)} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Step order' }), 'strict');
    const window = screen.getByRole('textbox', { name: 'Conversion window (days)' });
    expect(window).toHaveAttribute('placeholder', '14 (settings default)');
    await user.type(window, '0');
    expect(window).toHaveAccessibleDescription(/from 1 to 365/);
    await user.clear(window);
    await user.type(window, '30');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Break down by' }), 'variable');
    expect(configFromDraft(latest)).toBeNull();
    await user.type(screen.getByRole('combobox', { name: 'Variable name' }), 'department');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Groups shown' }), '3');
    expect(configFromDraft(latest)).toMatchObject({
      definition: { order: 'strict', windowDays: 30 },
      breakdown: { kind: 'variable', variableName: 'department', top: 3 },
    });
  });
});
