import {
  ANALYTICS_MESSAGES,
  DEFAULT_ANALYTICS_SETTINGS,
  analyticsSettingsInput,
  canManage,
  type AnalyticsBasis,
  type AnalyticsSettings,
  type AnalyticsSettingsChanges,
  type AnalyticsSettingsResponse,
  type MemberRole,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { insertActivity } from '../organizations/organizations.queries';
import { countExcludedLearners } from './analytics-learners.queries';
import { selectCourseTitles, selectSettingsRow, upsertSettingsRow } from './analytics-settings.queries';

/**
 * What every analytics query of one organization needs: the organization and
 * its settings. Services load it once per request and hand it to the
 * queries, which read the settings through `analytics-filters.queries.ts`.
 */
export type AnalyticsScope = { organizationId: string; settings: AnalyticsSettings };

/**
 * The stored settings with today's defaults under them. A document written
 * by an older version (or a field a later version no longer accepts) falls
 * back field by field, so one stale value never resets the others.
 */
export function readSettings(config: unknown): AnalyticsSettings {
  const parsed = analyticsSettingsInput.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  const stored = (typeof config === 'object' && config !== null ? config : {}) as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...DEFAULT_ANALYTICS_SETTINGS };
  for (const [key, value] of Object.entries(stored)) {
    const field = analyticsSettingsInput.shape[key as keyof AnalyticsSettings] as
      (typeof analyticsSettingsInput.shape)[keyof AnalyticsSettings] | undefined;
    const one = field?.safeParse(value);
    if (one?.success) settings[key] = one.data;
  }
  return settings as AnalyticsSettings;
}

export async function loadAnalyticsScope(db: Database, organizationId: string): Promise<AnalyticsScope> {
  const row = await selectSettingsRow(db, organizationId);
  return { organizationId, settings: readSettings(row?.config) };
}

/** How an answer was computed, for the screen to say (time zone, completion rule, learners left out). */
export async function analyticsBasis(db: Database, scope: AnalyticsScope): Promise<AnalyticsBasis> {
  const { excluded } = await countExcludedLearners(db, scope.organizationId, scope.settings);
  return {
    timeZone: scope.settings.timeZone,
    completion: scope.settings.completion,
    excludedLearners: excluded,
    // Computed now; an answer served as it was a moment ago says when (recent-analytics.ts).
    computedAt: new Date().toISOString(),
    refreshing: false,
  };
}

export async function getAnalyticsSettings(
  db: Database,
  organizationId: string,
  role: MemberRole | null,
): Promise<AnalyticsSettingsResponse> {
  const row = await selectSettingsRow(db, organizationId);
  const settings = readSettings(row?.config);
  const [courses, counts] = await Promise.all([
    selectCourseTitles(
      db,
      organizationId,
      settings.coursePassMarks.map((mark) => mark.courseId),
    ),
    countExcludedLearners(db, organizationId, settings),
  ]);
  const live = new Set(courses.map((course) => course.id));
  return {
    // A deleted course's pass mark no longer applies; it is left out here and dropped on the next save.
    settings: {
      ...settings,
      coursePassMarks: settings.coursePassMarks.filter((mark) => live.has(mark.courseId)),
    },
    courses,
    excludedLearners: counts.excluded,
    totalLearners: counts.total,
    updatedAt: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
    canEdit: canManage(role),
  };
}

/** Changes the settings sent (the others keep their value) and records who did it. */
export async function updateAnalyticsSettings(
  db: Database,
  input: { organizationId: string; userId: string; role: MemberRole | null; patch: AnalyticsSettingsChanges },
): Promise<AnalyticsSettingsResponse> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const stored = readSettings((await selectSettingsRow(t, input.organizationId))?.config);
    const changes = Object.fromEntries(
      Object.entries(input.patch).filter(([, value]) => value !== undefined),
    );
    const settings: AnalyticsSettings = { ...stored, ...changes };
    const courseIds = settings.coursePassMarks.map((mark) => mark.courseId);
    const found = await selectCourseTitles(t, input.organizationId, courseIds);
    if (found.length !== new Set(courseIds).size) {
      const known = new Set(found.map((course) => course.id));
      const index = courseIds.findIndex((id) => !known.has(id));
      throw new AppError('VALIDATION_ERROR', ANALYTICS_MESSAGES.courseRequired, [
        { path: `body.coursePassMarks.${index}.courseId`, message: ANALYTICS_MESSAGES.courseRequired },
      ]);
    }
    await upsertSettingsRow(t, input.organizationId, settings);
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'analytics.settings_updated',
      subjectType: 'organization',
      subjectId: input.organizationId,
      summary: 'Analytics settings updated',
      details: { changed: Object.keys(changes) },
    });
  });
  return getAnalyticsSettings(db, input.organizationId, input.role);
}
