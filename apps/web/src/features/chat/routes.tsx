import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * `/chat/:id`, the public chat of a custom AI agent: no sign-in and no app
 * chrome (the shell leaves chat pages bare), often framed on a course page.
 * No loader: the page is one small request with its own loading state, so
 * the route table mounts it without handing it a query client.
 */
export function chatRoutes(): RouteObject[] {
  return [
    {
      path: paths.chatbots.chat.path,
      lazy: async () => ({ Component: (await import('./components/chat-page')).ChatPage }),
    },
  ];
}
