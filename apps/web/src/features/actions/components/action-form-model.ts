import {
  actionInput,
  type ActionBody,
  type ActionInput,
  type ActionType,
  type MemberRole,
  type WebhookMethod,
} from '@courselens/contracts';
import type { FieldErrors } from 'react-hook-form';

import { fieldErrorsOf, issuePathParts, resolverOf, type PathIssue } from '@/lib/form-errors';

/**
 * The action form's values: one section per type, all present so that
 * switching the type keeps what was typed in the others. `toActionInput`
 * turns them into the API's body, which the contract's schema checks
 * (the same rules, and messages, as the server).
 */

export type HeaderRow = {
  name: string;
  value: string;
  secret: boolean;
  /** A secret header saved earlier: left empty, it keeps its stored value. */
  isStored: boolean;
};

export type LiteralKind = 'text' | 'number' | 'true' | 'false' | 'empty';

export type ActionFormValues = {
  name: string;
  description: string;
  active: boolean;
  type: ActionType;
  webhook: {
    url: string;
    method: WebhookMethod;
    headers: HeaderRow[];
    bodyMode: 'event' | 'template';
    bodyTemplate: string;
  };
  email: {
    to: 'learner' | 'team' | 'addresses';
    roles: MemberRole[];
    /** One address per line, or separated by commas. */
    addresses: string;
    subject: string;
    body: string;
    hasQuietHours: boolean;
    quietStart: string;
    quietEnd: string;
    timeZone: string;
    hasFrequencyCap: boolean;
    capCount: string;
    capHours: string;
  };
  broadcast: { courseId: string; mode: 'set' | 'clear'; message: string };
  setVariable: {
    variableName: string;
    valueKind: 'template' | 'literal';
    template: string;
    literalKind: LiteralKind;
    literal: string;
  };
  notifyTeam: { message: string; roles: MemberRole[] };
};

/** The browser's time zone, the natural default for quiet hours. */
function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyFormValues(type: ActionType = 'webhook'): ActionFormValues {
  return {
    name: '',
    description: '',
    active: true,
    type,
    webhook: { url: '', method: 'POST', headers: [], bodyMode: 'event', bodyTemplate: '' },
    email: {
      to: 'learner',
      roles: ['owner', 'team_member'],
      addresses: '',
      subject: 'Well done, {{learner.name}}',
      body: 'Hello {{learner.name}},\n\nYou completed {{course.title}}. Congratulations!\n\n{{organization.name}}',
      hasQuietHours: false,
      quietStart: '21:00',
      quietEnd: '08:00',
      timeZone: localTimeZone(),
      hasFrequencyCap: false,
      capCount: '1',
      capHours: '24',
    },
    broadcast: { courseId: '', mode: 'set', message: '' },
    setVariable: {
      variableName: '',
      valueKind: 'template',
      template: '{{value}}',
      literalKind: 'text',
      literal: '',
    },
    notifyTeam: { message: '{{learner.name}} completed {{course.title}}', roles: ['owner', 'team_member'] },
  };
}

function literalFields(
  value: string | number | boolean | null,
): Pick<ActionFormValues['setVariable'], 'literalKind' | 'literal'> {
  if (value === null) return { literalKind: 'empty', literal: '' };
  if (typeof value === 'boolean') return { literalKind: value ? 'true' : 'false', literal: '' };
  if (typeof value === 'number') return { literalKind: 'number', literal: String(value) };
  return { literalKind: 'text', literal: value };
}

/** The form filled with a saved action (secret header values stay on the server). */
export function formValuesFromAction(action: ActionBody): ActionFormValues {
  const values = emptyFormValues(action.type);
  values.name = action.name;
  values.description = action.description ?? '';
  values.active = action.active;
  const config = action.config;
  switch (config.type) {
    case 'webhook':
      values.webhook = {
        url: config.url,
        method: config.method,
        headers: config.headers.map((header) => ({
          name: header.name,
          value: header.value ?? '',
          secret: header.secret,
          isStored: header.secret,
        })),
        bodyMode: config.bodyTemplate === null ? 'event' : 'template',
        bodyTemplate: config.bodyTemplate ?? '',
      };
      break;
    case 'email':
      values.email = {
        ...values.email,
        to: config.to.kind,
        roles: config.to.kind === 'team' ? config.to.roles : values.email.roles,
        addresses: config.to.kind === 'addresses' ? config.to.addresses.join('\n') : '',
        subject: config.subject,
        body: config.body,
        hasQuietHours: config.quietHours !== null,
        ...(config.quietHours
          ? {
              quietStart: config.quietHours.start,
              quietEnd: config.quietHours.end,
              timeZone: config.quietHours.timeZone,
            }
          : {}),
        hasFrequencyCap: config.frequencyCap !== null,
        ...(config.frequencyCap
          ? { capCount: String(config.frequencyCap.count), capHours: String(config.frequencyCap.perHours) }
          : {}),
      };
      break;
    case 'broadcast':
      values.broadcast = {
        courseId: config.courseId ?? '',
        mode: config.mode,
        message: config.message ?? '',
      };
      break;
    case 'set_variable':
      values.setVariable = {
        ...values.setVariable,
        variableName: config.variableName,
        valueKind: config.value.kind,
        ...(config.value.kind === 'template'
          ? { template: config.value.template }
          : literalFields(config.value.value)),
      };
      break;
    case 'notify_team':
      values.notifyTeam = { message: config.message, roles: config.roles };
      break;
  }
  return values;
}

/** A number field as the API wants it: a number when it reads as one, else the text (refused with its message). */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function literalValue(kind: LiteralKind, text: string): string | number | boolean | null {
  switch (kind) {
    case 'empty':
      return null;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'number':
      return numberOrText(text);
    case 'text':
      return text;
  }
}

/** The API's body for the form's values (only the chosen type's section). */
export function toActionInput(values: ActionFormValues): ActionInput {
  const base = { name: values.name, description: values.description.trim() || null, active: values.active };
  switch (values.type) {
    case 'webhook': {
      const { webhook } = values;
      return {
        ...base,
        config: {
          type: 'webhook',
          url: webhook.url,
          method: webhook.method,
          headers: webhook.headers.map((header) => ({
            name: header.name,
            // An empty secret value keeps the stored one (the server says when there is none).
            value: header.secret && header.value === '' ? null : header.value,
            secret: header.secret,
          })),
          bodyTemplate: webhook.bodyMode === 'template' ? webhook.bodyTemplate : null,
        },
      };
    }
    case 'email': {
      const { email } = values;
      const to =
        email.to === 'learner'
          ? { kind: 'learner' as const }
          : email.to === 'team'
            ? { kind: 'team' as const, roles: email.roles }
            : {
                kind: 'addresses' as const,
                addresses: email.addresses
                  .split(/[\s,;]+/)
                  .map((address) => address.trim())
                  .filter((address) => address !== ''),
              };
      return {
        ...base,
        config: {
          type: 'email',
          to,
          subject: email.subject,
          body: email.body,
          quietHours: email.hasQuietHours
            ? { start: email.quietStart, end: email.quietEnd, timeZone: email.timeZone }
            : null,
          frequencyCap: email.hasFrequencyCap
            ? {
                count: numberOrText(email.capCount) as number,
                perHours: numberOrText(email.capHours) as number,
              }
            : null,
        },
      };
    }
    case 'broadcast':
      return {
        ...base,
        config: {
          type: 'broadcast',
          courseId: values.broadcast.courseId || null,
          mode: values.broadcast.mode,
          message: values.broadcast.mode === 'set' ? values.broadcast.message : null,
        },
      };
    case 'set_variable': {
      const { setVariable } = values;
      return {
        ...base,
        config: {
          type: 'set_variable',
          variableName: setVariable.variableName,
          value:
            setVariable.valueKind === 'template'
              ? { kind: 'template', template: setVariable.template }
              : { kind: 'literal', value: literalValue(setVariable.literalKind, setVariable.literal) },
        },
      };
    }
    case 'notify_team':
      return {
        ...base,
        config: { type: 'notify_team', message: values.notifyTeam.message, roles: values.notifyTeam.roles },
      };
  }
}

/** Where a part of the API body lives in the form, by type (`config.` left out). */
const CONFIG_FIELDS: Record<ActionType, Record<string, string>> = {
  webhook: {
    url: 'webhook.url',
    method: 'webhook.method',
    headers: 'webhook.headers',
    bodyTemplate: 'webhook.bodyTemplate',
  },
  email: {
    to: 'email.to',
    'to.roles': 'email.roles',
    'to.addresses': 'email.addresses',
    subject: 'email.subject',
    body: 'email.body',
    quietHours: 'email.quietEnd',
    'quietHours.start': 'email.quietStart',
    'quietHours.end': 'email.quietEnd',
    'quietHours.timeZone': 'email.timeZone',
    'frequencyCap.count': 'email.capCount',
    'frequencyCap.perHours': 'email.capHours',
  },
  broadcast: { courseId: 'broadcast.courseId', mode: 'broadcast.mode', message: 'broadcast.message' },
  set_variable: {
    variableName: 'setVariable.variableName',
    value: 'setVariable.template',
    'value.template': 'setVariable.template',
    'value.value': 'setVariable.literal',
  },
  notify_team: { message: 'notifyTeam.message', roles: 'notifyTeam.roles' },
};

/**
 * The form field a problem belongs to, from its path in the API body
 * (`['config', 'headers', 0, 'value']`) or as the server writes it
 * (`body.config.url`); `root` when no field matches.
 */
export function formFieldOf(type: ActionType, path: PathIssue['path']): string {
  const parts = issuePathParts(path);
  if (parts[0] === 'name' || parts[0] === 'description') return parts[0];
  if (parts[0] !== 'config') return 'root';
  const rest = parts.slice(1);
  // A header's own field keeps its row: `webhook.headers.2.value`.
  if (type === 'webhook' && rest[0] === 'headers' && rest.length >= 3) return `webhook.${rest.join('.')}`;
  const fields = CONFIG_FIELDS[type];
  for (let length = rest.length; length > 0; length -= 1) {
    const key = rest
      .slice(0, length)
      .filter((part) => !/^\d+$/.test(part))
      .join('.');
    const field = fields[key];
    if (field) return field;
  }
  return 'root';
}

/** The problems of the form's values, placed on their fields, in the contract's words. */
export function validateActionForm(values: ActionFormValues): FieldErrors<ActionFormValues> {
  const parsed = actionInput.safeParse(toActionInput(values));
  return parsed.success ? {} : fieldErrorsOf(parsed.error.issues, (path) => formFieldOf(values.type, path));
}

/** react-hook-form's resolver: the contract's schema, through `toActionInput`. */
export const actionFormResolver = resolverOf(validateActionForm);

/** Server problems (`issues` of a 400) on their fields; false when none could be placed. */
export function serverErrorsOf(
  type: ActionType,
  issues: readonly PathIssue[],
): { field: string; message: string }[] {
  return issues.map((issue) => ({ field: formFieldOf(type, issue.path), message: issue.message }));
}
