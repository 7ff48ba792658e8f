import { z } from 'zod';
import { publicUserSchema } from './auth';
import { memberRoleSchema } from './organizations';

export const membershipSchema = z.object({
  id: z.string(),
  name: z.string(),
  subdomain: z.string(),
  role: memberRoleSchema,
  isPrimary: z.boolean(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** GET /api/me: the signed-in person and every organization they belong to (primary first). */
export const meResponse = z.object({
  user: publicUserSchema,
  organizations: z.array(membershipSchema),
});
export type MeResponse = z.infer<typeof meResponse>;
