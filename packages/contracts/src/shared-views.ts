import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import {
  questionChartResponse,
  questionLeadersResponse,
  questionLeadersShape,
  questionRangeShape,
  questionReportResponse,
  questionReportShape,
  checkQuestionDayRange,
} from './question-reports';
import {
  checkReportRanges,
  leadersShape,
  reportIntervalShape,
  reportPagingShape,
  reportSearchShape,
  variableChartResponse,
  variableFilterShape,
  variableLeadersResponse,
  variableReportResponse,
} from './variable-reports';

/**
 * Shared views: a course variable's or a question's
 * report, chart and leaders readable without sign-in while sharing is on,
 * through an unguessable token carried in the link. Every failure (wrong
 * token, sharing off, unknown target) answers the same 404.
 */

export const SHARED_VIEW_MESSAGES = {
  /** The one answer for every shared view that cannot be shown: it reveals nothing. */
  notShared: 'This view is not shared',
  enabledRequired: 'Send enabled: true or false',
} as const;

export const shareSettingsSchema = z.object({
  kind: z.enum(['variable', 'question', 'chatbot_variable']),
  enabled: z.boolean(),
  /** Null until sharing is switched on the first time. */
  token: z.string().nullable(),
  viewCount: z.number().int().nonnegative(),
  /** What the shared link names: the course (for an agent's variable, the agent) and the variable name, or the question. */
  courseId: z.string(),
  variableName: z.string().nullable(),
  questionId: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type ShareSettings = z.infer<typeof shareSettingsSchema>;

export const updateShareInput = z.object({
  enabled: z.boolean({ error: SHARED_VIEW_MESSAGES.enabledRequired }),
});
export type UpdateShareInput = z.infer<typeof updateShareInput>;

export const shareVariableParams = z.object({ variableId: uuidSchema(LEARNING_MESSAGES.variableNotFound) });
export const shareQuestionParams = z.object({ questionId: uuidSchema(LEARNING_MESSAGES.questionNotFound) });
export const shareChatbotVariableParams = z.object({
  chatbotVariableId: uuidSchema(LEARNING_MESSAGES.variableNotFound),
});

const token = z.string().max(200).optional();
const sharedVariableTarget = {
  courseId: z.string().max(100).optional(),
  name: z.string().max(200).optional(),
  token,
};

// A shared view has no learner search: the search matches e-mail addresses
// too, and a visitor could test whether an address is among the learners.
// A `q` in the link is dropped (not refused), so an old link still opens.
export const sharedVariableReportQuery = z
  .object({ ...sharedVariableTarget, ...variableFilterShape, ...reportSearchShape, ...reportPagingShape })
  .omit({ q: true })
  .superRefine(checkReportRanges);
export const sharedVariableChartQuery = z
  .object({ ...sharedVariableTarget, ...variableFilterShape, ...reportIntervalShape })
  .superRefine(checkReportRanges);
export const sharedVariableLeadersQuery = z
  .object({ ...sharedVariableTarget, ...variableFilterShape, ...leadersShape })
  .superRefine(checkReportRanges);

export const sharedQuestionParams = z.object({ questionId: z.string().max(100) });
export const sharedQuestionReportQuery = z
  .object({ token, ...questionReportShape, ...reportPagingShape })
  .omit({ q: true })
  .superRefine(checkQuestionDayRange);
export const sharedQuestionChartQuery = z
  .object({ token, ...questionRangeShape, ...reportIntervalShape })
  .superRefine(checkQuestionDayRange);
export const sharedQuestionLeadersQuery = z
  .object({ token, ...questionLeadersShape })
  .superRefine(checkQuestionDayRange);

/**
 * Whose view it is: every shared answer names the organization that shares
 * it (its name only: never a person, never an e-mail address).
 */
export const sharedViewOrganizationSchema = z.object({ name: z.string() });
export const sharedViewContextSchema = z.object({ organization: sharedViewOrganizationSchema });
export type SharedViewContext = z.infer<typeof sharedViewContextSchema>;

const sharedViewContextShape = sharedViewContextSchema.shape;
export const sharedVariableReportResponse = variableReportResponse.extend(sharedViewContextShape);
export const sharedVariableChartResponse = variableChartResponse.extend(sharedViewContextShape);
export const sharedVariableLeadersResponse = variableLeadersResponse.extend(sharedViewContextShape);
export const sharedQuestionReportResponse = questionReportResponse.extend(sharedViewContextShape);
export const sharedQuestionChartResponse = questionChartResponse.extend(sharedViewContextShape);
export const sharedQuestionLeadersResponse = questionLeadersResponse.extend(sharedViewContextShape);

/** The name of the organization a shared-view answer names, or null for any other body. */
export function sharedViewOrganizationName(body: unknown): string | null {
  const parsed = sharedViewContextSchema.safeParse(body);
  return parsed.success ? parsed.data.organization.name : null;
}
