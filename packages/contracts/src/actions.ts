import { z } from 'zod';
import { uuidSchema } from './ids';
import { listQuerySchema, paginatedSchema } from './list';
import { memberRoleSchema } from './organizations';

/**
 * Actions: reusable, configured steps a pipeline runs (send a signed
 * webhook, send an e-mail, set or clear a course broadcast, set a learner
 * variable, notify the team in the activity feed). One template language
 * fills every text field from the event that triggered the run, and the
 * same renderer runs here, in the server and in the editor's live preview.
 */

export const ACTION_TYPES = ['webhook', 'email', 'broadcast', 'set_variable', 'notify_team'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_TYPE_LABELS: Record<ActionType, string> = {
  webhook: 'Webhook',
  email: 'Email',
  broadcast: 'Course broadcast',
  set_variable: 'Set a learner variable',
  notify_team: 'Notify the team',
};

export const ACTION_TYPE_DESCRIPTIONS: Record<ActionType, string> = {
  webhook: 'Send the event to another system over HTTP, signed so it can check the request came from you.',
  email: 'Email the learner, your team or fixed addresses.',
  broadcast: 'Set or clear the message a course shows to its learners.',
  set_variable: 'Store a value for the learner in a variable of the course.',
  notify_team: 'Post a message in your organization’s activity feed.',
};

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** Standard Webhooks: the signing secret is `whsec_` followed by the base64 of the key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How long a delivery may take (connection, request and answer), in milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer's body is kept and shown, in bytes. */
export const WEBHOOK_RESPONSE_BODY_LIMIT = 4096;

export const MAX_ACTION_NAME_LENGTH = 200;
export const MAX_ACTION_DESCRIPTION_LENGTH = 2000;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_HEADERS = 20;
export const MAX_HEADER_NAME_LENGTH = 100;
export const MAX_HEADER_VALUE_LENGTH = 4000;
export const MAX_BODY_TEMPLATE_LENGTH = 20_000;
export const MAX_EMAIL_SUBJECT_LENGTH = 300;
export const MAX_EMAIL_BODY_LENGTH = 20_000;
export const MAX_EMAIL_RECIPIENTS = 20;
/** The course broadcast's own limit (`setBroadcastInput`). */
export const MAX_BROADCAST_MESSAGE_LENGTH = 1000;
export const MAX_NOTIFICATION_LENGTH = 1000;
export const MAX_VARIABLE_NAME_LENGTH = 255;
/** A variable's text value (the ingestion API's own limit). */
export const MAX_VARIABLE_TEXT_LENGTH = 10_000;
export const MAX_FREQUENCY_COUNT = 100;
/** 30 days: the longest window a frequency cap counts over. */
export const MAX_FREQUENCY_HOURS = 720;

/**
 * Header names a webhook action cannot set: the signature headers are ours
 * (a receiver must be able to trust them), and the others describe the
 * connection, which the HTTP client writes itself.
 */
export const RESERVED_HEADER_NAMES = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
] as const;
export const RESERVED_HEADER_PREFIX = 'webhook-';

// ---- templates ---------------------------------------------------------------

/** Every field a template may name, with what it holds (the editor lists them). */
export const TEMPLATE_FIELDS = {
  'learner.email': 'The learner’s e-mail address',
  'learner.name': 'The learner’s name',
  'course.title': 'The course’s title',
  'course.id': 'The course’s CourseLens id',
  'course.externalId': 'The course’s id in your authoring tool or LMS',
  'event.type': 'What happened, such as course.completed',
  'event.id': 'The event’s unique id',
  'event.occurredAt': 'When it happened (ISO 8601, UTC)',
  'variable.name': 'The variable the event set, if any',
  value: 'The event’s value: the variable’s value or the score',
  'organization.name': 'Your organization’s name',
} as const;
export type TemplateField = keyof typeof TEMPLATE_FIELDS;
export const TEMPLATE_FIELD_NAMES = Object.keys(TEMPLATE_FIELDS) as TemplateField[];

export type TemplateValue = string | number | boolean | null;
/** The values a template is rendered with, one per field. */
export type TemplateContext = Record<TemplateField, TemplateValue>;

const TEMPLATE_TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

function isTemplateField(name: string): name is TemplateField {
  return Object.prototype.hasOwnProperty.call(TEMPLATE_FIELDS, name);
}

export const TEMPLATE_MESSAGES = {
  unknownField: (field: string) =>
    `Unknown template field {{${field}}}: use one of ${TEMPLATE_FIELD_NAMES.join(', ')}`,
  unclosed: 'A template has "{{" without a closing "}}"',
} as const;

/** The first problem of a template (an unknown field, an unclosed tag), or null when it renders. */
export function templateProblem(template: string): string | null {
  for (const match of template.matchAll(TEMPLATE_TAG)) {
    const field = match[1] ?? '';
    if (!isTemplateField(field)) return TEMPLATE_MESSAGES.unknownField(field);
  }
  // What is left once the well-formed tags are gone must not open another one.
  if (template.replace(TEMPLATE_TAG, '').includes('{{')) return TEMPLATE_MESSAGES.unclosed;
  return null;
}

/** The fields a template names, in order of first use. */
export function templateFields(template: string): TemplateField[] {
  const fields: TemplateField[] = [];
  for (const match of template.matchAll(TEMPLATE_TAG)) {
    const field = match[1] ?? '';
    if (isTemplateField(field) && !fields.includes(field)) fields.push(field);
  }
  return fields;
}

/**
 * How a value is written into the text: `text` as is; `json` escaped for the
 * inside of a JSON string (write `"{{learner.name}}"`, quotes included), so a
 * name with a quote or a line break cannot break the body. A missing value
 * (null) is written as nothing.
 */
export type TemplateEscape = 'text' | 'json';

function writeValue(value: TemplateValue, escape: TemplateEscape): string {
  if (value === null) return '';
  const text = String(value);
  return escape === 'json' && typeof value === 'string' ? JSON.stringify(text).slice(1, -1) : text;
}

/** Fills a template's `{{field}}` tags from the context; unknown fields are left as written. */
export function renderTemplate(
  template: string,
  context: TemplateContext,
  escape: TemplateEscape = 'text',
): string {
  return template.replace(TEMPLATE_TAG, (tag, field: string) =>
    isTemplateField(field) ? writeValue(context[field], escape) : tag,
  );
}

/**
 * A template that is exactly one tag (`{{value}}`) gives the field's value
 * with its type (a number stays a number); anything else gives text.
 */
export function renderTemplateValue(template: string, context: TemplateContext): TemplateValue {
  const only = /^\s*\{\{\s*([^{}]*?)\s*\}\}\s*$/.exec(template);
  const field = only?.[1];
  if (field !== undefined && isTemplateField(field)) return context[field];
  return renderTemplate(template, context);
}

/** A template field of a form: trimmed or not, with a length limit, checked for unknown fields. */
function templateSchema(options: { required: string; tooLong: string; max: number; trim?: boolean }) {
  const base = z.string({ error: options.required });
  return (options.trim === false ? base : base.trim())
    .min(1, options.required)
    .max(options.max, options.tooLong)
    .superRefine((value, context) => {
      const problem = templateProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
}

// ---- the event an action runs for ------------------------------------------------

const scalarSchema = z.union([z.string().max(MAX_VARIABLE_TEXT_LENGTH), z.number(), z.boolean(), z.null()]);

/**
 * What a pipeline hands an action: the learning event that triggered the
 * run, whole (a webhook without a body template sends it as its JSON).
 * Fields beyond these are kept.
 */
export const actionEventSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  occurredAt: z.string().max(40),
  course: z
    .object({
      id: z.string().nullable(),
      externalCourseId: z.string().max(255),
      title: z.string().max(500).nullable(),
    })
    .nullable(),
  learner: z.object({ email: z.string().max(320), name: z.string().max(200).nullable() }).nullable(),
  variable: z.object({ name: z.string().max(255), value: scalarSchema }).nullish(),
  value: scalarSchema.optional(),
});
export type ActionEvent = z.infer<typeof actionEventSchema>;

/** The event previews and test sends use: a learner who just completed a course. */
export const SAMPLE_ACTION_EVENT: ActionEvent = {
  id: 'evt_sample_0001',
  type: 'course.completed',
  occurredAt: '2026-01-31T09:30:00.000Z',
  course: { id: null, externalCourseId: 'sample-course', title: 'Sample course' },
  learner: { email: 'sam.learner@example.com', name: 'Sam Learner' },
  variable: null,
  value: 87,
};

/** The template values of an event. */
export function templateContextOf(event: ActionEvent, organizationName: string | null): TemplateContext {
  return {
    'learner.email': event.learner?.email ?? null,
    'learner.name': event.learner?.name ?? null,
    'course.title': event.course?.title ?? null,
    'course.id': event.course?.id ?? null,
    'course.externalId': event.course?.externalCourseId ?? null,
    'event.type': event.type,
    'event.id': event.id,
    'event.occurredAt': event.occurredAt,
    'variable.name': event.variable?.name ?? null,
    value: event.value ?? event.variable?.value ?? null,
    'organization.name': organizationName,
  };
}

// ---- messages ----------------------------------------------------------------------

export const ACTION_MESSAGES = {
  notFound: 'Action not found',
  nameRequired: 'Action name is required',
  nameTooLong: `Action name must be at most ${MAX_ACTION_NAME_LENGTH} characters long`,
  descriptionTooLong: `Description must be at most ${MAX_ACTION_DESCRIPTION_LENGTH} characters long`,
  typeInvalid: `Action type must be one of: ${ACTION_TYPES.join(', ')}`,
  typeChanged: 'The type of an action cannot change: create a new action instead',
  urlRequired: 'Webhook URL is required',
  urlInvalid: 'Enter a full URL that starts with https:// or http://',
  urlTooLong: `Webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long`,
  urlCredentials:
    'The URL must not contain a user name or password: send them in a header marked secret instead',
  methodInvalid: `Method must be one of: ${WEBHOOK_METHODS.join(', ')}`,
  tooManyHeaders: `A webhook can have at most ${MAX_WEBHOOK_HEADERS} headers`,
  headerNameInvalid:
    "Header names use letters, digits and - _ . ! # $ % & ' * + ^ ` | ~ only, up to 100 characters",
  headerNameReserved: (name: string) =>
    name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX)
      ? `Header “${name}” is reserved: CourseLens writes the webhook-* signature headers itself`
      : `Header “${name}” is set by the connection and cannot be changed`,
  headerDuplicate: (name: string) => `Header “${name}” is listed twice`,
  headerValueRequired: (name: string) => `Header “${name}” needs a value`,
  headerValueLineBreak: 'Header values cannot contain line breaks',
  headerValueTooLong: `Header values must be at most ${MAX_HEADER_VALUE_LENGTH} characters long`,
  bodyTemplateTooLong: `The body template must be at most ${MAX_BODY_TEMPLATE_LENGTH} characters long`,
  recipientsRequired: 'Add at least one e-mail address',
  recipientInvalid: 'Each recipient must be an e-mail address',
  tooManyRecipients: `An e-mail can go to at most ${MAX_EMAIL_RECIPIENTS} fixed addresses`,
  recipientKindInvalid: 'Send the e-mail to the learner, the team or fixed addresses',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${MAX_EMAIL_SUBJECT_LENGTH} characters long`,
  emailBodyRequired: 'Message is required',
  emailBodyTooLong: `Message must be at most ${MAX_EMAIL_BODY_LENGTH} characters long`,
  quietHoursTime: 'Quiet hours use 24-hour times (HH:MM)',
  quietHoursSame: 'Quiet hours need a start and an end that differ',
  timeZoneInvalid: 'Time zone must be an IANA time zone such as Europe/Paris',
  frequencyCount: `The frequency cap allows 1 to ${MAX_FREQUENCY_COUNT} e-mails`,
  frequencyHours: `The frequency cap counts over 1 to ${MAX_FREQUENCY_HOURS} hours`,
  courseIdInvalid: 'Course must be a course id',
  courseNotFound: 'The course of this action does not exist in this organization',
  broadcastModeInvalid: 'Mode must be set or clear',
  broadcastMessageRequired: 'Write the message to show, or choose to clear the broadcast',
  broadcastMessageTooLong: `Broadcast message must be at most ${MAX_BROADCAST_MESSAGE_LENGTH} characters long`,
  variableNameRequired: 'Variable name is required',
  variableNameTooLong: `Variable name must be at most ${MAX_VARIABLE_NAME_LENGTH} characters long`,
  variableValueTooLong: `Variable value must be at most ${MAX_VARIABLE_TEXT_LENGTH} characters long`,
  variableValueInvalid: 'The value is a template or a literal (text, number, true/false or empty)',
  notificationRequired: 'Message is required',
  notificationTooLong: `Message must be at most ${MAX_NOTIFICATION_LENGTH} characters long`,
  rolesRequired: 'Choose at least one role to notify',
  noSecret: 'Only webhook actions have a signing secret',
  inUse: (count: number) =>
    `This action is used by ${count} ${count === 1 ? 'pipeline' : 'pipelines'}: remove it from ${count === 1 ? 'it' : 'them'} first`,
  hostNotAllowed: (host: string) =>
    `Webhooks cannot reach ${host}: it is a loopback, private or link-local address. An administrator can allow the host in WEBHOOK_ALLOWED_HOSTS`,
  hostNotFound: (host: string) => `The host ${host} could not be found`,
  timeout: `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`,
  smtpNotConfigured: 'Email is not set up on this server: an administrator sets SMTP_URL to send e-mails',
  secretUnreadable:
    'The stored secrets of this action cannot be read (the server’s AUTH_SECRET changed): rotate the signing secret and enter the secret header values again',
  needsLearner: 'This action needs an event with a learner',
  needsCourse: 'This action needs an event with a course',
  noRecipients: 'Nobody to e-mail: the team has no member with the chosen roles',
  noAuthor: 'A broadcast needs an author: the person who created this action no longer exists',
} as const;

// ---- configuration of each type -------------------------------------------------------

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const webhookHeaderInput = z
  .object({
    name: z
      .string({ error: ACTION_MESSAGES.headerNameInvalid })
      .trim()
      .min(1, ACTION_MESSAGES.headerNameInvalid)
      .max(MAX_HEADER_NAME_LENGTH, ACTION_MESSAGES.headerNameInvalid)
      .regex(HEADER_NAME, ACTION_MESSAGES.headerNameInvalid)
      .superRefine((name, context) => {
        const lower = name.toLowerCase();
        if (
          lower.startsWith(RESERVED_HEADER_PREFIX) ||
          (RESERVED_HEADER_NAMES as readonly string[]).includes(lower)
        ) {
          context.addIssue({ code: 'custom', message: ACTION_MESSAGES.headerNameReserved(name) });
        }
      }),
    /**
     * The value. A secret header's value is stored encrypted and never sent
     * back: on an update, null keeps the stored one.
     */
    value: z
      .string({ error: ACTION_MESSAGES.headerValueTooLong })
      .max(MAX_HEADER_VALUE_LENGTH, ACTION_MESSAGES.headerValueTooLong)
      .refine((value) => !/[\r\n]/.test(value), ACTION_MESSAGES.headerValueLineBreak)
      .nullable()
      .default(null),
    secret: z.boolean({ error: 'secret must be true or false' }).default(false),
  })
  .strict()
  .superRefine((header, context) => {
    if (!header.secret && header.value === null) {
      context.addIssue({
        code: 'custom',
        message: ACTION_MESSAGES.headerValueRequired(header.name),
        path: ['value'],
      });
    }
  });
export type WebhookHeaderInput = z.input<typeof webhookHeaderInput>;

type ParsedUrl = { protocol: string; hostname: string; username: string; password: string };
// The WHATWG URL parser of the browser and of Node.js; contracts compile without DOM or Node types.
const UrlParser = (globalThis as unknown as { URL: new (input: string) => ParsedUrl }).URL;

/** Why a webhook URL is not acceptable as written (the address itself is checked by the server). */
export function webhookUrlProblem(value: string): string | null {
  let url: ParsedUrl;
  try {
    url = new UrlParser(value);
  } catch {
    return ACTION_MESSAGES.urlInvalid;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ACTION_MESSAGES.urlInvalid;
  if (url.hostname === '') return ACTION_MESSAGES.urlInvalid;
  if (url.username !== '' || url.password !== '') return ACTION_MESSAGES.urlCredentials;
  return null;
}

export const webhookConfigInput = z
  .object({
    type: z.literal('webhook'),
    url: z
      .string({ error: ACTION_MESSAGES.urlRequired })
      .trim()
      .min(1, ACTION_MESSAGES.urlRequired)
      .max(MAX_WEBHOOK_URL_LENGTH, ACTION_MESSAGES.urlTooLong)
      .superRefine((value, context) => {
        if (value === '') return;
        const problem = webhookUrlProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    method: z.enum(WEBHOOK_METHODS, { error: ACTION_MESSAGES.methodInvalid }).default('POST'),
    headers: z
      .array(webhookHeaderInput)
      .max(MAX_WEBHOOK_HEADERS, ACTION_MESSAGES.tooManyHeaders)
      .default([])
      .superRefine((headers, context) => {
        const seen = new Set<string>();
        headers.forEach((header, index) => {
          const key = header.name.toLowerCase();
          if (seen.has(key)) {
            context.addIssue({
              code: 'custom',
              message: ACTION_MESSAGES.headerDuplicate(header.name),
              path: [index, 'name'],
            });
          }
          seen.add(key);
        });
      }),
    /** The request body; null sends the event as JSON. Values are escaped for JSON strings. */
    bodyTemplate: z
      .string()
      .max(MAX_BODY_TEMPLATE_LENGTH, ACTION_MESSAGES.bodyTemplateTooLong)
      .superRefine((value, context) => {
        const problem = templateProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .nullable()
      .default(null)
      .transform((value) => (value && value.trim() !== '' ? value : null)),
  })
  .strict();

const timeOfDay = z
  .string({ error: ACTION_MESSAGES.quietHoursTime })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, ACTION_MESSAGES.quietHoursTime);

/** Whether the runtime knows the IANA time zone (the browser and Node.js share the database). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const quietHoursSchema = z
  .object({
    start: timeOfDay,
    end: timeOfDay,
    timeZone: z.string({ error: ACTION_MESSAGES.timeZoneInvalid }).refine(isTimeZone, {
      message: ACTION_MESSAGES.timeZoneInvalid,
    }),
  })
  .strict()
  .refine((hours) => hours.start !== hours.end, { message: ACTION_MESSAGES.quietHoursSame, path: ['end'] });
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const frequencyCapSchema = z
  .object({
    count: z
      .number({ error: ACTION_MESSAGES.frequencyCount })
      .int(ACTION_MESSAGES.frequencyCount)
      .min(1, ACTION_MESSAGES.frequencyCount)
      .max(MAX_FREQUENCY_COUNT, ACTION_MESSAGES.frequencyCount),
    perHours: z
      .number({ error: ACTION_MESSAGES.frequencyHours })
      .int(ACTION_MESSAGES.frequencyHours)
      .min(1, ACTION_MESSAGES.frequencyHours)
      .max(MAX_FREQUENCY_HOURS, ACTION_MESSAGES.frequencyHours),
  })
  .strict();
export type FrequencyCap = z.infer<typeof frequencyCapSchema>;

export const emailRecipientsSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('learner') }).strict(),
    z
      .object({
        kind: z.literal('team'),
        roles: z
          .array(memberRoleSchema)
          .min(1, ACTION_MESSAGES.rolesRequired)
          .max(2)
          .default(['owner', 'team_member'])
          .transform((roles) => [...new Set(roles)]),
      })
      .strict(),
    z
      .object({
        kind: z.literal('addresses'),
        addresses: z
          .array(
            z
              .string({ error: ACTION_MESSAGES.recipientInvalid })
              .trim()
              .max(320, ACTION_MESSAGES.recipientInvalid)
              .pipe(z.email(ACTION_MESSAGES.recipientInvalid)),
          )
          .min(1, ACTION_MESSAGES.recipientsRequired)
          .max(MAX_EMAIL_RECIPIENTS, ACTION_MESSAGES.tooManyRecipients)
          .transform((addresses) => [...new Set(addresses.map((address) => address.toLowerCase()))]),
      })
      .strict(),
  ],
  { error: ACTION_MESSAGES.recipientKindInvalid },
);
export type EmailRecipients = z.output<typeof emailRecipientsSchema>;

export const emailConfigInput = z
  .object({
    type: z.literal('email'),
    to: emailRecipientsSchema,
    subject: templateSchema({
      required: ACTION_MESSAGES.subjectRequired,
      tooLong: ACTION_MESSAGES.subjectTooLong,
      max: MAX_EMAIL_SUBJECT_LENGTH,
    }).refine((value) => !/[\r\n]/.test(value), 'The subject cannot contain line breaks'),
    body: templateSchema({
      required: ACTION_MESSAGES.emailBodyRequired,
      tooLong: ACTION_MESSAGES.emailBodyTooLong,
      max: MAX_EMAIL_BODY_LENGTH,
    }),
    /** No e-mail goes out between these local times; it waits until they end. */
    quietHours: quietHoursSchema.nullable().default(null),
    /** At most `count` e-mails of this action per learner in `perHours` hours; the others are skipped. */
    frequencyCap: frequencyCapSchema.nullable().default(null),
  })
  .strict();

export const BROADCAST_MODES = ['set', 'clear'] as const;

export const broadcastConfigInput = z
  .object({
    type: z.literal('broadcast'),
    /** The course whose broadcast changes; null: the course of the event. */
    courseId: uuidSchema(ACTION_MESSAGES.courseIdInvalid).nullable().default(null),
    mode: z.enum(BROADCAST_MODES, { error: ACTION_MESSAGES.broadcastModeInvalid }).default('set'),
    message: z
      .string()
      .trim()
      .max(MAX_BROADCAST_MESSAGE_LENGTH, ACTION_MESSAGES.broadcastMessageTooLong)
      .superRefine((value, context) => {
        const problem = templateProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .nullable()
      .default(null)
      .transform((value) => (value ? value : null)),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.mode === 'set' && config.message === null) {
      context.addIssue({
        code: 'custom',
        message: ACTION_MESSAGES.broadcastMessageRequired,
        path: ['message'],
      });
    }
  })
  .transform((config) => (config.mode === 'clear' ? { ...config, message: null } : config));

export const variableValueInput = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('template'),
        template: templateSchema({
          required: ACTION_MESSAGES.variableValueInvalid,
          tooLong: ACTION_MESSAGES.variableValueTooLong,
          max: MAX_VARIABLE_TEXT_LENGTH,
          trim: false,
        }),
      })
      .strict(),
    z
      .object({
        kind: z.literal('literal'),
        value: z.union(
          [
            z.string().max(MAX_VARIABLE_TEXT_LENGTH, ACTION_MESSAGES.variableValueTooLong),
            z.number().finite(),
            z.boolean(),
            z.null(),
          ],
          { error: ACTION_MESSAGES.variableValueInvalid },
        ),
      })
      .strict(),
  ],
  { error: ACTION_MESSAGES.variableValueInvalid },
);
export type VariableValueInput = z.output<typeof variableValueInput>;

export const setVariableConfigInput = z
  .object({
    type: z.literal('set_variable'),
    /** A variable of the event's course, by name (registered on first use when the organization allows it). */
    variableName: z
      .string({ error: ACTION_MESSAGES.variableNameRequired })
      .trim()
      .min(1, ACTION_MESSAGES.variableNameRequired)
      .max(MAX_VARIABLE_NAME_LENGTH, ACTION_MESSAGES.variableNameTooLong),
    value: variableValueInput,
  })
  .strict();

export const notifyTeamConfigInput = z
  .object({
    type: z.literal('notify_team'),
    message: templateSchema({
      required: ACTION_MESSAGES.notificationRequired,
      tooLong: ACTION_MESSAGES.notificationTooLong,
      max: MAX_NOTIFICATION_LENGTH,
    }),
    /** Who the notification is for: owners, team members or both. */
    roles: z
      .array(memberRoleSchema)
      .min(1, ACTION_MESSAGES.rolesRequired)
      .max(2)
      .default(['owner', 'team_member'])
      .transform((roles) => [...new Set(roles)]),
  })
  .strict();

/** An action's settings, by type. */
export const actionConfigInput = z.discriminatedUnion(
  'type',
  [webhookConfigInput, emailConfigInput, broadcastConfigInput, setVariableConfigInput, notifyTeamConfigInput],
  { error: ACTION_MESSAGES.typeInvalid },
);
export type ActionConfigInput = z.input<typeof actionConfigInput>;
export type ActionConfig = z.output<typeof actionConfigInput>;
export type WebhookConfig = z.output<typeof webhookConfigInput>;
export type EmailConfig = z.output<typeof emailConfigInput>;
export type BroadcastConfig = z.output<typeof broadcastConfigInput>;
export type SetVariableConfig = z.output<typeof setVariableConfigInput>;
export type NotifyTeamConfig = z.output<typeof notifyTeamConfigInput>;

/** `POST /api/actions` and `PUT /api/actions/:actionId`: the whole action (the type cannot change). */
export const actionInput = z
  .object({
    name: z
      .string({ error: ACTION_MESSAGES.nameRequired })
      .trim()
      .min(1, ACTION_MESSAGES.nameRequired)
      .max(MAX_ACTION_NAME_LENGTH, ACTION_MESSAGES.nameTooLong),
    description: z
      .string()
      .trim()
      .max(MAX_ACTION_DESCRIPTION_LENGTH, ACTION_MESSAGES.descriptionTooLong)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
    active: z.boolean({ error: 'active must be true or false' }).default(true),
    config: actionConfigInput,
  })
  .strict();
export type ActionInput = z.input<typeof actionInput>;
export type ActionDraft = z.output<typeof actionInput>;

export const actionParams = z.object({ actionId: uuidSchema(ACTION_MESSAGES.notFound) });

export const ACTION_SORT_KEYS = ['createdAt', 'name', 'type', 'updatedAt'] as const;
export type ActionSortKey = (typeof ACTION_SORT_KEYS)[number];
/** `GET /api/actions`: newest first; `?q=` matches the name anywhere, ignoring case; `?type=` filters. */
export const listActionsQuery = listQuerySchema(ACTION_SORT_KEYS, {
  sort: 'createdAt',
  order: 'desc',
}).extend({
  type: z.enum(ACTION_TYPES, { error: ACTION_MESSAGES.typeInvalid }).optional(),
});
export type ListActionsQuery = z.input<typeof listActionsQuery>;

// ---- output ------------------------------------------------------------------------

/** A webhook header as stored and shown: a secret header's value never comes back. */
export const webhookHeaderView = z.object({
  name: z.string(),
  value: z.string().nullable(),
  secret: z.boolean(),
});
export type WebhookHeaderView = z.infer<typeof webhookHeaderView>;

const webhookConfigView = z.object({
  type: z.literal('webhook'),
  url: z.string(),
  method: z.enum(WEBHOOK_METHODS),
  headers: z.array(webhookHeaderView),
  bodyTemplate: z.string().nullable(),
});

/** An action's settings as the API shows them: the output of the input schemas, secrets left out. */
export const actionConfigView = z.discriminatedUnion('type', [
  webhookConfigView,
  z.object({
    type: z.literal('email'),
    to: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('learner') }),
      z.object({ kind: z.literal('team'), roles: z.array(memberRoleSchema) }),
      z.object({ kind: z.literal('addresses'), addresses: z.array(z.string()) }),
    ]),
    subject: z.string(),
    body: z.string(),
    quietHours: z.object({ start: z.string(), end: z.string(), timeZone: z.string() }).nullable(),
    frequencyCap: z.object({ count: z.number().int(), perHours: z.number().int() }).nullable(),
  }),
  z.object({
    type: z.literal('broadcast'),
    courseId: z.string().nullable(),
    mode: z.enum(BROADCAST_MODES),
    message: z.string().nullable(),
  }),
  z.object({
    type: z.literal('set_variable'),
    variableName: z.string(),
    value: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('template'), template: z.string() }),
      z.object({
        kind: z.literal('literal'),
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
      }),
    ]),
  }),
  z.object({ type: z.literal('notify_team'), message: z.string(), roles: z.array(memberRoleSchema) }),
]);
export type ActionConfigView = z.infer<typeof actionConfigView>;

export const actionListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(ACTION_TYPES),
  active: z.boolean(),
  /** What the action reaches, in a few words ("POST https://hooks.example.com/…", "The learner"). */
  target: z.string(),
  /** Pipelines with a node that runs this action. */
  usedByPipelines: z.number().int().nonnegative(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ActionListItem = z.infer<typeof actionListItemSchema>;
export const listActionsResponse = paginatedSchema(actionListItemSchema);
export type ListActionsResponse = z.infer<typeof listActionsResponse>;

export const actionSchema = actionListItemSchema.extend({
  config: actionConfigView,
  /** The start of the webhook's signing secret (`whsec_AbCd…`), to tell secrets apart; null for other types. */
  secretHint: z.string().nullable(),
});
export type ActionBody = z.infer<typeof actionSchema>;

/** 201 of `POST /api/actions`: a webhook's signing secret is in this answer only. */
export const createdActionSchema = actionSchema.extend({ secret: z.string().nullable() });
export type CreatedAction = z.infer<typeof createdActionSchema>;

/** 200 of `POST /api/actions/:actionId/rotate-secret`: the new secret, shown this once; the old one stops at once. */
export const rotatedActionSecretSchema = z.object({ secret: z.string(), secretHint: z.string() });
export type RotatedActionSecret = z.infer<typeof rotatedActionSecretSchema>;

const headerPair = z.object({ name: z.string(), value: z.string() });

/**
 * 200 of `POST /api/actions/:actionId/test`: what was sent and what came
 * back. Webhooks and e-mails are really sent (an e-mail to the person
 * testing); the other types only show what they would do (`preview`).
 */
export const actionTestResultSchema = z.object({
  ok: z.boolean(),
  channel: z.enum(['http', 'smtp', 'preview']),
  request: z.object({
    method: z.string(),
    /** The URL, the SMTP server (without its password), or what the action changes. */
    url: z.string(),
    headers: z.array(headerPair),
    body: z.string(),
  }),
  response: z
    .object({
      status: z.number().int(),
      statusText: z.string(),
      headers: z.array(headerPair),
      /** The first 4 KB of the answer's body. */
      body: z.string(),
      bodyTruncated: z.boolean(),
      /** `Retry-After` in seconds, when the answer had one. */
      retryAfterSeconds: z.number().int().nonnegative().nullable(),
    })
    .nullable(),
  durationMs: z.number().int().nonnegative(),
  /** Why nothing came back (refused address, timeout, connection error, SMTP error). */
  error: z.string().nullable(),
  /** What to know about this test, e.g. that a preview changed nothing. */
  note: z.string().nullable(),
});
export type ActionTestResult = z.infer<typeof actionTestResultSchema>;
