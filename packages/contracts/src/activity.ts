import { z } from 'zod';
import { isUuid } from './ids';

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, paginatedSchema } from './list';

/**
 * Kinds of the organization's activity feed (the server's
 * `activity_events.kind`; a test keeps both lists equal). The column is open
 * text, so a kind missing here still shows, under its raw name.
 */
export const ACTIVITY_KINDS = [
  'events.ingested',
  'course.created',
  'course.updated',
  'course.deleted',
  'broadcast.set',
  'api_key.created',
  'api_key.revoked',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'report.created',
  'report.shared',
  'report.unshared',
  'organization.updated',
  'pipeline.created',
  'pipeline.updated',
  'pipeline.activated',
  'pipeline.deactivated',
  'pipeline.deleted',
  'pipeline.run_failed',
  'action.created',
  'action.updated',
  'action.deleted',
  'action.secret_rotated',
  'action.email_sent',
  'action.notification',
  'chatbot.created',
  'chatbot.updated',
  'chatbot.deleted',
  'analytics.settings_updated',
  'analytics.funnel_saved',
  'analytics.funnel_deleted',
  'billing.plan_changed',
  'billing.usage_notice',
  'billing.cap_reached',
  'billing.payment_failed',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** What a person reads for each kind (feed, filter chips, CSV). */
export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  'events.ingested': 'Events ingested',
  'course.created': 'Course created',
  'course.updated': 'Course updated',
  'course.deleted': 'Course deleted',
  'broadcast.set': 'Broadcast updated',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.role_changed': 'Member role changed',
  'member.removed': 'Member removed',
  'report.created': 'Report created',
  'report.shared': 'Report shared',
  'report.unshared': 'Report unshared',
  'organization.updated': 'Organization updated',
  'pipeline.created': 'Pipeline created',
  'pipeline.updated': 'Pipeline updated',
  'pipeline.activated': 'Pipeline turned on',
  'pipeline.deactivated': 'Pipeline turned off',
  'pipeline.deleted': 'Pipeline deleted',
  'pipeline.run_failed': 'Pipeline run failed',
  'action.created': 'Action created',
  'action.updated': 'Action updated',
  'action.deleted': 'Action deleted',
  'action.secret_rotated': 'Webhook secret rotated',
  'action.email_sent': 'Email sent by an action',
  'action.notification': 'Team notified by an action',
  'chatbot.created': 'Chatbot created',
  'chatbot.updated': 'Chatbot updated',
  'chatbot.deleted': 'Chatbot deleted',
  'analytics.settings_updated': 'Analytics settings updated',
  'analytics.funnel_saved': 'Funnel saved',
  'analytics.funnel_deleted': 'Funnel deleted',
  'billing.plan_changed': 'Plan changed',
  'billing.usage_notice': 'Usage notice',
  'billing.cap_reached': 'Plan limit reached',
  'billing.payment_failed': 'Payment failed',
};

/** The readable label of a kind; an unknown kind (logged by a newer module) reads as itself. */
export function activityKindLabel(kind: string): string {
  return (ACTIVITY_KIND_LABELS as Record<string, string>)[kind] ?? kind;
}

/** Groups for the feed's filter: several kinds under one chip. */
export const ACTIVITY_KIND_GROUPS = [
  { id: 'ingestion', label: 'Ingestion', kinds: ['events.ingested'] },
  {
    id: 'courses',
    label: 'Courses',
    kinds: ['course.created', 'course.updated', 'course.deleted', 'broadcast.set'],
  },
  { id: 'api-keys', label: 'API keys', kinds: ['api_key.created', 'api_key.revoked'] },
  {
    id: 'team',
    label: 'Team',
    kinds: ['member.invited', 'member.joined', 'member.role_changed', 'member.removed'],
  },
  { id: 'reports', label: 'Reports', kinds: ['report.created', 'report.shared', 'report.unshared'] },
  { id: 'organization', label: 'Organization', kinds: ['organization.updated'] },
  {
    id: 'pipelines',
    label: 'Pipelines',
    kinds: [
      'pipeline.created',
      'pipeline.updated',
      'pipeline.activated',
      'pipeline.deactivated',
      'pipeline.deleted',
      'pipeline.run_failed',
    ],
  },
  {
    id: 'actions',
    label: 'Actions',
    kinds: [
      'action.created',
      'action.updated',
      'action.deleted',
      'action.secret_rotated',
      'action.email_sent',
      'action.notification',
    ],
  },
  { id: 'chatbots', label: 'Chatbots', kinds: ['chatbot.created', 'chatbot.updated', 'chatbot.deleted'] },
  {
    id: 'analytics',
    label: 'Analytics',
    kinds: ['analytics.settings_updated', 'analytics.funnel_saved', 'analytics.funnel_deleted'],
  },
  {
    id: 'billing',
    label: 'Billing',
    kinds: ['billing.plan_changed', 'billing.usage_notice', 'billing.cap_reached', 'billing.payment_failed'],
  },
] as const satisfies readonly { id: string; label: string; kinds: readonly ActivityKind[] }[];

/** `actor=system`: activity without a person (ingestion through an API key). */
export const SYSTEM_ACTOR = 'system';

export const ACTIVITY_MESSAGES = {
  badKind: `Kind must be one or more of: ${ACTIVITY_KINDS.join(', ')}`,
  badActor: 'Actor must be a user id or "system"',
  badDate: 'Dates must be written YYYY-MM-DD',
  badRange: 'The start date must be on or before the end date',
} as const;

const day = z.iso.date({ error: ACTIVITY_MESSAGES.badDate });

const activityFilters = z.object({
  q: z.string().trim().max(200, 'Search must be at most 200 characters long').optional(),
  kind: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const kinds = [
        ...new Set(
          value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean),
        ),
      ];
      if (kinds.length === 0) return undefined;
      if (!kinds.every((kind) => (ACTIVITY_KINDS as readonly string[]).includes(kind))) {
        context.addIssue({ code: 'custom', message: ACTIVITY_MESSAGES.badKind });
        return z.NEVER;
      }
      return kinds as ActivityKind[];
    }),
  actor: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || value === SYSTEM_ACTOR || isUuid(value), ACTIVITY_MESSAGES.badActor)
    .transform((value) => value || undefined),
  from: day.optional(),
  to: day.optional(),
});

const isOrderedRange = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || query.from <= query.to;

/**
 * `GET /api/activity`: newest first. `kind` takes one kind or several
 * separated by commas; `actor` a user id or `system`; `from` and `to` are
 * whole days in UTC, both included; `q` searches the summary.
 */
export const activityQuerySchema = activityFilters
  .extend({
    page: z.coerce
      .number({ error: 'Page must be a whole number of 1 or more' })
      .int('Page must be a whole number of 1 or more')
      .min(1, 'Page must be a whole number of 1 or more')
      .max(1_000_000, 'Page must be at most 1000000')
      .default(1),
    pageSize: z.coerce
      .number({ error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .int(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .min(1, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .max(MAX_PAGE_SIZE, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .default(DEFAULT_PAGE_SIZE),
  })
  .refine(isOrderedRange, { message: ACTIVITY_MESSAGES.badRange, path: ['to'] });

/** `GET /api/activity/export`: the same filters, every page. */
export const activityExportQuerySchema = activityFilters.refine(isOrderedRange, {
  message: ACTIVITY_MESSAGES.badRange,
  path: ['to'],
});
export type ActivityExportQuery = z.input<typeof activityExportQuerySchema>;
export type ParsedActivityExportQuery = z.output<typeof activityExportQuerySchema>;
export type ActivityQuery = z.input<typeof activityQuerySchema>;
export type ParsedActivityQuery = z.output<typeof activityQuerySchema>;

export const activityActorSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ActivityActor = z.infer<typeof activityActorSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  kind: z.string(),
  /** `activityKindLabel(kind)`, so every client reads the same words. */
  label: z.string(),
  summary: z.string().nullable(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** Null for system activity (ingestion through an API key) or a deleted account. */
  actor: activityActorSchema.nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityListResponse = paginatedSchema(activityItemSchema);
export type ActivityListResponse = z.infer<typeof activityListResponse>;

/** `GET /api/activity/actors`: the people who appear in the feed, for its actor filter. */
export const activityActorsResponse = z.object({ actors: z.array(activityActorSchema) });
export type ActivityActorsResponse = z.infer<typeof activityActorsResponse>;
