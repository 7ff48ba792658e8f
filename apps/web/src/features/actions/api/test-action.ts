import type { ActionTestResult } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { actionPath } from './get-action';

/**
 * `POST /api/actions/:actionId/test` (empty body): sends the saved action
 * with the sample event (a webhook for real, an e-mail to the caller) or
 * previews what it would do; the answer shows the request and the response.
 */
export function testAction(actionId: string): Promise<ActionTestResult> {
  return api.post<ActionTestResult>(`${actionPath(actionId)}/test`);
}

export function useTestAction(actionId: string) {
  return useMutation({ mutationFn: () => testAction(actionId) });
}
