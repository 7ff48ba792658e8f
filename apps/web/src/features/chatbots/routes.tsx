import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of custom AI agents (lazy modules, mounted under the
 * auth guard): the list, the create form, and an agent's page with its tabs
 * (`?tab=embed|conversations|results|insights`). Each loader prefetches its
 * page's first screen with the page's own query options. The learners'
 * public chat (`/chat/:id`) is not here: it needs no sign-in.
 */
export function chatbotRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.chatbots.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).chatbotList),
      lazy: async () => ({ Component: (await import('./components/chatbots-page')).ChatbotsPage }),
    },
    {
      path: paths.chatbots.create.path,
      lazy: async () => ({ Component: (await import('./components/chatbot-editor-page')).CreateChatbotPage }),
    },
    {
      path: paths.chatbots.edit.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).chatbotEdit),
      lazy: async () => ({ Component: (await import('./components/chatbot-editor-page')).EditChatbotPage }),
    },
  ];
}
