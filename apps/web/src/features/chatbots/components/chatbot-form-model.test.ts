import { CHATBOT_MESSAGES, MAX_KNOWLEDGE_CHARS, type Chatbot } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import {
  emptyChatbotFormValues,
  emptyVariableRow,
  formFieldOf,
  formValuesFromChatbot,
  serverFieldProblems,
  toChatbotInput,
  validateChatbotForm,
  type ChatbotFormValues,
  type VariableRow,
} from './chatbot-form-model';

const SCORE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TEAM = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function withVariables(...rows: Partial<VariableRow>[]): ChatbotFormValues {
  return {
    ...emptyChatbotFormValues(),
    name: 'Coach',
    variables: rows.map((row) => ({ ...emptyVariableRow(), ...row })),
  };
}

describe('toChatbotInput', () => {
  it('sends empty optional texts as null and only the checks of the variable’s type', () => {
    const input = toChatbotInput(
      withVariables(
        { name: 'team_size', type: 'number', min: '1', max: ' 500 ', maxLength: '12', pattern: 'x' },
        { name: 'plan', type: 'choice', options: [{ value: 'Basic' }, { value: 'Pro' }], min: '3' },
        { name: 'start', type: 'date', minDate: '2026-01-01' },
        { name: 'goal', title: '  ', question: '', pattern: '^[a-z ]+$' },
      ),
    );
    expect(input).toMatchObject({ name: 'Coach', description: null, welcomeMessage: null, avatar: null });
    expect(input.variables).toEqual([
      expect.objectContaining({ name: 'team_size', validation: { min: 1, max: 500 } }),
      expect.objectContaining({ name: 'plan', options: ['Basic', 'Pro'], validation: null }),
      expect.objectContaining({ name: 'start', validation: { minDate: '2026-01-01' } }),
      expect.objectContaining({
        name: 'goal',
        title: null,
        question: null,
        validation: { pattern: '^[a-z ]+$' },
      }),
    ]);
    expect(input.variables?.[0]).not.toHaveProperty('options');
  });

  it('sends a new variable with no course variables to store it in', () => {
    const input = toChatbotInput(withVariables({ name: 'goal' }));
    expect(input.variables).toEqual([expect.objectContaining({ name: 'goal', destinationVariableIds: [] })]);
  });

  it('gives back a saved agent unchanged', () => {
    const saved: Chatbot = {
      id: 'c1',
      name: 'Coach',
      description: 'Helps',
      instructions: 'Be kind',
      welcomeMessage: 'Hi',
      knowledge: '# FAQ',
      documents: [{ id: 'd1', title: 'Guide', format: 'text', text: 'Read me', characters: 7 }],
      variables: [
        {
          id: 'v1',
          name: 'team_size',
          title: 'Team size',
          type: 'number',
          question: 'How many?',
          description: null,
          required: false,
          options: [],
          validation: { min: 1, max: 50 },
          destinationVariableIds: [SCORE, TEAM],
        },
      ],
      color: '#123456',
      avatar: 'AB',
      active: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(toChatbotInput(formValuesFromChatbot(saved))).toEqual({
      name: 'Coach',
      description: 'Helps',
      instructions: 'Be kind',
      welcomeMessage: 'Hi',
      knowledge: '# FAQ',
      documents: [{ title: 'Guide', format: 'text', text: 'Read me' }],
      variables: [
        {
          name: 'team_size',
          title: 'Team size',
          type: 'number',
          question: 'How many?',
          description: null,
          required: false,
          validation: { min: 1, max: 50 },
          destinationVariableIds: [SCORE, TEAM],
        },
      ],
      color: '#123456',
      avatar: 'AB',
      active: false,
    });
  });
});

describe('formFieldOf', () => {
  it.each([
    [['name'], 'name'],
    ['body.knowledge', 'knowledge'],
    ['body.variables.2.name', 'variables.2.name'],
    ['body.variables.3.destinationVariableIds', 'variables.3.destinationVariableIds'],
    [['variables', 0, 'destinationVariableIds', 2], 'variables.0.destinationVariableIds'],
    [['variables', 0, 'validation', 'min'], 'variables.0.min'],
    ['body.variables.1.validation.minDate', 'variables.1.minDate'],
    [['variables', 1, 'options'], 'variables.1.options'],
    [['variables', 1, 'options', 3], 'variables.1.options.3.value'],
    [['variables'], 'variables'],
    ['body.documents.4.text', 'documents.4.text'],
    ['body.documents', 'documents'],
    ['body', 'root'],
    ['query.q', 'root'],
  ] as const)('places %j on %s', (path, field) => {
    expect(formFieldOf(path)).toBe(field);
  });
});

describe('validateChatbotForm', () => {
  it('uses the contract’s words on the fields they concern', () => {
    const errors = validateChatbotForm({
      ...withVariables(
        { name: 'team_size', type: 'number', min: '10', max: '2' },
        { name: 'goal' },
        { name: '2nd' },
        { name: 'plan', type: 'choice', options: [{ value: 'Pro' }] },
        { name: 'code', type: 'text', pattern: '([' },
        { name: 'size', type: 'number', min: 'many' },
      ),
      name: ' ',
      color: 'blue',
    });
    expect(errors.name?.message).toBe(CHATBOT_MESSAGES.nameRequired);
    expect(errors.color?.message).toBe(CHATBOT_MESSAGES.invalidColor);
    expect(errors.variables?.[0]?.min?.message).toBe(CHATBOT_MESSAGES.minAboveMax);
    expect(errors.variables?.[1]).toBeUndefined();
    expect(errors.variables?.[2]?.name?.message).toBe(CHATBOT_MESSAGES.variableNamePattern);
    expect(errors.variables?.[3]?.options?.message).toBe(CHATBOT_MESSAGES.choiceNeedsOptions);
    expect(errors.variables?.[4]?.pattern?.message).toBe(CHATBOT_MESSAGES.invalidPattern);
    expect(errors.variables?.[5]?.min?.message).toBe('Minimum must be a number');
  });

  it('puts a malformed course variable id under the picker, not under the name', () => {
    const errors = validateChatbotForm(
      withVariables({ name: 'team_size', destinationVariableIds: [SCORE, 'not-an-id'] }),
    );
    expect(errors.variables?.[0]?.destinationVariableIds?.message).toBe(CHATBOT_MESSAGES.destinationNotFound);
    expect(errors.variables?.[0]?.name).toBeUndefined();
  });

  it('refuses two variables of the same name, whatever their case, once the rest is valid', () => {
    // The contract checks the agent as a whole only when every field passes.
    const errors = validateChatbotForm(
      withVariables({ name: 'team_size' }, { name: 'goal' }, { name: 'Team_Size' }),
    );
    expect(errors.variables?.[0]).toBeUndefined();
    expect(errors.variables?.[2]?.name?.message).toBe(CHATBOT_MESSAGES.duplicateVariable('Team_Size'));
  });

  it('counts typed knowledge and documents against one limit', () => {
    const half = 'x'.repeat(MAX_KNOWLEDGE_CHARS / 2);
    const values = {
      ...withVariables(),
      knowledge: half,
      documents: [{ title: 'Book', format: 'text' as const, text: `${half}!` }],
    };
    expect(validateChatbotForm(values).knowledge?.message).toBe(CHATBOT_MESSAGES.knowledgeTooLong);
    expect(validateChatbotForm({ ...values, knowledge: half.slice(1) })).toEqual({});
  });
});

describe('serverFieldProblems', () => {
  it('places the server’s dotted paths on their fields', () => {
    const error = new ApiError({
      message: 'Variable name is required',
      status: 400,
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'body.variables.0.name', message: 'Variable name is required' }],
    });
    expect(serverFieldProblems(error)).toEqual([
      { field: 'variables.0.name', message: 'Variable name is required' },
    ]);
    const destination = new ApiError({
      message: CHATBOT_MESSAGES.destinationNotFound,
      status: 400,
      code: 'VALIDATION_ERROR',
      issues: [
        { path: 'body.variables.1.destinationVariableIds', message: CHATBOT_MESSAGES.destinationNotFound },
      ],
    });
    expect(serverFieldProblems(destination)).toEqual([
      { field: 'variables.1.destinationVariableIds', message: CHATBOT_MESSAGES.destinationNotFound },
    ]);
  });

  it('leaves other errors, and a 400 that names no field, to a toast', () => {
    expect(serverFieldProblems(new ApiError({ message: 'Gone', status: 404, code: 'NOT_FOUND' }))).toEqual(
      [],
    );
    const bare = new ApiError({
      message: 'Plan limit',
      status: 400,
      code: 'BAD_REQUEST',
      issues: [{ path: '', message: 'Plan limit' }],
    });
    expect(serverFieldProblems(bare)).toEqual([]);
    expect(serverFieldProblems(new Error('boom'))).toEqual([]);
  });
});
