import type { SignInInput, SignInResponse } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/session`: a bearer token for the e-mail and password. */
export function createSession(input: SignInInput): Promise<SignInResponse> {
  return api.post<SignInResponse>('/session', input);
}

export function useCreateSession() {
  return useMutation({ mutationFn: createSession });
}
