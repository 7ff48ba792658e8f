import { describe, expect, it } from 'vitest';
import { parseCapsCli } from './caps-cli';

describe('billing:caps command line', () => {
  it('reads caps as numbers and "plan" as back to the plan’s', () => {
    expect(
      parseCapsCli(['--organization', ' Acme-Learning ', '--max-courses', '50', '--max-learners', 'plan']),
    ).toEqual({ subdomain: 'acme-learning', overrides: { courses: 50, learners: null } });
    expect(parseCapsCli(['--organization', 'acme'])).toEqual({ subdomain: 'acme', overrides: {} });
  });

  it('refuses what it cannot read, saying what to write instead', () => {
    expect(() => parseCapsCli(['--max-courses', '5'])).toThrow('--organization <subdomain> is required');
    expect(() => parseCapsCli(['--organization', 'acme', '--max-courses=-3'])).toThrow(
      '--max-courses must be a whole number or "plan" (got "-3")',
    );
    expect(() => parseCapsCli(['--organization', 'acme', '--max-learners', 'lots'])).toThrow(
      '--max-learners must be a whole number or "plan" (got "lots")',
    );
    expect(() => parseCapsCli(['--organization', 'acme', '--max-seats', '3'])).toThrow();
  });
});
