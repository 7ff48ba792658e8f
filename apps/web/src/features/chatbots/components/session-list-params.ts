import { CHAT_SESSION_SORT_KEYS } from '@courselens/contracts';

import { readListParams } from '@/lib/use-list-params';

import type { ChatSessionListParams } from '../api/get-chat-sessions';

export const CHAT_SESSION_LIST_DEFAULTS = { sort: 'lastMessageAt', order: 'desc' } as const;

/** `?captured=true|false`: conversations that captured every required variable, or the others; null: all. */
export function readCaptured(searchParams: URLSearchParams): boolean | null {
  const captured = searchParams.get('captured');
  return captured === 'true' ? true : captured === 'false' ? false : null;
}

/** An agent's conversations as the URL says them (the tabs and the route loader read it alike). */
export function readChatSessionListParams(searchParams: URLSearchParams): ChatSessionListParams {
  return {
    ...readListParams(searchParams, CHAT_SESSION_SORT_KEYS, CHAT_SESSION_LIST_DEFAULTS),
    captured: readCaptured(searchParams),
  };
}
