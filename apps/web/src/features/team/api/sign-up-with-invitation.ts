import type { AcceptInvitationSignupInput, SignupResponse } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/invitations/{token}/signup` (public): a new person creates an account and joins. */
export function signUpWithInvitation({
  token,
  input,
}: {
  token: string;
  input: AcceptInvitationSignupInput;
}): Promise<SignupResponse> {
  return api.post<SignupResponse>(`/invitations/${encodeURIComponent(token)}/signup`, input);
}

export function useSignUpWithInvitation() {
  return useMutation({ mutationFn: signUpWithInvitation });
}
