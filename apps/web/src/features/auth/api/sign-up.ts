import type { SignupInput, SignupResponse } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/signup`: the account, its organization (primary, owner) and a session, at once. */
export function signUp(input: SignupInput): Promise<SignupResponse> {
  return api.post<SignupResponse>('/signup', input);
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
