import { z } from 'zod';
import { isReservedSubdomain } from './reserved-subdomains';

export const SUBDOMAIN_MIN_LENGTH = 3;
export const SUBDOMAIN_MAX_LENGTH = 50;
/** Attempts, the first without suffix, before derivation gives up (spec section 9). */
export const SUBDOMAIN_MAX_ATTEMPTS = 10;
/** Random suffixes are whole numbers from 0 to this bound, exclusive. */
export const SUBDOMAIN_SUFFIX_BOUND = 10_000;

/** Spec section 5, verbatim. */
export const SUBDOMAIN_MESSAGES = {
  empty: 'Subdomain cannot be empty',
  tooShort: 'Subdomain must be at least 3 characters long',
  tooLong: 'Subdomain must be at most 50 characters long',
  characters: 'Subdomain can only contain lowercase letters, numbers, and hyphens',
  edgeHyphen: 'Subdomain cannot start or end with a hyphen',
  consecutiveHyphens: 'Subdomain cannot contain consecutive hyphens',
  reserved: 'This subdomain is reserved and cannot be used',
  exhausted: 'Unable to generate unique subdomain after multiple attempts',
} as const;

/**
 * The first rule a subdomain breaks, as the spec's message, or null when it is
 * acceptable. Rules are checked in the spec's order, so a person sees the most
 * basic problem first.
 */
export function subdomainProblem(subdomain: string): string | null {
  if (subdomain.length === 0) return SUBDOMAIN_MESSAGES.empty;
  if (subdomain.length < SUBDOMAIN_MIN_LENGTH) return SUBDOMAIN_MESSAGES.tooShort;
  if (subdomain.length > SUBDOMAIN_MAX_LENGTH) return SUBDOMAIN_MESSAGES.tooLong;
  if (!/^[a-z0-9-]+$/.test(subdomain)) return SUBDOMAIN_MESSAGES.characters;
  if (subdomain.startsWith('-') || subdomain.endsWith('-')) return SUBDOMAIN_MESSAGES.edgeHyphen;
  if (subdomain.includes('--')) return SUBDOMAIN_MESSAGES.consecutiveHyphens;
  if (isReservedSubdomain(subdomain)) return SUBDOMAIN_MESSAGES.reserved;
  return null;
}

export function isValidSubdomain(subdomain: string): boolean {
  return subdomainProblem(subdomain) === null;
}

/** The subdomain field of every form and request: one issue, the first rule broken. */
export const subdomainSchema = z.string().superRefine((value, context) => {
  const problem = subdomainProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/**
 * The organization name made into a subdomain candidate (spec section 5):
 * lower-case, non-alphanumerics to hyphens, hyphens collapsed and trimmed, cut
 * to 50 characters (and trimmed again, so the cut never leaves a trailing
 * hyphen). May be shorter than 3 characters or reserved; deriveSubdomain
 * handles that.
 */
export function slugifySubdomain(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SUBDOMAIN_MAX_LENGTH)
    .replace(/-+$/g, '');
}

export class SubdomainExhaustedError extends Error {
  override name = 'SubdomainExhaustedError';
  constructor() {
    super(SUBDOMAIN_MESSAGES.exhausted);
  }
}

export type DeriveSubdomainOptions = {
  /** True when an organization already uses the subdomain. */
  isTaken: (subdomain: string) => Promise<boolean>;
  /** A whole number from 0 to bound, exclusive. Default: Math.random. */
  randomInt?: (bound: number) => number;
};

/**
 * A free, valid subdomain for an organization name: the slug itself, else the
 * slug with `-<n>` (n below 10000) appended, up to 10 attempts in all, then
 * SubdomainExhaustedError. A slug too short gets the suffix straight away
 * ("A" -> "a-1234"); an empty one starts from "org".
 */
export async function deriveSubdomain(name: string, options: DeriveSubdomainOptions): Promise<string> {
  const randomInt = options.randomInt ?? ((bound: number) => Math.floor(Math.random() * bound));
  const slug = slugifySubdomain(name) || 'org';
  // Room for "-9999" within the length limit.
  const stem = slug.slice(0, SUBDOMAIN_MAX_LENGTH - 5).replace(/-+$/g, '');
  for (let attempt = 0; attempt < SUBDOMAIN_MAX_ATTEMPTS; attempt += 1) {
    const candidate = attempt === 0 ? slug : `${stem}-${randomInt(SUBDOMAIN_SUFFIX_BOUND)}`;
    if (!isValidSubdomain(candidate)) continue;
    if (!(await options.isTaken(candidate))) return candidate;
  }
  throw new SubdomainExhaustedError();
}
