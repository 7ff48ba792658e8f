import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/**
 * Putting the contract's problems on a form's fields. The form checks its
 * values with the contract's schema and the server answers a 400 with the
 * same rules' issues, so both go through here and show the same words in the
 * same place.
 */

/** A problem as the contract's schema or the server names it. */
export type PathIssue = { path: string | readonly PropertyKey[]; message: string };

/**
 * An issue's path as parts inside the body a form sends: the schema gives
 * `['variables', 0, 'name']`, the server writes `body.variables.0.name`.
 */
export function issuePathParts(path: PathIssue['path']): string[] {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).filter((part) => part !== '');
  if (parts[0] === 'body') parts.shift();
  return parts;
}

/** Puts `message` at a dotted field path of an errors object (the first message of a field wins). */
function placeError(errors: Record<string, unknown>, path: string, message: string): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = errors;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else node = node[part] = {};
  }
  const last = parts[parts.length - 1] ?? 'root';
  if (node[last] === undefined) node[last] = { type: 'validation', message };
}

/** react-hook-form's errors from issues, each at the field `fieldOf` names for its path (`root` for none). */
export function fieldErrorsOf<Values extends FieldValues>(
  issues: readonly PathIssue[],
  fieldOf: (path: PathIssue['path']) => string,
): FieldErrors<Values> {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) placeError(errors, fieldOf(issue.path), issue.message);
  return errors as FieldErrors<Values>;
}

/** react-hook-form's resolver from a check that returns the values' errors (none: the values are valid). */
export function resolverOf<Values extends FieldValues>(
  validate: (values: Values) => FieldErrors<Values>,
): Resolver<Values> {
  return (values) => {
    const errors = validate(values);
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
  };
}
