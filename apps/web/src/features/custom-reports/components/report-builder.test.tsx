import {
  BREAKDOWN_LABELS,
  REPORT_MODEL_MESSAGES,
  SUBJECT_BREAKDOWNS,
  type BreakdownKind,
  type CustomReportDraft,
  type ReportData,
  type ReportPreviewInput,
  type ReportQuery,
  type ReportSubject,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { ReportBuilder } from './report-builder';
import {
  BUDDY_SCORE,
  catalog,
  EXIT_SCORE,
  itemData,
  ONBOARDING_SCORE,
  PASSED,
  Q3,
  result,
  row,
  SCORE,
} from './report-fixtures';
import { formValuesFromDraft } from './report-form';

function query(subject: ReportSubject, overrides: Partial<ReportQuery> = {}): ReportQuery {
  return {
    subject,
    measure: null,
    breakdown: { kind: 'none', variableName: null },
    filters: { courseIds: [], period: null, values: [], activity: [] },
    sort: null,
    limit: null,
    ...overrides,
  };
}

/** The preview answers each item with a bar chart titled "Preview of item N". */
function previewAnswer(input: ReportPreviewInput): { data: ReportData } {
  return {
    data: {
      generatedAt: '2026-03-10T12:00:00.000Z',
      refreshing: false,
      since: null,
      items: (input.items ?? []).map((_, index) =>
        itemData({
          itemId: `preview-${index}`,
          title: `Preview of item ${index + 1}`,
          chart: 'bar',
          result: result(
            'pass_rate',
            { kind: 'variable', variableName: 'department' },
            [row({ key: 'Sales', label: 'Sales', value: 0.75, learners: 4 })],
            { total: { value: 0.75, learners: 4, count: 4 } },
          ),
        }),
      ),
    },
  };
}

let previews: ReportPreviewInput[];

beforeEach(() => {
  previews = [];
  stubFetch((url, init) => {
    if (url === '/api/custom-reports/preview' && init?.method === 'POST') {
      const body = JSON.parse(init.body as string) as ReportPreviewInput;
      previews.push(body);
      return jsonResponse(200, previewAnswer(body));
    }
    return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
  });
});

function renderBuilder(draft: CustomReportDraft | null = null, reportCatalog = catalog) {
  const onSubmit = vi.fn<(values: CustomReportDraft) => Promise<void>>(() => Promise.resolve());
  renderWithQueryClient(
    <MemoryRouter>
      <ReportBuilder
        organizationId="o1"
        defaultValues={formValuesFromDraft(draft)}
        catalog={reportCatalog}
        submitLabel="Create report"
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />
    </MemoryRouter>,
  );
  return onSubmit;
}

function item(position: number): HTMLElement {
  return screen.getByRole('listitem', { name: new RegExp(`^Item ${position}:`) });
}

const labelsOf = (kinds: readonly BreakdownKind[]) => kinds.map((kind) => BREAKDOWN_LABELS[kind]);

function optionTexts(select: HTMLElement): string[] {
  return within(select)
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

/** Opens a searchable picker, types to narrow it and picks an option (in a course's group when given). */
async function pick(
  user: UserEvent,
  scope: HTMLElement,
  picker: string,
  option: string | RegExp,
  group?: string,
) {
  const input = within(scope).getByRole('combobox', { name: picker });
  await user.click(input);
  const list = within(scope).getByRole('listbox', { name: picker });
  const container = group ? within(list).getByRole('group', { name: group }) : list;
  await user.click(within(container).getByRole('option', { name: option }));
}

/**
 * Adds an item and waits for the keyboard to land on its first field (a
 * frame later): a picker opened before that would lose focus and close.
 */
async function addItem(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Add an item' }));
  const added = screen.getAllByTestId('report-item').at(-1)!;
  await waitFor(() =>
    expect(within(added).getByRole('combobox', { name: 'What the item reads' })).toHaveFocus(),
  );
  return added;
}

async function addVariableItem(user: UserEvent, variable: RegExp, group = 'Workplace Safety') {
  const added = await addItem(user);
  await pick(user, added, 'Variable', variable, group);
  return added;
}

describe('ReportBuilder pickers', () => {
  it('offers only the measures the subject and its data type can have', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addVariableItem(user, /^Final score/);
    const measure = () => within(first).getByRole('combobox', { name: 'Measure' });
    expect(optionTexts(measure())).toEqual([
      'Automatic (average)',
      'Learners',
      'Values',
      'Average',
      'Median',
      'Minimum',
      'Maximum',
      'Sum',
      'Pass rate',
    ]);

    await pick(user, first, 'Variable', /^Passed safety check/);
    expect(optionTexts(measure())).toEqual(['Automatic (pass rate)', 'Learners', 'Values', 'Pass rate']);

    await pick(user, first, 'Variable', /^department/);
    expect(optionTexts(measure())).toEqual(['Automatic (values)', 'Learners', 'Values']);
  });

  it('offers only the breakdowns the subject can have, with a sensible default', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addVariableItem(user, /^Final score/);
    const breakdown = () => within(first).getByRole('combobox', { name: 'Breakdown' });
    // A number variable of one course: by learner (a leaderboard).
    expect(breakdown()).toHaveValue('learner');
    expect(optionTexts(breakdown())).toEqual(labelsOf(SUBJECT_BREAKDOWNS.variable));
    expect(optionTexts(breakdown())).not.toContain('Answer');

    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'What the item reads' }),
      'questions',
    );
    expect(breakdown()).toHaveValue('question');
    expect(optionTexts(breakdown())).toEqual(labelsOf(SUBJECT_BREAKDOWNS.questions));
    expect(optionTexts(breakdown())).toContain('Question');
    expect(optionTexts(breakdown())).not.toContain('Answer');
    expect(optionTexts(within(first).getByRole('combobox', { name: 'Measure' }))).toEqual([
      'Automatic (correct rate)',
      'Correct rate',
      'Responses',
      'Learners',
      'Points',
    ]);

    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'What the item reads' }),
      'question',
    );
    await pick(user, first, 'Question', /Breaks\?/);
    expect(breakdown()).toHaveValue('answer');
    expect(optionTexts(breakdown())).toEqual(labelsOf(SUBJECT_BREAKDOWNS.question));
    expect(optionTexts(breakdown())).not.toContain('Question');
  });

  it('reads a variable several courses share in one course or in all of them', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addVariableItem(user, /^Final score/);
    const courses = within(first).getByRole('combobox', { name: 'Courses of the variable' });
    expect(optionTexts(courses)).toEqual([
      'in Workplace Safety',
      'in New Hire Onboarding',
      'in all 2 courses with it',
    ]);
    await user.selectOptions(courses, 'in all 2 courses with it');
    // Several courses: the default compares them.
    expect(within(first).getByRole('combobox', { name: 'Breakdown' })).toHaveValue('course');
    await waitFor(() =>
      expect(previews.at(-1)?.items?.[0]).toMatchObject({
        query: { subject: { kind: 'variable', variableIds: [SCORE, ONBOARDING_SCORE] } },
      }),
    );
  });

  it('ranks every question hardest first', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addItem(user);
    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'What the item reads' }),
      'questions',
    );
    const sort = within(first).getByRole('combobox', { name: 'Sort' });
    expect(optionTexts(sort)).toContain('Hardest first');
    await user.selectOptions(sort, 'Hardest first');
    await user.type(within(first).getByRole('spinbutton', { name: 'Top N' }), '5');
    await waitFor(() =>
      expect(previews.at(-1)?.items?.[0]).toMatchObject({
        query: {
          subject: { kind: 'questions', courseIds: [] },
          breakdown: { kind: 'question' },
          sort: { by: 'measure', order: 'asc' },
          limit: 5,
        },
      }),
    );
  });
});

describe('ReportBuilder agent variables', () => {
  async function addAgentVariableItem(user: UserEvent) {
    const added = await addItem(user);
    await user.selectOptions(
      within(added).getByRole('combobox', { name: 'What the item reads' }),
      'chatbot_variable',
    );
    return added;
  }

  it("offers the organization's agent variables by agent, and previews the chosen one", async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addAgentVariableItem(user);
    await user.click(within(first).getByRole('combobox', { name: 'Agent variable' }));
    const list = within(first).getByRole('listbox', { name: 'Agent variable' });
    expect(
      within(within(list).getByRole('group', { name: 'Onboarding buddy' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      expect.stringMatching(/^goal — Onboarding buddy/),
      expect.stringMatching(/^Score — Onboarding buddy/),
    ]);
    await user.click(
      within(within(list).getByRole('group', { name: 'Onboarding buddy' })).getByRole('option', {
        name: /^Score — Onboarding buddy/,
      }),
    );

    // A number: measured like a course variable's, by learner, and by agent in the place of course.
    expect(optionTexts(within(first).getByRole('combobox', { name: 'Measure' }))).toEqual([
      'Automatic (average)',
      'Learners',
      'Values',
      'Average',
      'Median',
      'Minimum',
      'Maximum',
      'Sum',
      'Pass rate',
    ]);
    const breakdown = within(first).getByRole('combobox', { name: 'Breakdown' });
    expect(breakdown).toHaveValue('learner');
    expect(optionTexts(breakdown)).toEqual(labelsOf(SUBJECT_BREAKDOWNS.chatbot_variable));
    expect(optionTexts(breakdown)).toContain('Agent');
    expect(optionTexts(breakdown)).not.toContain('Course');
    await waitFor(() =>
      expect(previews.at(-1)?.items?.[0]).toMatchObject({
        query: {
          subject: { kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_SCORE] },
          breakdown: { kind: 'learner' },
        },
      }),
    );
    expect(
      await within(screen.getByRole('region', { name: 'Preview' })).findByText('Preview of item 1'),
    ).toBeInTheDocument();

    // The same name in two agents: one of them, or both compared by agent.
    const agents = within(first).getByRole('combobox', { name: 'Agents of the variable' });
    expect(optionTexts(agents)).toEqual([
      'in Exit interview',
      'in Onboarding buddy',
      'in all 2 agents with it',
    ]);
    await user.selectOptions(agents, 'in all 2 agents with it');
    expect(within(first).getByRole('combobox', { name: 'Breakdown' })).toHaveValue('agent');
    await waitFor(() =>
      expect(previews.at(-1)?.items?.[0]).toMatchObject({
        query: {
          subject: { kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_SCORE, EXIT_SCORE] },
          breakdown: { kind: 'agent' },
        },
      }),
    );

    // An agent's values belong to no course: there is no course filter to set.
    await user.click(within(first).getByRole('button', { name: /^Filters/ }));
    expect(within(first).queryByRole('combobox', { name: 'Only these courses' })).not.toBeInTheDocument();
    expect(within(first).getByRole('combobox', { name: 'Period' })).toBeInTheDocument();
  });

  it('says when the organization has no agent variables yet, and where to make one', async () => {
    const user = userEvent.setup();
    renderBuilder(null, { ...catalog, chatbotVariables: [] });
    const first = await addAgentVariableItem(user);
    expect(within(first).getByTestId('no-agent-variables')).toHaveTextContent('No agent variables yet');
    expect(within(first).getByRole('link', { name: 'Create an agent' })).toHaveAttribute(
      'href',
      '/chatbots/create',
    );
    expect(within(first).queryByRole('combobox', { name: 'Agent variable' })).not.toBeInTheDocument();
  });
});

describe('ReportBuilder preview', () => {
  it('asks for the preview once the changes pause, and shows the first rows and the chart', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Nothing to show yet')).toBeInTheDocument();

    const first = await addVariableItem(user, /^Passed safety check/);
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Measure' }), 'Pass rate');
    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'Breakdown' }),
      'Value of another variable',
    );
    await pick(user, first, 'Variable to break down by', 'department');
    // Not at once: the preview waits for the changes to pause.
    const before = previews.length;
    expect(JSON.stringify(previews.at(-1) ?? null)).not.toContain('"variableName":"department"');

    await waitFor(() => expect(previews.length).toBeGreaterThan(before));
    expect(previews.at(-1)).toEqual({
      config: { periodDays: null, limit: null },
      items: [
        {
          kind: 'query',
          displayName: null,
          chart: 'auto',
          query: query(
            { kind: 'variable', variableIds: [PASSED] },
            {
              measure: { fn: 'pass_rate', mark: null },
              breakdown: { kind: 'variable', variableName: 'department' },
            },
          ),
        },
      ],
    });
    const shown = await within(preview).findByRole('region', { name: 'Preview of item 1' });
    expect(within(shown).getByRole('figure', { name: 'Pass rate by department' })).toBeInTheDocument();
    expect(
      within(within(shown).getByRole('table')).getByRole('rowheader', { name: /Sales/ }),
    ).toBeInTheDocument();
    // The chart Automatic picked, as the preview drew it.
    expect(within(first).getByRole('option', { name: 'Automatic (bar chart)' })).toBeInTheDocument();
  });

  it('says why an item is not in the preview, and what a chosen chart falls back to', async () => {
    const user = userEvent.setup();
    renderBuilder();
    const first = await addVariableItem(user, /^Final score/);
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Measure' }), 'Pass rate');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByTestId('preview-problems')).toHaveTextContent(
      REPORT_MODEL_MESSAGES.markRequired,
    );
    await user.type(within(first).getByRole('spinbutton', { name: 'Pass mark' }), '70');
    expect(within(preview).queryByTestId('preview-problems')).not.toBeInTheDocument();

    // A pie cannot show a rate: the builder says what it shows instead.
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Chart' }), 'Pie chart');
    expect(within(first).getByTestId('chart-fallback')).toHaveTextContent('it shows as a table');
  });
});

describe('ReportBuilder items', () => {
  const draft: CustomReportDraft = {
    name: 'Safety',
    description: null,
    reportType: 'table',
    config: { periodDays: null, limit: null },
    items: [
      {
        displayName: null,
        chart: 'auto',
        query: query(
          { kind: 'variable', variableIds: [SCORE] },
          { breakdown: { kind: 'learner', variableName: null } },
        ),
      },
      {
        displayName: null,
        chart: 'bar',
        query: query(
          { kind: 'question', questionId: Q3 },
          { breakdown: { kind: 'answer', variableName: null } },
        ),
      },
    ],
  };
  const question = 'Slide 6 · Question 3: Breaks?';

  it('reorders with the move buttons and the grip’s arrow keys, duplicates and removes, and saves that order', async () => {
    const user = userEvent.setup();
    const onSubmit = renderBuilder(draft);
    const labels = () =>
      screen.getAllByTestId('report-item').map((entry) => entry.getAttribute('aria-label'));
    expect(labels()).toEqual(['Item 1: Final score', `Item 2: ${question}`]);
    expect(screen.getByRole('button', { name: 'Move Final score up' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Final score down' }));
    expect(labels()).toEqual([`Item 1: ${question}`, 'Item 2: Final score']);
    expect(screen.getByText('Final score moved to position 2 of 2')).toBeInTheDocument();

    const grip = screen.getByRole('button', { name: `Reorder ${question} (arrow keys)` });
    grip.focus();
    await user.keyboard('{ArrowDown}');
    expect(labels()).toEqual(['Item 1: Final score', `Item 2: ${question}`]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: `Reorder ${question} (arrow keys)` })).toHaveFocus(),
    );

    await user.click(screen.getByRole('button', { name: 'Duplicate Final score' }));
    expect(labels()).toEqual(['Item 1: Final score', 'Item 2: Final score', `Item 3: ${question}`]);
    await user.click(screen.getByRole('button', { name: `Remove ${question}` }));
    expect(labels()).toEqual(['Item 1: Final score', 'Item 2: Final score']);

    await user.type(within(item(2)).getByRole('textbox', { name: 'Title of Final score' }), 'Best scores');
    await user.selectOptions(within(item(2)).getByRole('combobox', { name: 'Chart' }), 'Table');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0].items).toEqual([
      { displayName: null, chart: 'auto', query: draft.items[0]?.query },
      { displayName: 'Best scores', chart: 'table', query: draft.items[0]?.query },
    ]);
  });

  it('shows the contract’s messages and does not save an invalid report', async () => {
    const user = userEvent.setup();
    const onSubmit = renderBuilder();
    await addItem(user);
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText('Report name is required')).toBeInTheDocument();
    expect(within(item(1)).getByTestId('item-errors')).toHaveTextContent(
      REPORT_MODEL_MESSAGES.variablesEmpty,
    );
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Scores');
    await pick(user, item(1), 'Variable', /^Final score/, 'Workplace Safety');
    await user.selectOptions(within(item(1)).getByRole('combobox', { name: 'Measure' }), 'Pass rate');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await within(item(1)).findByTestId('item-errors')).toHaveTextContent(
      REPORT_MODEL_MESSAGES.markRequired,
    );
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(within(item(1)).getByRole('spinbutton', { name: 'Pass mark' }), '70');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0].items[0]?.query.measure).toEqual({ fn: 'pass_rate', mark: 70 });
  });

  it('keeps filters: a period preset, a value condition and learners who did not complete', async () => {
    const user = userEvent.setup();
    renderBuilder(draft);
    const first = item(1);
    await user.click(within(first).getByRole('button', { name: /Filters: No filters/ }));
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Period' }), 'The last 30 days');
    await user.click(within(first).getByRole('button', { name: 'Add a value condition' }));
    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'Operator of condition 1' }),
      'is at least',
    );
    await user.type(within(first).getByRole('textbox', { name: 'Value of condition 1' }), '50');
    await user.click(within(first).getByRole('button', { name: 'Add an activity condition' }));
    await user.selectOptions(
      within(first).getByRole('combobox', { name: 'Did or did not, condition 1' }),
      'did not',
    );
    await waitFor(() =>
      expect(previews.at(-1)?.items?.[0]).toMatchObject({
        query: {
          filters: {
            period: { kind: 'last_days', days: 30 },
            values: [{ variableName: null, op: 'gte', value: 50 }],
            activity: [{ did: false, event: 'completed', courseId: null }],
          },
        },
      }),
    );
    expect(within(first).getByRole('button', { name: /Filters: the last 30 days/ })).toBeInTheDocument();
  });
});
