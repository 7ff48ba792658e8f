import { CHATBOT_MESSAGES, type PublicChatbot } from '@courselens/contracts';
import { MessageCircleOff, MoonStar } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { applyTheme, isTheme } from '@/lib/theme';

import { usePublicChatbot } from '../api/get-public-chatbot';
import { errorMessage } from '../api/public-request';
import { readStoredEmail, storeEmail } from '../utils/chat-storage';
import { useCloseOnEscapeInFrame } from '../utils/embed';

import { ChatHeader } from './chat-header';
import { Conversation, type ChatLearner } from './conversation';
import { EmailForm, normalizeEmail } from './email-form';

export const NOT_FOUND_TITLE = 'This assistant does not exist';
/** The longest name the API takes for a learner. */
const MAX_LEARNER_NAME_LENGTH = 200;

/**
 * `/chat/:id`: a custom AI agent's public chat, without app chrome, usually
 * in a frame on a course page. The course passes the learner as
 * `?email=…&name=…`; without an e-mail the page asks for it once. `?theme=`
 * (light or dark) lets the course match its own page, since a frame on
 * another site cannot see the visitor's choice made on CourseLens; `embed=1`
 * (the chat bubble's frame) forwards Escape so the bubble can close.
 */
export function ChatPage() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const agent = usePublicChatbot(id);

  useCloseOnEscapeInFrame(searchParams.get('embed') === '1');

  const theme = searchParams.get('theme');
  useEffect(() => {
    if (isTheme(theme)) applyTheme(theme);
  }, [theme]);

  if (agent.isPending) {
    return (
      <ChatFrame>
        <div className="flex flex-1 items-center justify-center text-accent">
          <Spinner label="Loading the assistant" />
        </div>
      </ChatFrame>
    );
  }

  if (agent.isError) {
    // A malformed id is answered 400 with the same "not found" words: for the learner both are a wrong link.
    if (isApiError(agent.error) && (agent.error.status === 404 || agent.error.status === 400)) {
      return (
        <ChatFrame>
          <title>{`${NOT_FOUND_TITLE} · CourseLens`}</title>
          <PageMessage
            icon={<MessageCircleOff aria-hidden="true" />}
            title={NOT_FOUND_TITLE}
            className="py-10"
          >
            <p>
              The link may be wrong, or the assistant was deleted. Whoever shared it with you can send the
              right one.
            </p>
          </PageMessage>
        </ChatFrame>
      );
    }
    return (
      <ChatFrame>
        <PageMessage
          icon={<MessageCircleOff aria-hidden="true" />}
          title="The assistant could not be loaded"
          className="py-10"
          actions={
            <Button variant="outline" onClick={() => void agent.refetch()}>
              Try again
            </Button>
          }
        >
          <p>{errorMessage(agent.error)}</p>
        </PageMessage>
      </ChatFrame>
    );
  }

  const chatbot = agent.data;
  return (
    <ChatFrame>
      <title>{`${chatbot.name} · CourseLens`}</title>
      {chatbot.active ? (
        <LearnerChat
          key={chatbot.id}
          agent={chatbot}
          urlEmail={searchParams.get('email')}
          urlName={searchParams.get('name')}
        />
      ) : (
        <>
          <ChatHeader agent={chatbot} />
          <div className="flex flex-1 items-center justify-center px-4 py-10">
            <div className="flex max-w-sm flex-col items-center gap-3 text-center">
              <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-muted text-fg-muted [&_svg]:size-6">
                <MoonStar aria-hidden="true" />
              </span>
              <p className="text-sm text-fg-muted">{CHATBOT_MESSAGES.inactive}</p>
            </div>
          </div>
        </>
      )}
    </ChatFrame>
  );
}

/** Fills the frame (or the window) exactly, so the messages scroll and the input stays in view. */
function ChatFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-dvh min-h-0 w-full min-w-0 flex-col overflow-hidden bg-canvas">{children}</div>
  );
}

type LearnerChatProps = {
  agent: PublicChatbot;
  urlEmail: string | null;
  urlName: string | null;
};

/** Works out who is chatting: the course's `?email=` first, else the address given here before. */
function LearnerChat({ agent, urlEmail, urlName }: LearnerChatProps) {
  const courseEmail = normalizeEmail(urlEmail);
  const [ownEmail, setOwnEmail] = useState(() => normalizeEmail(readStoredEmail(agent.id)));
  const email = courseEmail ?? ownEmail;
  const name = urlName?.trim().slice(0, MAX_LEARNER_NAME_LENGTH) || null;

  if (!email) {
    return (
      <>
        <ChatHeader agent={agent} />
        <EmailForm
          agentName={agent.name}
          defaultEmail={urlEmail ?? ''}
          onSubmit={(entered) => {
            storeEmail(agent.id, entered);
            setOwnEmail(entered);
          }}
        />
      </>
    );
  }

  const learner: ChatLearner = { email, name };
  return (
    <Conversation
      // A different learner is a different conversation, from scratch.
      key={email}
      agent={agent}
      learner={learner}
      onChangeEmail={
        courseEmail
          ? undefined
          : () => {
              storeEmail(agent.id, null);
              setOwnEmail(null);
            }
      }
    />
  );
}
