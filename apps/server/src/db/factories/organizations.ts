import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import type { Database } from '../client';
import {
  apiKeys,
  authAccounts,
  authUsers,
  invitations,
  organizations,
  userOrganizations,
  users,
  type ApiKey,
  type AuthAccount,
  type AuthUser,
  type Invitation,
  type NewApiKey,
  type NewAuthAccount,
  type NewAuthUser,
  type NewInvitation,
  type NewOrganization,
  type NewUserOrganization,
  type NewUserProfile,
  type Organization,
  type UserOrganization,
  type UserProfile,
} from '../schema';
import { nextSequence, onlyRow, uniqueSuffix } from './sequence';

export type PasswordHasher = (password: string) => Promise<string>;

const SCRYPT_KEY_LENGTH = 64;
const SCRYPT_OPTIONS: ScryptOptions = { N: 16_384, r: 16, p: 1, maxmem: 128 * 16_384 * 16 * 2 };

/**
 * Hashes a password as `salt:key` (hex) with scrypt N=16384 r=16 p=1, 64-byte
 * key, the hex salt string as salt: Better Auth's default format, so an
 * account stored with it signs in until the auth module picks its own hasher.
 */
export const hashPasswordWithScrypt: PasswordHasher = async (password) => {
  const salt = randomBytes(16).toString('hex');
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, SCRYPT_KEY_LENGTH, SCRYPT_OPTIONS, (error, derived) =>
      error ? reject(error) : resolve(derived),
    );
  });
  return `${salt}:${key.toString('hex')}`;
};

export function buildOrganization(overrides: Partial<NewOrganization> = {}): NewOrganization {
  const n = nextSequence();
  return {
    name: `Organization ${n}`,
    subdomain: `org-${n}-${uniqueSuffix()}`,
    ...overrides,
  };
}

export async function insertOrganization(
  db: Database,
  overrides: Partial<NewOrganization> = {},
): Promise<Organization> {
  return onlyRow(await db.insert(organizations).values(buildOrganization(overrides)).returning());
}

export function buildAuthUser(overrides: Partial<NewAuthUser> = {}): NewAuthUser {
  const n = nextSequence();
  return {
    name: `User ${n}`,
    email: `user${n}.${uniqueSuffix()}@example.com`,
    emailVerified: true,
    ...overrides,
  };
}

export async function insertAuthUser(db: Database, overrides: Partial<NewAuthUser> = {}): Promise<AuthUser> {
  return onlyRow(await db.insert(authUsers).values(buildAuthUser(overrides)).returning());
}

/** An e-mail + password account (Better Auth provider `credential`); `password` is the hash. */
export function buildCredentialAccount(
  overrides: Partial<NewAuthAccount> & Pick<NewAuthAccount, 'userId' | 'password'>,
): NewAuthAccount {
  return { accountId: overrides.userId, providerId: 'credential', ...overrides };
}

export async function insertCredentialAccount(
  db: Database,
  overrides: Partial<NewAuthAccount> & Pick<NewAuthAccount, 'userId' | 'password'>,
): Promise<AuthAccount> {
  return onlyRow(await db.insert(authAccounts).values(buildCredentialAccount(overrides)).returning());
}

export function buildUserProfile(
  overrides: Partial<NewUserProfile> & Pick<NewUserProfile, 'userId'>,
): NewUserProfile {
  const n = nextSequence();
  return {
    name: `User ${n}`,
    email: `user${n}.${uniqueSuffix()}@example.com`,
    role: 'owner',
    ...overrides,
  };
}

export async function insertUserProfile(
  db: Database,
  overrides: Partial<NewUserProfile> & Pick<NewUserProfile, 'userId'>,
): Promise<UserProfile> {
  return onlyRow(await db.insert(users).values(buildUserProfile(overrides)).returning());
}

export function buildMembership(
  overrides: Partial<NewUserOrganization> & Pick<NewUserOrganization, 'userId' | 'organizationId'>,
): NewUserOrganization {
  return { role: 'owner', isPrimary: false, ...overrides };
}

export async function insertMembership(
  db: Database,
  overrides: Partial<NewUserOrganization> & Pick<NewUserOrganization, 'userId' | 'organizationId'>,
): Promise<UserOrganization> {
  return onlyRow(await db.insert(userOrganizations).values(buildMembership(overrides)).returning());
}

export type InsertedAccount = {
  authUser: AuthUser;
  profile: UserProfile;
  membership: UserOrganization;
};

/**
 * A person who can sign in with e-mail and password, with a profile and a
 * membership of `organizationId` (primary unless said otherwise).
 */
export async function insertAccount(
  db: Database,
  options: {
    organizationId: string;
    email?: string;
    name?: string;
    password?: string;
    role?: UserProfile['role'];
    isPrimary?: boolean;
    hashPassword?: PasswordHasher;
  },
): Promise<InsertedAccount> {
  const authUser = await insertAuthUser(db, {
    ...(options.email ? { email: options.email.toLowerCase() } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  const hash = await (options.hashPassword ?? hashPasswordWithScrypt)(options.password ?? 'password-123');
  await insertCredentialAccount(db, { userId: authUser.id, password: hash });
  const role = options.role ?? 'owner';
  const profile = await insertUserProfile(db, {
    userId: authUser.id,
    organizationId: options.organizationId,
    name: authUser.name,
    email: authUser.email,
    role,
  });
  const membership = await insertMembership(db, {
    userId: authUser.id,
    organizationId: options.organizationId,
    role,
    isPrimary: options.isPrimary ?? true,
  });
  return { authUser, profile, membership };
}

export function buildInvitation(
  overrides: Partial<NewInvitation> & Pick<NewInvitation, 'organizationId'>,
): NewInvitation {
  const n = nextSequence();
  return {
    email: `invitee${n}.${uniqueSuffix()}@example.com`,
    tokenHash: randomBytes(32).toString('hex'),
    expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000),
    ...overrides,
  };
}

export async function insertInvitation(
  db: Database,
  overrides: Partial<NewInvitation> & Pick<NewInvitation, 'organizationId'>,
): Promise<Invitation> {
  return onlyRow(await db.insert(invitations).values(buildInvitation(overrides)).returning());
}

export function buildApiKey(overrides: Partial<NewApiKey> & Pick<NewApiKey, 'organizationId'>): NewApiKey {
  const n = nextSequence();
  const hash = randomBytes(32).toString('hex');
  return {
    name: `Key ${n}`,
    prefix: `cl_${hash.slice(0, 8)}`,
    keyHash: hash,
    scope: 'ingest',
    ...overrides,
  };
}

export async function insertApiKey(
  db: Database,
  overrides: Partial<NewApiKey> & Pick<NewApiKey, 'organizationId'>,
): Promise<ApiKey> {
  return onlyRow(await db.insert(apiKeys).values(buildApiKey(overrides)).returning());
}
