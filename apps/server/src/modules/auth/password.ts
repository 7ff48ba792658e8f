import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at the OWASP minimum (19 MiB, 2 iterations, 1 lane). The only
 * password hasher of the server: Better Auth is configured with it, and the
 * demo seed passes it so the demo owner signs in like anyone else.
 */
const ARGON2ID_OPTIONS = {
  // Algorithm.Argon2id; the const enum cannot be imported under isolated modules.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}

export async function verifyPassword({
  hash: stored,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  // A malformed stored hash (e.g. an old format) is a failed sign-in, not a 500.
  return verify(stored, password).catch(() => false);
}
