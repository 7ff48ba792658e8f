import {
  ANALYTICS_MESSAGES,
  analyticsSettingsInput,
  type AnalyticsSettings,
  type AnalyticsSettingsInput,
  type CompletionRule,
  type ItemAnalysisAttempts,
} from '@courselens/contracts';

import { issuePathParts, type PathIssue } from '@/lib/form-errors';

/** The settings as the form edits them: numbers and lists as typed. */
export type SettingsFormValues = {
  timeZone: string;
  defaultPassMark: string;
  coursePassMarks: { courseId: string; passMark: string }[];
  completion: CompletionRule;
  excludedDomains: string;
  excludedEmails: string;
  itemAnalysisAttempts: ItemAnalysisAttempts;
  funnelWindowDays: string;
  inactiveDays: string;
};

/** Which part of the form a problem belongs to: a top-level field, or one course's pass mark. */
export type SettingsFormErrors = Partial<
  Record<Exclude<keyof SettingsFormValues, 'coursePassMarks'>, string>
> & {
  coursePassMarks?: string;
  coursePassMarkRows?: Record<number, string>;
};

export function toFormValues(settings: AnalyticsSettings): SettingsFormValues {
  return {
    timeZone: settings.timeZone,
    defaultPassMark: String(settings.defaultPassMark),
    coursePassMarks: settings.coursePassMarks.map((mark) => ({
      courseId: mark.courseId,
      passMark: String(mark.passMark),
    })),
    completion: settings.completion,
    excludedDomains: settings.excludedDomains.join('\n'),
    excludedEmails: settings.excludedEmails.join('\n'),
    itemAnalysisAttempts: settings.itemAnalysisAttempts,
    funnelWindowDays: String(settings.funnelWindowDays),
    inactiveDays: String(settings.inactiveDays),
  };
}

/** A typed number; an empty or non-numeric field stays NaN so the contract names the problem. */
function typedNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));
}

/** Addresses and domains may be pasted one per line, or separated by commas, semicolons or spaces. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function toSettingsInput(values: SettingsFormValues): AnalyticsSettingsInput {
  return {
    timeZone: values.timeZone,
    defaultPassMark: typedNumber(values.defaultPassMark),
    coursePassMarks: values.coursePassMarks.map((mark) => ({
      courseId: mark.courseId,
      passMark: typedNumber(mark.passMark),
    })),
    completion: values.completion,
    excludedDomains: splitList(values.excludedDomains),
    excludedEmails: splitList(values.excludedEmails),
    itemAnalysisAttempts: values.itemAnalysisAttempts,
    funnelWindowDays: typedNumber(values.funnelWindowDays),
    inactiveDays: typedNumber(values.inactiveDays),
  };
}

/**
 * The contract's (or the server's) problems placed on the form: a list's
 * problem on the list's field (naming the entry), a course's on its row.
 * The first problem of a place wins.
 */
export function formErrorsOf(issues: readonly PathIssue[], values?: SettingsFormValues): SettingsFormErrors {
  const errors: SettingsFormErrors = {};
  for (const issue of issues) {
    const [field, index] = issuePathParts(issue.path);
    if (field === 'coursePassMarks' && index !== undefined && /^\d+$/.test(index)) {
      errors.coursePassMarkRows ??= {};
      errors.coursePassMarkRows[Number(index)] ??= issue.message;
    } else if (field === 'excludedDomains' || field === 'excludedEmails') {
      const entries = values ? splitList(values[field]) : [];
      const entry = index !== undefined ? entries[Number(index)] : undefined;
      errors[field] ??= entry ? `${issue.message} (“${entry}”)` : issue.message;
    } else if (field && field in FIELD_NAMES) {
      const key = field as keyof typeof FIELD_NAMES;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

const FIELD_NAMES = {
  timeZone: true,
  defaultPassMark: true,
  coursePassMarks: true,
  completion: true,
  excludedDomains: true,
  excludedEmails: true,
  itemAnalysisAttempts: true,
  funnelWindowDays: true,
  inactiveDays: true,
} as const;

/** The form's values checked with the contract: the settings to send, or the problems to show. */
export function validateSettings(
  values: SettingsFormValues,
): { settings: AnalyticsSettingsInput; errors: null } | { settings: null; errors: SettingsFormErrors } {
  const input = toSettingsInput(values);
  const parsed = analyticsSettingsInput.safeParse(input);
  // A row added but not filled in yet: say what to do, not that its (empty) course is unknown.
  const unchosen = values.coursePassMarks.flatMap((mark, index) =>
    mark.courseId === ''
      ? [{ path: ['coursePassMarks', index, 'courseId'], message: ANALYTICS_MESSAGES.courseRequired }]
      : [],
  );
  if (parsed.success && unchosen.length === 0) return { settings: parsed.data, errors: null };
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
  return { settings: null, errors: formErrorsOf([...unchosen, ...issues], values) };
}

export function hasErrors(errors: SettingsFormErrors): boolean {
  return Object.keys(errors).some((key) => {
    const value = errors[key as keyof SettingsFormErrors];
    return typeof value === 'string' || (typeof value === 'object' && Object.keys(value).length > 0);
  });
}
