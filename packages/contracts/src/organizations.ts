import { z } from 'zod';
import { uuidSchema } from './ids';
import { organizationNameSchema, organizationSummarySchema } from './auth';
import { SUBDOMAIN_MESSAGES, subdomainSchema } from './subdomain';

export const memberRoleSchema = z.enum(['owner', 'team_member']);
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** POST /api/organizations. Leave `subdomain` out (or null) to derive it from the name. */
export const createOrganizationInput = z.object({
  name: organizationNameSchema,
  subdomain: subdomainSchema.nullish(),
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInput>;

/** PATCH /api/organizations/:id (owners): any of name and subdomain. */
export const updateOrganizationInput = z
  .object({
    name: organizationNameSchema.optional(),
    subdomain: subdomainSchema.optional(),
  })
  // An empty change set is a mistake of the caller, not a no-op to answer 200 (or a 500 from the database).
  .refine((input) => input.name !== undefined || input.subdomain !== undefined, {
    error: 'Nothing to change: send at least one of name, subdomain',
  });
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;

export const organizationSchema = organizationSummarySchema;
export type OrganizationBody = z.infer<typeof organizationSchema>;

export const ORGANIZATION_MESSAGES = {
  subdomainTaken: 'This subdomain is already taken',
  notFound: 'Organization not found',
  noOrganization: 'No organization selected',
} as const;

export const idParams = z.object({ id: uuidSchema('Not found') });

/** A form's subdomain field: empty means "derive it from the organization name" (spec section 5). */
export const optionalSubdomainField = z.union([z.literal(''), subdomainSchema]);

/** Server answers that belong under a subdomain field rather than in a toast. */
export const SUBDOMAIN_FIELD_MESSAGES: readonly string[] = [
  ...Object.values(SUBDOMAIN_MESSAGES),
  ORGANIZATION_MESSAGES.subdomainTaken,
];
