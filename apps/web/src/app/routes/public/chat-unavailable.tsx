import { MessageCircleOff } from 'lucide-react';
import { Link } from 'react-router';

import { Logo } from '@/components/logo';
import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

export const CHAT_UNAVAILABLE_TITLE = 'This assistant is not available yet';

/**
 * `/chat/:id`: the chat page of a custom AI agent. Agents are not part of
 * CourseLens yet, so the page says so plainly and shows no chat box, no
 * messages and no agent name that could pass for a working assistant.
 */
export function ChatUnavailableRoute() {
  return (
    <div className="flex w-full flex-1 flex-col">
      <title>{`${CHAT_UNAVAILABLE_TITLE} · CourseLens`}</title>
      <div className="mx-auto flex w-full max-w-4xl items-center px-4 pt-6 sm:px-6">
        <Link to={paths.home.href()} aria-label="CourseLens home" className="rounded-lg">
          <Logo />
        </Link>
      </div>
      <PageMessage
        icon={<MessageCircleOff aria-hidden="true" />}
        title={CHAT_UNAVAILABLE_TITLE}
        actions={
          <Link to={paths.home.href()} className={buttonClassName({ variant: 'outline' })}>
            Go to the CourseLens home page
          </Link>
        }
      >
        <p>
          Chatting with custom AI agents is not part of CourseLens yet, so there is no assistant behind this
          link. Whoever shared it with you can tell you when it is ready.
        </p>
      </PageMessage>
    </div>
  );
}
