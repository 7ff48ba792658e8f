import { ACTION_SORT_KEYS, ACTION_TYPES, type ActionType } from '@courselens/contracts';

import { readListParams } from '@/lib/use-list-params';

import type { ActionListParams } from '../api/get-actions';

export const ACTION_LIST_DEFAULTS = { sort: 'createdAt', order: 'desc' } as const;

/** `?type=` when it names a type, else null (every type). */
export function readActionType(searchParams: URLSearchParams): ActionType | null {
  const type = searchParams.get('type');
  return type !== null && (ACTION_TYPES as readonly string[]).includes(type) ? (type as ActionType) : null;
}

/** The actions list as its URL says it (the screen and its route loader read it alike). */
export function readActionListParams(searchParams: URLSearchParams): ActionListParams {
  return {
    ...readListParams(searchParams, ACTION_SORT_KEYS, ACTION_LIST_DEFAULTS),
    type: readActionType(searchParams),
  };
}
