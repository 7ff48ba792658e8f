import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import {
  questionLeadersShape,
  questionRangeShape,
  questionReportShape,
  checkQuestionDayRange,
} from './question-reports';
import {
  checkReportRanges,
  leadersShape,
  reportIntervalShape,
  reportPagingShape,
  reportSearchShape,
  variableFilterShape,
} from './variable-reports';

/**
 * Shared views (issue 6, item 4): a course variable's or a question's
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
  kind: z.enum(['variable', 'question']),
  enabled: z.boolean(),
  /** Null until sharing is switched on the first time. */
  token: z.string().nullable(),
  viewCount: z.number().int().nonnegative(),
  /** What the shared link names: the course and the variable name, or the question. */
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

const token = z.string().max(200).optional();
const sharedVariableTarget = {
  courseId: z.string().max(100).optional(),
  name: z.string().max(200).optional(),
  token,
};

export const sharedVariableReportQuery = z
  .object({ ...sharedVariableTarget, ...variableFilterShape, ...reportSearchShape, ...reportPagingShape })
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
  .superRefine(checkQuestionDayRange);
export const sharedQuestionChartQuery = z
  .object({ token, ...questionRangeShape, ...reportIntervalShape })
  .superRefine(checkQuestionDayRange);
export const sharedQuestionLeadersQuery = z
  .object({ token, ...questionLeadersShape })
  .superRefine(checkQuestionDayRange);
