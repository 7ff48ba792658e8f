/**
 * Text the database can store. PostgreSQL's `text` and `jsonb` cannot hold a
 * NUL character (U+0000), and an unpaired UTF-16 surrogate (half of an emoji,
 * "\ud800") has no UTF-8 form: `jsonb` refuses it and `text` silently turns
 * it into U+FFFD. JSON and URLs can carry both, so every string of a request
 * is checked before anything is parsed further or stored. The server applies
 * this to whole requests (`plugins/request-text.ts`); batch endpoints apply
 * it to each item so that one bad item does not reject the others.
 */

/** How deep the JSON of a request may nest; our deepest body (a custom report) uses 4 levels. */
export const MAX_INPUT_DEPTH = 32;

export type TextProblem = 'nul' | 'unpaired-surrogate';

const NUL = '\u0000';
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What makes `value` impossible to store as text, or null when it is fine. */
export function textProblem(value: string): TextProblem | null {
  if (value.includes(NUL)) return 'nul';
  if (UNPAIRED_SURROGATE.test(value)) return 'unpaired-surrogate';
  return null;
}

/**
 * `value` without what cannot be stored (NUL characters and unpaired
 * surrogates), for text that is read rather than typed: a file's
 * extracted text keeps its meaning without them.
 */
export function storableText(value: string): string {
  return value.split(NUL).join('').replace(new RegExp(UNPAIRED_SURROGATE.source, 'g'), '');
}

/** The message for a field (`q`, `message`, `items.0.title`) holding such a string. */
export function textProblemMessage(field: string, problem: TextProblem): string {
  return problem === 'nul'
    ? `${field} must not contain a NUL character`
    : `${field} contains an invalid character (an unpaired UTF-16 surrogate)`;
}

export type InvalidInput = {
  /** Where the problem is, from the root of the checked value (`['items', 0, 'title']`); empty for the root. */
  path: (string | number)[];
  /** For a person: names the field, e.g. "message must not contain a NUL character". */
  message: string;
};

type Pending = { value: unknown; path: (string | number)[]; depth: number };

function fieldName(path: readonly (string | number)[], root: string): string {
  return path.length === 0 ? root : path.join('.');
}

/**
 * The first string (or object key) in a JSON-like value that cannot be stored
 * as text, or a nesting deeper than `maxDepth`; null when there is none.
 * Walks with an explicit stack, so a hostile, deeply nested value cannot
 * overflow the call stack. `root` names the value itself in messages.
 */
export function findInvalidInput(
  value: unknown,
  options: { root: string; maxDepth?: number } = { root: 'value' },
): InvalidInput | null {
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const stack: Pending[] = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as Pending;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { path, message: textProblemMessage(fieldName(path, options.root), problem) };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) {
      return {
        path,
        message: `${fieldName(path, options.root)} is nested too deeply (at most ${maxDepth} levels)`,
      };
    }
    const children: Pending[] = [];
    if (Array.isArray(current)) {
      current.forEach((item, index) =>
        children.push({ value: item, path: [...path, index], depth: depth + 1 }),
      );
    } else {
      for (const [key, item] of Object.entries(current)) {
        const problem = textProblem(key);
        if (problem) {
          const message = `${fieldName(path, options.root)} has a field name that ${
            problem === 'nul'
              ? 'contains a NUL character'
              : 'contains an invalid character (an unpaired UTF-16 surrogate)'
          }`;
          return { path, message };
        }
        children.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
    }
    // Reversed, so the first field of the request is reported first.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Pending);
  }
  return null;
}
