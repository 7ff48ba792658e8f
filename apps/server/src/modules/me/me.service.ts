import type { MeResponse } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { findAuthUserById } from '../auth/auth.queries';
import { listOrganizationsOf } from '../organizations/organizations.service';

/** The person and every organization they belong to, primary first. */
export async function getMe(db: Database, userId: string): Promise<MeResponse> {
  const user = await findAuthUserById(db, userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
  return { user, organizations: await listOrganizationsOf(db, userId) };
}
