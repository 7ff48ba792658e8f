import {
  ORGANIZATION_MESSAGES,
  SubdomainExhaustedError,
  deriveSubdomain,
  type Membership,
  type OrganizationSummary,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import {
  findMembership,
  findOrganizationById,
  isResourceOfOrganization,
  insertOrganizationWithOwner,
  isSubdomainTaken,
  listMemberships,
  setPrimaryMembership,
  updateOrganizationRow,
  type TenantResource,
} from './organizations.queries';

/** PostgreSQL unique_violation, from either driver (drizzle wraps it in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; constraint?: string; message?: string };
    if (candidate.code === '23505') {
      return (
        constraint === undefined ||
        candidate.constraint === constraint ||
        Boolean(candidate.message?.includes(constraint))
      );
    }
  }
  return false;
}

/**
 * The subdomain to use: the one given (already checked by the contract's
 * rules; refused when taken), else one derived from the name per spec
 * section 5.
 */
export async function chooseSubdomain(
  db: Database,
  name: string,
  given: string | null | undefined,
): Promise<string> {
  if (given) {
    if (await isSubdomainTaken(db, given))
      throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.subdomainTaken);
    return given;
  }
  try {
    return await deriveSubdomain(name, { isTaken: (candidate) => isSubdomainTaken(db, candidate) });
  } catch (error) {
    if (error instanceof SubdomainExhaustedError) throw new AppError('CONFLICT', error.message);
    throw error;
  }
}

/** Creates an organization owned by the caller; primary only when the caller has no primary yet. */
export async function createOrganization(
  db: Database,
  input: { userId: string; name: string; subdomain?: string | null | undefined },
): Promise<OrganizationSummary> {
  const subdomain = await chooseSubdomain(db, input.name, input.subdomain);
  const memberships = await listMemberships(db, input.userId);
  try {
    const organization = await insertOrganizationWithOwner(db, {
      name: input.name,
      subdomain,
      ownerId: input.userId,
      isPrimary: !memberships.some((membership) => membership.isPrimary),
    });
    if (!organization) throw new AppError('INTERNAL_ERROR', 'Organization creation failed.');
    return organization;
  } catch (error) {
    if (isUniqueViolation(error, 'organizations_subdomain_unique'))
      throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.subdomainTaken);
    throw error;
  }
}

/** Rename and/or change the subdomain (owners; the tenant plugin checks the role). */
export async function updateOrganization(
  db: Database,
  input: { organizationId: string; name?: string | undefined; subdomain?: string | undefined },
): Promise<OrganizationSummary> {
  const changes: { name?: string; subdomain?: string } = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.subdomain !== undefined) changes.subdomain = input.subdomain;
  try {
    // An empty change still bumps updated_at, which is harmless.
    const row = await updateOrganizationRow(db, input.organizationId, changes);
    if (!row) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
    return row;
  } catch (error) {
    if (isUniqueViolation(error, 'organizations_subdomain_unique'))
      throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.subdomainTaken);
    throw error;
  }
}

export async function markPrimaryOrganization(
  db: Database,
  input: { userId: string; organizationId: string },
): Promise<Membership[]> {
  const membership = await findMembership(db, input.userId, input.organizationId);
  if (!membership) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
  await setPrimaryMembership(db, input.userId, input.organizationId);
  return listMemberships(db, input.userId);
}

export async function listOrganizationsOf(db: Database, userId: string): Promise<Membership[]> {
  return listMemberships(db, userId);
}

/**
 * The organization a request acts on: the one named (must be a membership,
 * else 404 as if it did not exist), else the primary, else the first.
 */
export async function resolveOrganization(
  db: Database,
  input: { userId: string; organizationId?: string | undefined },
): Promise<{ organizationId: string; role: Membership['role'] } | null> {
  if (input.organizationId) {
    const membership = await findMembership(db, input.userId, input.organizationId);
    // The id may come from a header (X-Organization-Id), which no schema
    // canonicalizes: lower-case it like every id, so code comparing it as a
    // string (not only SQL) sees one form.
    return membership ? { organizationId: input.organizationId.toLowerCase(), role: membership.role } : null;
  }
  const [first] = await listMemberships(db, input.userId);
  return first ? { organizationId: first.id, role: first.role } : null;
}

export type { TenantResource } from './organizations.queries';

/** True when the resource named by a route parameter belongs to the organization. */
export async function isOwnedByOrganization(
  db: Database,
  resource: TenantResource,
  organizationId: string,
  id: string,
): Promise<boolean> {
  return isResourceOfOrganization(db, resource, organizationId, id);
}

export async function getOrganization(db: Database, organizationId: string): Promise<OrganizationSummary> {
  const row = await findOrganizationById(db, organizationId);
  if (!row) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
  return row;
}
