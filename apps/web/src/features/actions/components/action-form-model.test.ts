import { ACTION_MESSAGES, TEMPLATE_MESSAGES, actionInput, type ActionBody } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import {
  emptyFormValues,
  formFieldOf,
  formValuesFromAction,
  toActionInput,
  validateActionForm,
  type ActionFormValues,
} from './action-form-model';

const base = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Tell the LMS',
  description: null,
  active: true,
  target: 'POST https://hooks.example.com/in',
  usedByPipelines: 0,
  createdByName: 'Ada',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  secretHint: null,
};

function withValues(change: (values: ActionFormValues) => void): ActionFormValues {
  const values = emptyFormValues();
  values.name = 'An action';
  change(values);
  return values;
}

describe('the action form model', () => {
  it('turns a saved webhook into the form and back, keeping stored secret headers stored', () => {
    const action: ActionBody = {
      ...base,
      type: 'webhook',
      secretHint: 'whsec_AbCd…',
      config: {
        type: 'webhook',
        url: 'https://hooks.example.com/in',
        method: 'PUT',
        headers: [
          { name: 'X-Team', value: 'learning', secret: false },
          { name: 'Authorization', value: null, secret: true },
        ],
        bodyTemplate: '{"who": "{{learner.email}}"}',
      },
    };
    const values = formValuesFromAction(action);
    expect(values.webhook.headers).toEqual([
      { name: 'X-Team', value: 'learning', secret: false, isStored: false },
      { name: 'Authorization', value: '', secret: true, isStored: true },
    ]);
    expect(values.webhook.bodyMode).toBe('template');
    expect(toActionInput(values)).toEqual({
      name: 'Tell the LMS',
      description: null,
      active: true,
      config: {
        type: 'webhook',
        url: 'https://hooks.example.com/in',
        method: 'PUT',
        headers: [
          { name: 'X-Team', value: 'learning', secret: false },
          // Empty: the server keeps the stored value.
          { name: 'Authorization', value: null, secret: true },
        ],
        bodyTemplate: '{"who": "{{learner.email}}"}',
      },
    });
  });

  it('builds e-mail settings: addresses from lines and commas, quiet hours and the cap as numbers', () => {
    const values = withValues((v) => {
      v.type = 'email';
      v.email.to = 'addresses';
      v.email.addresses = 'coach@example.com,\nmanager@example.com ;';
      v.email.hasQuietHours = true;
      v.email.timeZone = 'Europe/Paris';
      v.email.hasFrequencyCap = true;
      v.email.capCount = '2';
      v.email.capHours = '48';
    });
    const input = actionInput.parse(toActionInput(values));
    expect(input.config).toMatchObject({
      type: 'email',
      to: { kind: 'addresses', addresses: ['coach@example.com', 'manager@example.com'] },
      quietHours: { start: '21:00', end: '08:00', timeZone: 'Europe/Paris' },
      frequencyCap: { count: 2, perHours: 48 },
    });
  });

  it('round-trips every other type', () => {
    const broadcast = withValues((v) => {
      v.type = 'broadcast';
      v.broadcast = { courseId: '', mode: 'clear', message: 'ignored' };
    });
    expect(toActionInput(broadcast).config).toEqual({
      type: 'broadcast',
      courseId: null,
      mode: 'clear',
      message: null,
    });
    const variable = withValues((v) => {
      v.type = 'set_variable';
      v.setVariable = {
        ...v.setVariable,
        variableName: 'score',
        valueKind: 'literal',
        literalKind: 'number',
        literal: '12.5',
      };
    });
    expect(toActionInput(variable).config).toEqual({
      type: 'set_variable',
      variableName: 'score',
      value: { kind: 'literal', value: 12.5 },
    });
    const saved: ActionBody = {
      ...base,
      type: 'set_variable',
      config: { type: 'set_variable', variableName: 'passed', value: { kind: 'literal', value: true } },
    };
    expect(toActionInput(formValuesFromAction(saved)).config).toEqual(saved.config);
  });

  it('puts the contract’s messages on the fields they are about', () => {
    const errors = validateActionForm(
      withValues((v) => {
        v.name = ' ';
        v.webhook.url = 'ftp://files';
        v.webhook.headers = [{ name: 'Webhook-Id', value: 'x', secret: false, isStored: false }];
        v.webhook.bodyMode = 'template';
        v.webhook.bodyTemplate = '{"a": "{{learner.phone}}"}';
      }),
    );
    expect(errors.name?.message).toBe(ACTION_MESSAGES.nameRequired);
    expect(errors.webhook?.url?.message).toBe(ACTION_MESSAGES.urlInvalid);
    expect(errors.webhook?.headers?.[0]?.name?.message).toBe(
      ACTION_MESSAGES.headerNameReserved('Webhook-Id'),
    );
    expect(errors.webhook?.bodyTemplate?.message).toBe(TEMPLATE_MESSAGES.unknownField('learner.phone'));
    const email = validateActionForm(
      withValues((v) => {
        v.type = 'email';
        v.email.hasQuietHours = true;
        v.email.timeZone = 'Nowhere/Town';
        v.email.hasFrequencyCap = true;
        v.email.capCount = 'lots';
      }),
    );
    expect(email.email?.timeZone?.message).toBe(ACTION_MESSAGES.timeZoneInvalid);
    expect(email.email?.capCount?.message).toBe(ACTION_MESSAGES.frequencyCount);
    expect(validateActionForm(withValues((v) => (v.webhook.url = 'https://hooks.example.com/in')))).toEqual(
      {},
    );
  });

  it('finds the field of a problem the server names', () => {
    expect(formFieldOf('webhook', 'body.config.url')).toBe('webhook.url');
    expect(formFieldOf('webhook', 'body.config.headers.2.value')).toBe('webhook.headers.2.value');
    expect(formFieldOf('email', ['config', 'to', 'addresses', 3])).toBe('email.addresses');
    expect(formFieldOf('broadcast', 'body.config.courseId')).toBe('broadcast.courseId');
    expect(formFieldOf('set_variable', 'body.config.value.value')).toBe('setVariable.literal');
    expect(formFieldOf('notify_team', 'body.name')).toBe('name');
    expect(formFieldOf('notify_team', 'body.config.type')).toBe('root');
  });
});
