import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_MESSAGES,
  SAMPLE_ACTION_EVENT,
  TEMPLATE_FIELD_NAMES,
  TEMPLATE_MESSAGES,
  actionConfigInput,
  actionInput,
  renderTemplate,
  renderTemplateValue,
  templateContextOf,
  templateFields,
  templateProblem,
  type TemplateContext,
} from './actions';

const context: TemplateContext = templateContextOf(SAMPLE_ACTION_EVENT, 'Acme Learning');

function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);
}

describe('templates', () => {
  it('fills every known field, with or without spaces inside the braces', () => {
    expect(renderTemplate('Well done {{learner.name}} on {{ course.title }} ({{value}})', context)).toBe(
      'Well done Sam Learner on Sample course (87)',
    );
    expect(renderTemplate('{{event.type}} at {{event.occurredAt}} for {{organization.name}}', context)).toBe(
      'course.completed at 2026-01-31T09:30:00.000Z for Acme Learning',
    );
  });

  it('writes a missing value as nothing', () => {
    expect(renderTemplate('[{{variable.name}}]', context)).toBe('[]');
  });

  it('names the unknown field, and refuses an unclosed tag', () => {
    expect(templateProblem('Hi {{learner.phone}}')).toBe(TEMPLATE_MESSAGES.unknownField('learner.phone'));
    expect(templateProblem('Hi {{learner.phone}}')).toMatch(/^Unknown template field \{\{learner\.phone\}\}/);
    expect(templateProblem('Hi {{learner.name')).toBe(TEMPLATE_MESSAGES.unclosed);
    expect(templateProblem('Hi {{}}')).toBe(TEMPLATE_MESSAGES.unknownField(''));
    expect(templateProblem('Hi {{learner.name}}, {{course.title}}')).toBeNull();
    expect(templateProblem('No tags at all, even } or { alone')).toBeNull();
  });

  it('lists the fields a template uses, once each', () => {
    expect(templateFields('{{value}} {{learner.email}} {{value}} {{nope}}')).toEqual([
      'value',
      'learner.email',
    ]);
  });

  it('keeps the type of a value when the template is a single tag', () => {
    expect(renderTemplateValue('{{value}}', context)).toBe(87);
    expect(renderTemplateValue(' {{ value }} ', context)).toBe(87);
    expect(renderTemplateValue('Score: {{value}}', context)).toBe('Score: 87');
    expect(renderTemplateValue('{{variable.name}}', context)).toBeNull();
  });

  it('escapes values for JSON strings, so any name keeps a JSON body valid', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, title) => {
        const values = templateContextOf(
          {
            ...SAMPLE_ACTION_EVENT,
            learner: { email: 'a@example.com', name },
            course: { id: null, externalCourseId: 'c', title },
          },
          null,
        );
        const body = renderTemplate(
          '{"name": "{{learner.name}}", "course": "{{course.title}}", "score": {{value}}}',
          values,
          'json',
        );
        expect(JSON.parse(body)).toEqual({ name, course: title, score: 87 });
      }),
    );
  });

  it('leaves text without tags exactly as written, and never fails on any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const problem = templateProblem(text);
        if (!text.includes('{{')) {
          expect(problem).toBeNull();
          expect(renderTemplate(text, context)).toBe(text);
        }
        expect(() => renderTemplate(text, context, 'json')).not.toThrow();
      }),
    );
  });

  it('accepts every documented field', () => {
    for (const field of TEMPLATE_FIELD_NAMES) expect(templateProblem(`{{${field}}}`)).toBeNull();
  });
});

describe('webhook settings', () => {
  const webhook = (overrides: Record<string, unknown>) =>
    actionConfigInput.safeParse({ type: 'webhook', url: 'https://hooks.example.com/in', ...overrides });

  it('defaults to POST with no headers and the event as the body', () => {
    const parsed = webhook({});
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({
      type: 'webhook',
      url: 'https://hooks.example.com/in',
      method: 'POST',
      headers: [],
      bodyTemplate: null,
    });
  });

  it.each([
    ['ftp://files.example.com/in', ACTION_MESSAGES.urlInvalid],
    ['hooks.example.com/in', ACTION_MESSAGES.urlInvalid],
    ['https://user:pass@hooks.example.com/in', ACTION_MESSAGES.urlCredentials],
    ['', ACTION_MESSAGES.urlRequired],
  ])('refuses the URL %j', (url, message) => {
    expect(messagesOf(webhook({ url }))).toEqual([message]);
  });

  it('refuses the signature headers, Host, duplicates and line breaks', () => {
    expect(messagesOf(webhook({ headers: [{ name: 'Webhook-Signature', value: 'x' }] }))).toEqual([
      ACTION_MESSAGES.headerNameReserved('Webhook-Signature'),
    ]);
    expect(messagesOf(webhook({ headers: [{ name: 'webhook-anything', value: 'x' }] }))[0]).toMatch(
      /reserved: CourseLens writes the webhook-\* signature headers itself/,
    );
    expect(messagesOf(webhook({ headers: [{ name: 'Host', value: 'evil.example' }] }))).toEqual([
      'Header “Host” is set by the connection and cannot be changed',
    ]);
    expect(
      messagesOf(
        webhook({
          headers: [
            { name: 'X-Team', value: 'a' },
            { name: 'x-team', value: 'b' },
          ],
        }),
      ),
    ).toEqual([ACTION_MESSAGES.headerDuplicate('x-team')]);
    expect(messagesOf(webhook({ headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] }))).toEqual([
      ACTION_MESSAGES.headerValueLineBreak,
    ]);
    expect(messagesOf(webhook({ headers: [{ name: 'Bad Name', value: 'a' }] }))).toEqual([
      ACTION_MESSAGES.headerNameInvalid,
    ]);
  });

  it('lets a secret header leave its value out (kept on update), but not a plain one', () => {
    expect(webhook({ headers: [{ name: 'Authorization', secret: true }] }).success).toBe(true);
    expect(messagesOf(webhook({ headers: [{ name: 'X-Plain' }] }))).toEqual([
      ACTION_MESSAGES.headerValueRequired('X-Plain'),
    ]);
  });

  it('names an unknown field of the body template', () => {
    expect(messagesOf(webhook({ bodyTemplate: '{"who": "{{learner.mail}}"}' }))).toEqual([
      TEMPLATE_MESSAGES.unknownField('learner.mail'),
    ]);
    expect(webhook({ bodyTemplate: '   ' }).data).toMatchObject({ bodyTemplate: null });
  });
});

describe('e-mail settings', () => {
  const email = (overrides: Record<string, unknown>) =>
    actionConfigInput.safeParse({
      type: 'email',
      to: { kind: 'learner' },
      subject: 'Well done {{learner.name}}',
      body: 'You completed {{course.title}}.',
      ...overrides,
    });

  it('checks recipients, quiet hours and the frequency cap', () => {
    expect(email({}).success).toBe(true);
    expect(
      email({ to: { kind: 'addresses', addresses: ['Coach@Example.com', 'coach@example.com'] } }).data,
    ).toMatchObject({ to: { kind: 'addresses', addresses: ['coach@example.com'] } });
    expect(messagesOf(email({ to: { kind: 'addresses', addresses: [] } }))).toEqual([
      ACTION_MESSAGES.recipientsRequired,
    ]);
    expect(messagesOf(email({ to: { kind: 'addresses', addresses: ['not-an-address'] } }))).toEqual([
      ACTION_MESSAGES.recipientInvalid,
    ]);
    expect(email({ to: { kind: 'team' } }).data).toMatchObject({
      to: { kind: 'team', roles: ['owner', 'team_member'] },
    });
    expect(
      messagesOf(email({ quietHours: { start: '22:00', end: '7:00', timeZone: 'Europe/Paris' } })),
    ).toEqual([ACTION_MESSAGES.quietHoursTime]);
    expect(
      messagesOf(email({ quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Base' } })),
    ).toEqual([ACTION_MESSAGES.timeZoneInvalid]);
    expect(messagesOf(email({ quietHours: { start: '22:00', end: '22:00', timeZone: 'UTC' } }))).toEqual([
      ACTION_MESSAGES.quietHoursSame,
    ]);
    expect(messagesOf(email({ frequencyCap: { count: 0, perHours: 24 } }))).toEqual([
      ACTION_MESSAGES.frequencyCount,
    ]);
    expect(messagesOf(email({ frequencyCap: { count: 1, perHours: 721 } }))).toEqual([
      ACTION_MESSAGES.frequencyHours,
    ]);
    expect(messagesOf(email({ subject: 'Hi {{learner.first_name}}' }))).toEqual([
      TEMPLATE_MESSAGES.unknownField('learner.first_name'),
    ]);
  });
});

describe('the other types', () => {
  it('a broadcast to set needs a message; clearing drops it', () => {
    expect(messagesOf(actionConfigInput.safeParse({ type: 'broadcast', mode: 'set' }))).toEqual([
      ACTION_MESSAGES.broadcastMessageRequired,
    ]);
    expect(
      actionConfigInput.safeParse({ type: 'broadcast', mode: 'clear', message: 'ignored' }).data,
    ).toEqual({ type: 'broadcast', courseId: null, mode: 'clear', message: null });
  });

  it('a variable takes a template or a literal', () => {
    expect(
      actionConfigInput.safeParse({
        type: 'set_variable',
        variableName: 'certified',
        value: { kind: 'literal', value: true },
      }).success,
    ).toBe(true);
    expect(
      messagesOf(
        actionConfigInput.safeParse({
          type: 'set_variable',
          variableName: ' ',
          value: { kind: 'template', template: '{{value}}' },
        }),
      ),
    ).toEqual([ACTION_MESSAGES.variableNameRequired]);
  });

  it('a team notification needs a message and at least one role', () => {
    expect(messagesOf(actionConfigInput.safeParse({ type: 'notify_team', message: 'x', roles: [] }))).toEqual(
      [ACTION_MESSAGES.rolesRequired],
    );
  });

  it('an unknown type is named with the list of types', () => {
    expect(messagesOf(actionConfigInput.safeParse({ type: 'sms' }))).toEqual([ACTION_MESSAGES.typeInvalid]);
  });

  it('an action needs a name', () => {
    expect(
      messagesOf(actionInput.safeParse({ name: '  ', config: { type: 'notify_team', message: 'Hello' } })),
    ).toEqual([ACTION_MESSAGES.nameRequired]);
  });
});
