import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESERVED_SUBDOMAINS } from './reserved-subdomains';
import {
  SUBDOMAIN_MESSAGES,
  deriveSubdomain,
  isValidSubdomain,
  slugifySubdomain,
  subdomainProblem,
  subdomainSchema,
} from './subdomain';

const VALID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

describe('subdomain rules', () => {
  it.each([
    ['', SUBDOMAIN_MESSAGES.empty],
    ['ab', 'Subdomain must be at least 3 characters long'],
    ['a'.repeat(51), 'Subdomain must be at most 50 characters long'],
    ['Acme', 'Subdomain can only contain lowercase letters, numbers, and hyphens'],
    ['acme_learning', 'Subdomain can only contain lowercase letters, numbers, and hyphens'],
    ['-acme', 'Subdomain cannot start or end with a hyphen'],
    ['acme-', 'Subdomain cannot start or end with a hyphen'],
    ['ac--me', 'Subdomain cannot contain consecutive hyphens'],
    ['admin', 'This subdomain is reserved and cannot be used'],
    ['www', 'This subdomain is reserved and cannot be used'],
  ])('%j -> %s', (value, message) => {
    expect(subdomainProblem(value)).toBe(message);
    const result = subdomainSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('accepts ordinary subdomains', () => {
    for (const value of ['acme', 'acme-learning', 'a1b', 'x'.repeat(50), '123']) {
      expect(subdomainProblem(value)).toBeNull();
    }
  });

  it('reserves every word the spec names, and at least 100 in all', () => {
    const named =
      'www api admin app login support billing docs blog course courses learner student chatbot org team public private';
    for (const word of named.split(' ')) expect(RESERVED_SUBDOMAINS.has(word)).toBe(true);
    expect(RESERVED_SUBDOMAINS.size).toBeGreaterThanOrEqual(100);
    for (const word of RESERVED_SUBDOMAINS) {
      expect(word).toMatch(VALID);
      expect(word.length).toBeLessThanOrEqual(50);
    }
  });

  it('accepts exactly the well-formed, unreserved strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abz09-_A. '.split('')), maxLength: 60 }), (value) => {
        const isWellFormed = value.length >= 3 && value.length <= 50 && VALID.test(value);
        expect(isValidSubdomain(value)).toBe(isWellFormed && !RESERVED_SUBDOMAINS.has(value));
        // Exactly one message, and the schema agrees with the function.
        const result = subdomainSchema.safeParse(value);
        expect(result.success).toBe(isValidSubdomain(value));
        if (!result.success) expect(result.error.issues).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('subdomain derivation', () => {
  it('follows the spec: lower-case, hyphens, collapsed and trimmed, 50 characters', () => {
    expect(slugifySubdomain('  Acme Learning, Inc.  ')).toBe('acme-learning-inc');
    expect(slugifySubdomain('Ünïcode & Co')).toBe('n-code-co');
    expect(slugifySubdomain(`${'a'.repeat(49)} b`)).toBe('a'.repeat(49));
  });

  it('uses the slug when free', async () => {
    await expect(deriveSubdomain('Acme Learning', { isTaken: async () => false })).resolves.toBe(
      'acme-learning',
    );
  });

  it('appends a random number below 10000 when taken or reserved', async () => {
    await expect(
      deriveSubdomain('Acme', { isTaken: async (s) => s === 'acme', randomInt: () => 42 }),
    ).resolves.toBe('acme-42');
    await expect(deriveSubdomain('Admin', { isTaken: async () => false, randomInt: () => 7 })).resolves.toBe(
      'admin-7',
    );
    await expect(deriveSubdomain('A', { isTaken: async () => false, randomInt: () => 9999 })).resolves.toBe(
      'a-9999',
    );
  });

  it('gives up after 10 attempts with the spec message', async () => {
    let calls = 0;
    await expect(
      deriveSubdomain('Acme', {
        isTaken: async () => {
          calls += 1;
          return true;
        },
      }),
    ).rejects.toThrow('Unable to generate unique subdomain after multiple attempts');
    expect(calls).toBe(10);
  });

  it('always yields a valid, free subdomain or the exhaustion error (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: 9999 }), { minLength: 10, maxLength: 10 }),
        fc.func(fc.boolean()),
        async (name, suffixes, takenFn) => {
          let index = 0;
          const seen: string[] = [];
          const isTaken = async (candidate: string) => {
            seen.push(candidate);
            return takenFn(candidate);
          };
          try {
            const result = await deriveSubdomain(name, {
              isTaken,
              randomInt: (bound) => {
                expect(bound).toBe(10_000);
                return suffixes[index++ % suffixes.length] ?? 0;
              },
            });
            expect(isValidSubdomain(result)).toBe(true);
            expect(takenFn(result)).toBe(false);
          } catch (error) {
            expect((error as Error).message).toBe(SUBDOMAIN_MESSAGES.exhausted);
          }
          expect(seen.length).toBeLessThanOrEqual(10);
          for (const candidate of seen) expect(isValidSubdomain(candidate)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
