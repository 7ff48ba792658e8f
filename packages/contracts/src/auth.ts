import { z } from 'zod';
import { subdomainSchema } from './subdomain';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  organizationCreationFailed: 'Organization creation failed.',
  notAuthenticated: 'Not authenticated',
} as const;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

export const personNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters long');

export const organizationNameSchema = z
  .string()
  .trim()
  .min(1, 'Organization name is required')
  .max(100, 'Organization name must be at most 100 characters long');

export const publicUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** POST /api/signup. Leave `subdomain` out (or null) to derive it from the organization name. */
export const signupInput = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: passwordSchema,
  organizationName: organizationNameSchema,
  subdomain: subdomainSchema.nullish(),
});
export type SignupInput = z.infer<typeof signupInput>;

export const organizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  subdomain: z.string(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

export const signupResponse = z.object({
  token: z.string(),
  user: publicUserSchema,
  organization: organizationSummarySchema,
});
export type SignupResponse = z.infer<typeof signupResponse>;

/** POST /api/session. */
export const signInInput = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH, 'Invalid email or password'),
});
export type SignInInput = z.infer<typeof signInInput>;

export const signInResponse = z.object({ token: z.string(), user: publicUserSchema });
export type SignInResponse = z.infer<typeof signInResponse>;
/** PATCH /api/profile: any of name and email. */
export const updateProfileInput = z
  .object({
    name: personNameSchema.optional(),
    email: emailSchema.optional(),
    /** Needed when `email` changes: a session alone must not be enough to move the account elsewhere. */
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH, 'Current password is incorrect').optional(),
  })
  .refine((input) => input.name !== undefined || input.email !== undefined, {
    error: 'Nothing to change: send at least one of name, email',
  });
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

/** POST /api/profile/password: other sessions are signed out. */
export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(128),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const PROFILE_MESSAGES = {
  wrongPassword: 'Current password is incorrect',
  passwordNeededForEmail: 'Enter your current password to change your e-mail address',
} as const;
