import { randomBytes } from 'node:crypto';
import type { Database } from '../client';
import {
  customReports,
  sharedViews,
  type CustomReport,
  type NewCustomReport,
  type NewSharedView,
  type SharedView,
} from '../schema';
import { nextSequence, onlyRow } from './sequence';

type Tenant = { organizationId: string };

/** An unguessable token for public links: 256 random bits, URL-safe. */
export function buildShareToken(): string {
  return randomBytes(32).toString('base64url');
}

export function buildCustomReport(overrides: Partial<NewCustomReport> & Tenant): NewCustomReport {
  return { name: `Report ${nextSequence()}`, reportType: 'table', ...overrides };
}

export async function insertCustomReport(
  db: Database,
  overrides: Partial<NewCustomReport> & Tenant,
): Promise<CustomReport> {
  return onlyRow(await db.insert(customReports).values(buildCustomReport(overrides)).returning());
}

export function buildSharedView(
  overrides: Partial<NewSharedView> & Tenant & Pick<NewSharedView, 'kind'>,
): NewSharedView {
  return { token: buildShareToken(), ...overrides };
}

export async function insertSharedView(
  db: Database,
  overrides: Partial<NewSharedView> & Tenant & Pick<NewSharedView, 'kind'>,
): Promise<SharedView> {
  return onlyRow(await db.insert(sharedViews).values(buildSharedView(overrides)).returning());
}
