// How the schema spreads over a Citus cluster (decision 011). Every table of
// the public schema is one of two kinds:
// - a tenant table: it has `organization_id uuid not null`, is distributed by
//   it, and all tenant tables are co-located (an organization's rows of every
//   table sit on the same node), so its keys and foreign keys all carry
//   `organization_id`;
// - a reference table, listed here: a full copy on every node, for rows that
//   belong to no single organization or are looked up across organizations.
// `src/db/distribution.test.ts` reads the migrated catalog and fails when a
// table breaks these rules; this list is the one place that names the
// reference tables.

/** Reference tables (Citus `create_reference_table`), each with why it is not distributed. */
export const REFERENCE_TABLES = {
  auth_user:
    'A person signs in once whatever their organizations; sign-in looks them up by e-mail before any organization is known.',
  auth_session:
    'Bearer sessions are resolved by token on every request, before the organization (X-Organization-Id) is known.',
  auth_account: "A person's credentials (password hash), found by user or by provider account at sign-in.",
  auth_verification:
    'Email verification and password-reset secrets, found by identifier without an organization.',
  app_settings: 'Process-wide settings (the generated auth secret) that every node reads the same.',
  rate_limit_buckets:
    'Abuse counters keyed by IP address or e-mail (sign-in, sign-up), before or across organizations.',
  organizations:
    "The tenants themselves: small, read on every request and by subdomain, and the target of every tenant table's organization_id foreign key.",
  users:
    "A person's profile, one per auth identity: read by auth user id on every request, whatever the organization (its organization_id is only the one created at sign-up, nullable).",
  user_organizations:
    "Memberships: the tenant plugin resolves a person's organizations (and the primary one) by user id before it knows the organization; at most one primary per person across organizations.",
  billing_webhook_events:
    "Stripe's event ids already handled: a webhook is claimed by its id before its organization is known (and an event may concern none).",
} as const satisfies Record<string, string>;

/** The distribution column of every tenant table. */
export const DISTRIBUTION_COLUMN = 'organization_id';
