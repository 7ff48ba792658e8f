import type { ChangePasswordInput } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { setSessionToken } from '@/lib/auth';

/** `POST /api/profile/password`: every other session ends and this one gets a new token. */
export function changePassword(input: ChangePasswordInput): Promise<{ token: string }> {
  return api.post<{ token: string }>('/profile/password', input);
}

export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ token }) => setSessionToken(token),
  });
}
