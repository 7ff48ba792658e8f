import { describe, expect, it } from 'vitest';

/**
 * A placeholder sits where a person types: if it looks like real data (a
 * course title, an e-mail, a subdomain, a time), it reads as a value already
 * filled in. Placeholders describe what goes there instead ("Course title").
 */
const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/**
 * Every literal placeholder: `placeholder="…"` and `placeholder={'…'}` / `{"…"}` / `` {`…`} ``,
 * `|| '…'` fallbacks, and both branches of `placeholder={cond ? '…' : '…'}`.
 */
function literalPlaceholders(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/placeholder=(?:"([^"]*)"|\{\s*(['"`])((?:(?!\2).)*)\2\s*\})/g)) {
    found.push(match[1] ?? match[3] ?? '');
  }
  for (const match of source.matchAll(/placeholder=\{[^}\n]*\|\|\s*(['"`])((?:(?!\1).)*)\1/g)) {
    found.push(match[2] ?? '');
  }
  for (const match of source.matchAll(
    /placeholder=\{[^?}\n]+\?\s*(['"`])((?:(?!\1).)*)\1\s*:\s*(['"`])((?:(?!\3).)*)\3\s*\}/g,
  )) {
    found.push(match[2] ?? '', match[4] ?? '');
  }
  return found;
}

const looksLikeData: { rule: string; test: (text: string) => boolean }[] = [
  { rule: 'an e-mail address', test: (text) => /\S@\S/.test(text) },
  { rule: 'an example ("e.g.")', test: (text) => /\be\.g\./i.test(text) },
  { rule: 'a time of day', test: (text) => /\b\d{1,2}:\d{2}\b/.test(text) },
  { rule: 'a slug (real-looking-id)', test: (text) => /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text) },
  { rule: 'the demo data', test: (text) => /acme|workplace safety|fire safety/i.test(text) },
];

describe('form placeholders', () => {
  it('finds the placeholders it checks', () => {
    const all = Object.values(sources).flatMap(literalPlaceholders);
    expect(all).toContain('Course title');
    // Both branches of a conditional placeholder (the action form's secret header value).
    expect(all).toContain('Stored and encrypted: leave empty to keep');
    expect(all).toContain('Value');
    // The pipeline generator's prompt and the settings it asks for.
    expect(all).toContain('When a learner does something in a course, what should happen');
    expect(all).toContain('The address that receives the event');
    expect(all.length).toBeGreaterThan(10);
  });

  it('describe what goes in the field, never look like real data', () => {
    const offenders = Object.entries(sources).flatMap(([file, source]) =>
      literalPlaceholders(source).flatMap((text) =>
        looksLikeData
          .filter(({ test }) => test(text))
          .map(({ rule }) => `${file}: "${text}" looks like ${rule}`),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
