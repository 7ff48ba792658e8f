import type { SignupResponse } from '@courselens/contracts';
import type { FastifyInstance } from 'fastify';

let counter = 0;

export type SignedUp = SignupResponse & { password: string; headers: { authorization: string } };

/** Signs up through the real API (the way a person does) and returns the token and ids. */
export async function signUpViaApi(
  app: FastifyInstance,
  overrides: Partial<{
    name: string;
    email: string;
    password: string;
    organizationName: string;
    subdomain: string;
  }> = {},
): Promise<SignedUp> {
  counter += 1;
  const suffix = `${process.pid}-${counter}-${Math.floor(Math.random() * 1e6)}`;
  const body = {
    name: `Person ${counter}`,
    email: `person-${suffix}@example.com`,
    password: 'correct horse battery',
    organizationName: `Org ${suffix}`,
    ...overrides,
  };
  const response = await app.inject({ method: 'POST', url: '/api/signup', payload: body });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const result = response.json<SignupResponse>();
  return { ...result, password: body.password, headers: { authorization: `Bearer ${result.token}` } };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * Moves the signed-up organization to a plan through the billing API (the
 * local provider changes it at once), for tests whose data is larger than
 * Free allows (3 courses, 1 chatbot, 100 learners).
 */
export async function changePlanViaApi(
  app: FastifyInstance,
  who: SignedUp,
  plan: 'team' | 'business' = 'business',
): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/billing/checkout',
    headers: who.headers,
    payload: { plan, interval: 'month' },
  });
  if (response.statusCode !== 200)
    throw new Error(`plan change failed: ${response.statusCode} ${response.body}`);
}
