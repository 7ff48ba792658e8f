import { CHATBOT_MESSAGES, type PublicChatbot } from '@courselens/contracts';
import { SquarePen } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { agentColor } from '@/lib/color';

import { useChatTranscript } from '../api/get-chat-transcript';
import { errorMessage } from '../api/public-request';
import { sendChatMessage } from '../api/send-chat-message';
import { readStoredSession, storeSession } from '../utils/chat-storage';

import { ChatComposer } from './chat-composer';
import { ChatHeader } from './chat-header';
import { MessageBubble, TypingIndicator, type BubbleMessage } from './message-bubble';

export type ChatLearner = { email: string; name: string | null };

export type ConversationProps = {
  agent: PublicChatbot;
  learner: ChatLearner;
  /** Given when the learner typed their e-mail on this page (not passed by the course), so they can change it. */
  onChangeEmail?: () => void;
};

/** One entry of the message list; the key stays the same from sending to stored, so nothing is announced twice. */
type Entry = { key: string; message: BubbleMessage };

/** A message on its way: the learner's text, and the reply as far as it has streamed. */
type InFlight = { key: string; text: string; reply: string };

/**
 * The chat itself: resumes the learner's open conversation (its id is kept
 * per agent and e-mail in this browser), shows the agent's opening first,
 * and streams each reply into its bubble as it is written.
 */
export function Conversation({ agent, learner, onChangeEmail }: ConversationProps) {
  const color = agentColor(agent.color);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const keyCounter = useRef(0);

  const [resumeId, setResumeId] = useState(() => readStoredSession(agent.id, learner.email));
  const [startedId, setStartedId] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [inFlight, setInFlight] = useState<InFlight | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const transcript = useChatTranscript(
    resumeId ? { chatbotId: agent.id, sessionId: resumeId, email: learner.email } : null,
  );
  const resumed = resumeId ? (transcript.data ?? null) : null;
  const sessionId = startedId ?? resumed?.sessionId ?? null;
  const isLoadingTranscript = resumeId !== null && transcript.isPending;
  const transcriptError = resumeId !== null && transcript.isError ? transcript.error : null;
  const isSending = inFlight !== null;

  // The agent opens a new conversation (its welcome and first question). It
  // is not sent: the server stores the same opening as the conversation's
  // first message, so a resumed transcript already starts with it.
  const opening = agent.opening.trim() || agent.welcomeMessage?.trim() || '';
  const showOpening = opening !== '' && !isLoadingTranscript && (resumed?.messages.length ?? 0) === 0;

  const isGone = resumeId !== null && transcript.data === null;
  useEffect(() => {
    if (isGone) storeSession(agent.id, learner.email, null);
  }, [isGone, agent.id, learner.email]);

  // Leaving the page mid-reply closes the stream.
  useEffect(() => () => abortRef.current?.abort(), []);

  const list: Entry[] = [
    ...(resumed?.messages ?? []).map((message) => ({ key: message.id, message })),
    ...entries,
    ...(inFlight ? [{ key: inFlight.key, message: userMessage(inFlight.text) }] : []),
  ];

  const scrollTrigger = `${list.length}:${inFlight?.reply.length ?? -1}:${isLoadingTranscript}`;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [scrollTrigger]);

  async function handleSend() {
    const text = draft.trim();
    if (!text || isSending || isLoadingTranscript) return;
    keyCounter.current += 1;
    const key = `local-${keyCounter.current}`;
    const controller = new AbortController();
    abortRef.current = controller;
    setError(null);
    setDraft('');
    setInFlight({ key, text, reply: '' });
    inputRef.current?.focus();
    try {
      const turn = await sendChatMessage(
        agent.id,
        {
          message: text,
          learner: { email: learner.email, ...(learner.name ? { name: learner.name } : {}) },
          ...(sessionId ? { sessionId } : {}),
        },
        {
          signal: controller.signal,
          onDelta: (piece) =>
            setInFlight((current) =>
              current?.key === key ? { ...current, reply: current.reply + piece } : current,
            ),
        },
      );
      setEntries((current) => [
        ...current,
        { key, message: turn.message },
        { key: turn.reply.id, message: turn.reply },
      ]);
      setStartedId(turn.sessionId);
      storeSession(agent.id, learner.email, turn.sessionId);
    } catch (caught) {
      if (controller.signal.aborted) return;
      setError(errorMessage(caught));
      // The learner keeps what they wrote, unless they already started a new message.
      setDraft((current) => (current.trim() === '' ? text : current));
      if (
        isApiError(caught) &&
        caught.status === 404 &&
        caught.message === CHATBOT_MESSAGES.sessionNotFound
      ) {
        // The conversation is gone on the server: the next message starts a new one.
        forgetConversation();
      }
    } finally {
      if (!controller.signal.aborted) {
        setInFlight(null);
        abortRef.current = null;
        inputRef.current?.focus();
      }
    }
  }

  function forgetConversation() {
    setResumeId(null);
    setStartedId(null);
    setEntries([]);
    storeSession(agent.id, learner.email, null);
  }

  function handleNewConversation() {
    forgetConversation();
    setError(null);
    inputRef.current?.focus();
  }

  const hasConversation = sessionId !== null || list.length > 0 || transcriptError !== null;

  return (
    <>
      <ChatHeader
        agent={agent}
        actions={
          hasConversation ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={handleNewConversation}
              disabled={isSending}
              aria-label="New conversation"
              title="New conversation"
            >
              <SquarePen aria-hidden="true" />
              <span className="hidden sm:inline">New conversation</span>
            </Button>
          ) : null
        }
      />
      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label={`Conversation with ${agent.name}`}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
      >
        <div className="mx-auto flex w-full max-w-3xl flex-col gap-3 px-4 py-4 sm:px-6 sm:py-6">
          {showOpening ? (
            <MessageBubble
              message={{ role: 'assistant', content: opening, engine: null, citation: null }}
              agentName={agent.name}
              color={color}
            />
          ) : null}
          {isLoadingTranscript ? (
            <div className="flex justify-center py-4 text-fg-subtle">
              <Spinner size="sm" label="Loading your conversation" />
            </div>
          ) : null}
          {transcriptError ? (
            <div className="rounded-lg bg-surface px-3 py-2 text-sm text-fg-muted ring-1 ring-line">
              <p>Your earlier conversation could not be loaded. {errorMessage(transcriptError)}</p>
              <Button variant="outline" size="sm" className="mt-2" onClick={() => void transcript.refetch()}>
                Try again
              </Button>
            </div>
          ) : null}
          {list.map((entry) => (
            <MessageBubble key={entry.key} message={entry.message} agentName={agent.name} color={color} />
          ))}
          {inFlight && inFlight.reply === '' ? <TypingIndicator agentName={agent.name} /> : null}
          {inFlight && inFlight.reply !== '' ? (
            // Read out once, whole, when it is stored; not piece by piece while it streams.
            <div aria-hidden="true">
              <MessageBubble
                message={{ role: 'assistant', content: inFlight.reply, engine: null, citation: null }}
                agentName={agent.name}
                color={color}
              />
            </div>
          ) : null}
          {!showOpening && list.length === 0 && !inFlight && !isLoadingTranscript && !transcriptError ? (
            <p className="py-6 text-center text-sm text-fg-subtle">
              Send a message to start the conversation.
            </p>
          ) : null}
        </div>
      </div>
      <ChatComposer
        agentName={agent.name}
        value={draft}
        onChange={setDraft}
        onSend={() => void handleSend()}
        isBusy={isSending || isLoadingTranscript}
        error={error}
        inputRef={inputRef}
        footer={
          onChangeEmail ? (
            <>
              Chatting as <span className="font-medium text-fg-muted">{learner.email}</span> ·{' '}
              <button
                type="button"
                onClick={onChangeEmail}
                disabled={isSending}
                className="font-medium text-accent underline-offset-2 hover:underline disabled:opacity-55"
              >
                Change
              </button>
            </>
          ) : null
        }
      />
    </>
  );
}

function userMessage(content: string): BubbleMessage {
  return { role: 'user', content, engine: null, citation: null };
}
