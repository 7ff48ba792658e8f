import { CHATBOT_SORT_KEYS } from '@courselens/contracts';

import { readListParams } from '@/lib/use-list-params';

import type { ChatbotListParams } from '../api/get-chatbots';

export const CHATBOT_LIST_DEFAULTS = { sort: 'createdAt', order: 'desc' } as const;

/** The agents list as its URL says it (the screen and its route loader read it alike). */
export function readChatbotListParams(searchParams: URLSearchParams): ChatbotListParams {
  return readListParams(searchParams, CHATBOT_SORT_KEYS, CHATBOT_LIST_DEFAULTS);
}
