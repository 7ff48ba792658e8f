import { CONDITION_MESSAGES, PIPELINE_MESSAGES } from '@courselens/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import type { EditorOptions } from '../../api/get-editor-options';

import { ConditionsEditor, type DraftCondition } from './conditions-editor';
import type { EditorNode, EditorProblem } from './graph-model';
import { NodeForm } from './node-form';
import { ProblemsList } from './problems-list';

const COURSE = '11111111-1111-4111-8111-111111111111';
const ACTION = '22222222-2222-4222-8222-222222222222';
const AGENT = '55555555-5555-4555-8555-555555555555';
const AGENT_OFF = '66666666-6666-4666-8666-666666666666';

type FormOptions = Pick<EditorOptions, 'courses' | 'variables' | 'actions' | 'chatbots'>;

const options: FormOptions = {
  courses: [{ id: COURSE, title: 'Fire safety' }],
  variables: [
    {
      id: '33333333-3333-4333-8333-333333333333',
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: COURSE,
      courseTitle: 'Fire safety',
    },
  ],
  actions: [
    { id: ACTION, name: 'Tell the LMS', type: 'webhook', active: true, target: 'POST https://lms.test/in' },
  ],
  chatbots: [
    { id: AGENT, name: 'Onboarding guide', active: true },
    { id: AGENT_OFF, name: 'Old helper', active: false },
  ],
};

function ConditionsHarness({
  initial,
  onChange,
}: {
  initial: DraftCondition[];
  onChange?: (c: DraftCondition[]) => void;
}) {
  const [conditions, setConditions] = useState(initial);
  return (
    <ConditionsEditor
      idPrefix="filter-1"
      conditions={conditions}
      courses={options.courses}
      variables={options.variables}
      onChange={(next) => {
        setConditions(next);
        onChange?.(next);
      }}
    />
  );
}

describe('ConditionsEditor', () => {
  it('asks which variable for "the learner’s latest value of a variable"', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <ConditionsHarness initial={[{ field: 'event.score', op: 'gte', value: 80 }]} onChange={onChange} />,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Condition 1 field' }), 'learner.variable');
    expect(screen.getByText(CONDITION_MESSAGES.variableRequired)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Condition 1 variable' }));
    await user.click(screen.getByRole('option', { name: /final_score/ }));
    expect(screen.queryByText(CONDITION_MESSAGES.variableRequired)).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith([
      { field: 'learner.variable', op: 'gte', variableName: 'final_score' },
    ]);
    // No value yet: the contract says what is missing.
    expect(screen.getByText(CONDITION_MESSAGES.valueRequired('learner.variable'))).toBeInTheDocument();
  });

  it('asks what is counted for "how many times", and compares with a number', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <ConditionsHarness initial={[{ field: 'event.score', op: 'gte', value: 80 }]} onChange={onChange} />,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Condition 1 field' }), 'learner.count');
    expect(screen.getByText(CONDITION_MESSAGES.eventTypeRequired, { selector: 'p' })).toBeInTheDocument();
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Condition 1 counted event' }),
      'course.failed',
    );
    await user.type(screen.getByRole('textbox', { name: 'Condition 1 value' }), '2');
    expect(onChange).toHaveBeenLastCalledWith([
      { field: 'learner.count', op: 'gte', eventType: 'course.failed', value: 2 },
    ]);
    expect(
      screen.queryByText(CONDITION_MESSAGES.eventTypeRequired, { selector: 'p' }),
    ).not.toBeInTheDocument();
    // Text operators make no sense on a count.
    const operators = within(screen.getByRole('combobox', { name: 'Condition 1 operator' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(operators).not.toContain('contains');
  });

  it('takes a list for "is one of" and hides the value for "is set"', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <ConditionsHarness initial={[{ field: 'learner.email', op: 'eq', value: 'x' }]} onChange={onChange} />,
    );
    const operator = screen.getByRole('combobox', { name: 'Condition 1 operator' });
    await user.selectOptions(operator, 'in');
    const value = screen.getByRole('textbox', { name: 'Condition 1 value' });
    await user.clear(value);
    await user.type(value, 'a@acme.test, b@acme.test');
    expect(onChange).toHaveBeenLastCalledWith([
      { field: 'learner.email', op: 'in', value: ['a@acme.test', 'b@acme.test'] },
    ]);
    await user.selectOptions(operator, 'exists');
    expect(screen.queryByRole('textbox', { name: 'Condition 1 value' })).not.toBeInTheDocument();
  });

  it('adds and removes conditions', async () => {
    const user = userEvent.setup();
    render(<ConditionsHarness initial={[{ field: 'event.score', op: 'gte', value: 80 }]} />);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    expect(screen.getByRole('listitem', { name: 'Condition 2' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'Condition 1' })).toBeInTheDocument();
  });
});

function FormHarness({
  node: initial,
  options: given = options,
}: {
  node: EditorNode;
  options?: FormOptions;
}) {
  const [node, setNode] = useState(initial);
  return (
    <MemoryRouter>
      <NodeForm
        node={node}
        options={given}
        onChange={(update) => setNode((current) => ({ ...current, data: update(current.data) }))}
        onRemove={() => {}}
      />
      <output data-testid="data">{JSON.stringify(node.data)}</output>
    </MemoryRouter>
  );
}

describe('NodeForm', () => {
  it('picks the course of a course source from the organization’s courses, and its events', async () => {
    const user = userEvent.setup();
    render(
      <FormHarness
        node={{
          id: 'course-1',
          type: 'course',
          position: { x: 0, y: 0 },
          data: { courseId: '', events: ['course.completed'] },
        }}
      />,
    );
    expect(screen.getByText('Choose a course')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    await user.click(screen.getByRole('option', { name: 'Fire safety' }));
    await user.click(screen.getByRole('checkbox', { name: 'Failed' }));
    expect(JSON.parse(screen.getByTestId('data').textContent ?? '')).toEqual({
      courseId: COURSE,
      events: ['course.failed', 'course.completed'],
    });
    await user.click(screen.getByRole('checkbox', { name: 'Failed' }));
    await user.click(screen.getByRole('checkbox', { name: 'Completed the course' }));
    expect(screen.getByText('Choose at least one event')).toBeInTheDocument();
  });

  it('picks the agent of a chatbot source from the organization’s agents, and its events', async () => {
    const user = userEvent.setup();
    render(
      <FormHarness
        node={{
          id: 'chatbot-1',
          type: 'chatbot',
          position: { x: 0, y: 0 },
          data: { chatbotId: '', events: ['chat.started', 'variable.captured', 'chat.ended'] },
        }}
      />,
    );
    expect(screen.getByText('Choose a chatbot')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    const listed = screen.getAllByRole('option').map((option) => option.textContent);
    expect(listed).toEqual(['Onboarding guide', 'Old helper (off)']);
    await user.click(screen.getByRole('option', { name: 'Onboarding guide' }));
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveValue('Onboarding guide');
    expect(screen.queryByText('Choose a chatbot')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open this agent/ })).toHaveAttribute(
      'href',
      `/chatbots/edit/${AGENT}`,
    );

    await user.click(screen.getByRole('checkbox', { name: 'Gives a value the agent captures' }));
    expect(JSON.parse(screen.getByTestId('data').textContent ?? '')).toEqual({
      chatbotId: AGENT,
      events: ['chat.started', 'chat.ended'],
    });
    await user.click(screen.getByRole('checkbox', { name: 'Starts a conversation' }));
    await user.click(screen.getByRole('checkbox', { name: 'Has given every required value' }));
    expect(JSON.parse(screen.getByTestId('data').textContent ?? '')).toEqual({
      chatbotId: AGENT,
      events: [],
    });
    expect(screen.getByText('Choose at least one event')).toBeInTheDocument();
    // Checked again, the events keep the contract's order.
    await user.click(screen.getByRole('checkbox', { name: 'Has given every required value' }));
    await user.click(screen.getByRole('checkbox', { name: 'Starts a conversation' }));
    expect(JSON.parse(screen.getByTestId('data').textContent ?? '')).toEqual({
      chatbotId: AGENT,
      events: ['chat.started', 'chat.ended'],
    });
  });

  it('says when the agent of a chatbot source no longer exists, or is switched off', async () => {
    const { unmount } = render(
      <FormHarness
        node={{
          id: 'chatbot-1',
          type: 'chatbot',
          position: { x: 0, y: 0 },
          data: { chatbotId: '77777777-7777-4777-8777-777777777777', events: ['chat.ended'] },
        }}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveAccessibleDescription(
      'This agent no longer exists: choose another',
    );
    unmount();

    render(
      <FormHarness
        node={{
          id: 'chatbot-1',
          type: 'chatbot',
          position: { x: 0, y: 0 },
          data: { chatbotId: AGENT_OFF, events: ['chat.ended'] },
        }}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveValue('Old helper (off)');
    expect(screen.getByRole('combobox', { name: 'Agent' })).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText(/This agent is switched off/)).toBeInTheDocument();
  });

  it('says where agents are made when the organization has none', async () => {
    const user = userEvent.setup();
    render(
      <FormHarness
        options={{ ...options, chatbots: [] }}
        node={{
          id: 'chatbot-1',
          type: 'chatbot',
          position: { x: 0, y: 0 },
          data: { chatbotId: '', events: ['chat.ended'] },
        }}
      />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    expect(screen.getByText('No agent yet: create one under Custom AI Agents')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /New agent/ })).toHaveAttribute('href', '/chatbots/create');
  });

  it('picks one of the organization’s actions and shows what it reaches', async () => {
    const user = userEvent.setup();
    render(
      <FormHarness
        node={{ id: 'action-1', type: 'action', position: { x: 0, y: 0 }, data: { actionId: '' } }}
      />,
    );
    expect(screen.getByText('Choose an action')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(screen.getByRole('option', { name: /Tell the LMS/ }));
    expect(screen.getByText('Webhook · POST https://lms.test/in')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open this action/ })).toHaveAttribute(
      'href',
      `/actions/edit/${ACTION}`,
    );
  });

  it('says a schedule must be five cron fields', async () => {
    const user = userEvent.setup();
    render(
      <FormHarness
        node={{ id: 'schedule-1', type: 'schedule', position: { x: 0, y: 0 }, data: { cron: '0 8 * * 1' } }}
      />,
    );
    const cron = screen.getByRole('textbox', { name: 'Schedule' });
    await user.clear(cron);
    await user.type(cron, 'every monday');
    expect(cron).toHaveAccessibleDescription(
      expect.stringContaining('Write the schedule as five cron fields'),
    );
    await user.click(screen.getByRole('button', { name: 'Every day at 8 in the morning' }));
    expect(cron).toHaveValue('0 8 * * *');
    expect(cron).not.toHaveAttribute('aria-invalid');
  });
});

describe('ProblemsList', () => {
  const problems: EditorProblem[] = [
    { kind: 'form', nodeId: 'action-1', message: 'Action action-1: Choose an action' },
    { kind: 'graph', nodeId: null, message: PIPELINE_MESSAGES.noSource },
    { kind: 'graph', nodeId: 'action-1', message: PIPELINE_MESSAGES.unconnected('Action action-1') },
    {
      kind: 'server',
      nodeId: 'course-1',
      message: PIPELINE_MESSAGES.unknownCourse('Course events course-1'),
    },
  ];

  it('groups the problems by what they stop, and a problem about a node selects it', async () => {
    const user = userEvent.setup();
    const onShowNode = vi.fn();
    render(<ProblemsList problems={problems} onShowNode={onShowNode} isServerStale />);
    expect(screen.getByRole('heading', { name: '4 problems' })).toBeInTheDocument();
    expect(screen.getByText('To fill in before saving')).toBeInTheDocument();
    expect(screen.getByText('To fix before turning it on')).toBeInTheDocument();
    expect(screen.getByText('Found at the last save (the pipeline has changed since)')).toBeInTheDocument();
    // A problem of the whole graph is text; one about a node is a button.
    expect(
      screen.queryByRole('button', { name: new RegExp(PIPELINE_MESSAGES.noSource) }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Connect "Action action-1"/ }));
    expect(onShowNode).toHaveBeenCalledWith('action-1');
  });

  it('says when there is nothing left to fix', () => {
    render(<ProblemsList problems={[]} onShowNode={() => {}} />);
    expect(screen.getByRole('heading', { name: 'No problems' })).toBeInTheDocument();
    expect(screen.getByText('The pipeline can be saved and turned on.')).toBeInTheDocument();
  });
});
