import { z } from 'zod';

export const databaseKindSchema = z.enum(['pglite', 'postgres']);
export type DatabaseKindName = z.infer<typeof databaseKindSchema>;

export const healthOkSchema = z.object({
  status: z.literal('ok'),
  database: databaseKindSchema,
  version: z.string(),
});

export const healthErrorSchema = z.object({
  status: z.literal('error'),
});

export const healthResponseSchema = z.discriminatedUnion('status', [healthOkSchema, healthErrorSchema]);
export type HealthResponse = z.infer<typeof healthResponseSchema>;
