import type { SignInInput, SignInResponse } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/session`, for an invited person who already has an account. */
export function createSession(input: SignInInput): Promise<SignInResponse> {
  return api.post<SignInResponse>('/session', input);
}

export function useCreateSession() {
  return useMutation({ mutationFn: createSession });
}
