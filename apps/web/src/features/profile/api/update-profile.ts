import type { PublicUser, UpdateProfileInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sessionQueryOptions } from '@/lib/auth';

/** `PATCH /api/profile`: the signed-in person's name and/or e-mail. */
export function updateProfile(input: UpdateProfileInput): Promise<PublicUser> {
  return api.patch<PublicUser>('/profile', input);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
  });
}
