import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { chatSessionsQueryOptions } from './api/get-chat-sessions';
import { chatbotQueryOptions } from './api/get-chatbot';
import { chatbotInsightsQueryOptions } from './api/get-chatbot-insights';
import { chatbotsQueryOptions } from './api/get-chatbots';
import { readChatbotListParams } from './components/chatbot-list-params';
import { readChatSessionListParams } from './components/session-list-params';

/*
 * What each agent route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/chatbots`: the list its URL asks for. */
export function chatbotList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(chatbotsQueryOptions(organizationId, readChatbotListParams(searchParams)));
}

/** `/chatbots/edit/:id`: the agent, and what its open tab lists (conversations, results or insights). */
export function chatbotEdit({ organizationId, params, searchParams, prefetch }: OrganizationPrefetchRoute) {
  const chatbotId = params.id ?? '';
  prefetch(chatbotQueryOptions(organizationId, chatbotId));
  const tab = searchParams.get('tab');
  if (tab === 'conversations' || tab === 'results') {
    prefetch(chatSessionsQueryOptions(organizationId, chatbotId, readChatSessionListParams(searchParams)));
  } else if (tab === 'insights') {
    prefetch(chatbotInsightsQueryOptions(organizationId, chatbotId));
  }
}
