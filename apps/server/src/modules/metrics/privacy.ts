import { sql, type SQL } from 'drizzle-orm';

// The one rule for learners in anything a report shows: a learner is named,
// never addressed. No e-mail address leaves in a report row, a chart, a
// summary or a public payload, and a name that is an e-mail address (some
// courses send the address as the name) is withheld the same way.

export const UNNAMED_LEARNER = 'Unnamed learner';

/** SQL for the display name of the learner row aliased `alias` (never its e-mail). */
export function learnerDisplayName(alias: string): SQL {
  return sql.raw(`case when ${alias}.name is null or btrim(${alias}.name) = '' or ${alias}.name like '%@%'
              then '${UNNAMED_LEARNER}' else ${alias}.name end`);
}

const EMAIL_ANYWHERE = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/g;

/**
 * Free text for anything that leaves the organization (a public report, a
 * summary sent to a model): an e-mail address inside it (a learner's answer,
 * a name) is hidden.
 */
export function withoutEmails(text: string): string;
export function withoutEmails(text: string | null): string | null;
export function withoutEmails(text: string | null): string | null {
  return text === null ? null : text.replace(EMAIL_ANYWHERE, '(hidden)');
}
