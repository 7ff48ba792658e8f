import {
  CHATBOT_MESSAGES,
  MAX_CHAT_MESSAGE_LENGTH,
  type ChatTranscriptResponse,
  type PublicChatbot,
  type SendChatMessageResponse,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { fetchedRequests, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CHAT_CLOSE_MESSAGE } from '../utils/embed';

import { ChatPage, NOT_FOUND_TITLE } from './chat-page';
import { EMAIL_HINT } from './email-form';

const AGENT = '22222222-2222-4222-8222-222222222222';
const SESSION = '33333333-3333-4333-8333-333333333333';
const STORED_SESSION = '44444444-4444-4444-8444-444444444444';

const agent: PublicChatbot = {
  id: AGENT,
  name: 'Course helper',
  description: 'Answers questions about the course',
  welcomeMessage: 'Hi!',
  opening: 'Hi! Ask me about **the course**.',
  color: '#0f766e',
  avatar: null,
  active: true,
  organization: 'Acme Academy',
};

const turn: SendChatMessageResponse = {
  sessionId: SESSION,
  message: {
    id: 'm1',
    role: 'user',
    content: 'Can I get a refund?',
    engine: null,
    citation: null,
    createdAt: '2026-01-01T10:00:00.000Z',
  },
  reply: {
    id: 'm2',
    role: 'assistant',
    content: 'Yes, within **14 days**.',
    engine: 'builtin',
    citation: { document: 'Handbook', title: 'Refunds', quote: 'Refunds are possible within 14 days.' },
    createdAt: '2026-01-01T10:00:01.000Z',
  },
  captured: {},
  changed: [],
  done: false,
};

/** A streamed answer, cut where a network might cut it. */
function sseResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } },
  );
}

function streamedTurn(result: SendChatMessageResponse): Response {
  const done = `event: done\ndata: ${JSON.stringify(result)}\n\n`;
  return sseResponse([
    'event: delta\ndata: {"text":"Yes, within "}\n\nevent: del',
    'ta\ndata: {"text":"**14 days**."}\n\n',
    done.slice(0, 40),
    done.slice(40),
  ]);
}

function renderChat(search = '?email=Ada@Example.com') {
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[`/chat/${AGENT}${search}`]}>
      <Routes>
        <Route path="/chat/:id" element={<ChatPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(typeof init?.body === 'string' ? init.body : 'null');
}

describe('ChatPage', () => {
  it('says so when the assistant does not exist', async () => {
    stubFetch(() => jsonResponse(404, { error: CHATBOT_MESSAGES.notFound, code: 'NOT_FOUND' }));
    renderChat();
    expect(await screen.findByRole('heading', { name: NOT_FOUND_TITLE })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('shows the header and the switched-off message, without an input, when the agent is inactive', async () => {
    stubFetch(() => jsonResponse(200, { ...agent, active: false }));
    renderChat();
    expect(await screen.findByText(CHATBOT_MESSAGES.inactive)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Course helper' })).toBeInTheDocument();
    expect(screen.getByText('Answers questions about the course')).toBeInTheDocument();
    expect(screen.getByText(/Powered by/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
  });

  it('asks for the e-mail when the course passed none, then remembers it for this agent', async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse(200, agent));
    renderChat('');

    const email = await screen.findByLabelText('Your e-mail address');
    expect(screen.getByText(EMAIL_HINT)).toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();

    await user.type(email, 'not an address');
    await user.click(screen.getByRole('button', { name: 'Start the conversation' }));
    expect(await screen.findByText(/Enter a valid e-mail address/)).toBeInTheDocument();

    await user.clear(email);
    await user.type(email, ' Ada@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Start the conversation' }));

    expect(await screen.findByRole('log')).toBeInTheDocument();
    expect(screen.getByLabelText('Message to Course helper')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(window.localStorage.getItem(`courselens:chat:${AGENT}:email`)).toBe('ada@example.com');
  });

  it('streams a reply, then shows it with its citation and engine, and resumes it on the next visit', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((url, init) => {
      if (url.endsWith('/messages') && init?.method === 'POST') return streamedTurn(turn);
      return jsonResponse(200, agent);
    });
    const { unmount } = renderChat('?email=Ada@Example.com&name=Ada%20Lovelace');

    const log = await screen.findByRole('log');
    expect(log).toHaveAttribute('aria-live', 'polite');
    // The welcome comes first and is not sent to the server.
    expect(within(log).getByText('the course')).toBeInTheDocument();

    const input = screen.getByLabelText('Message to Course helper');
    await user.type(input, 'Can I get a refund?{Enter}');

    expect(await within(log).findByText('14 days', { selector: 'strong' })).toBeInTheDocument();
    await waitFor(() => expect(within(log).getByText('From Handbook — Refunds')).toBeInTheDocument());
    expect(within(log).getByText('Refunds are possible within 14 days.')).toBeInTheDocument();
    expect(within(log).getByText('Built-in assistant')).toBeInTheDocument();
    expect(within(log).getByText('Can I get a refund?')).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();

    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[1]?.headers).toMatchObject({ Accept: 'text/event-stream' });
    expect(post?.[1]?.headers).not.toHaveProperty('X-Organization-Id');
    expect(bodyOf(post?.[1])).toEqual({
      message: 'Can I get a refund?',
      learner: { email: 'ada@example.com', name: 'Ada Lovelace' },
    });
    expect(window.localStorage.getItem(`courselens:chat:${AGENT}:session:ada@example.com`)).toBe(SESSION);

    // Next visit: the conversation comes back from the server, with the e-mail as proof.
    unmount();
    const transcript: ChatTranscriptResponse = {
      sessionId: SESSION,
      // The server stored the opening as the conversation's first message.
      messages: [
        { ...turn.reply, id: 'm0', content: agent.opening, citation: null },
        turn.message,
        turn.reply,
      ],
      captured: {},
      done: false,
    };
    const again = stubFetch((url) =>
      url.includes('/sessions/') ? jsonResponse(200, transcript) : jsonResponse(200, agent),
    );
    renderChat();
    expect(await screen.findByText('From Handbook — Refunds')).toBeInTheDocument();
    expect(screen.getAllByText('the course')).toHaveLength(1);
    expect(fetchedRequests(again).map((request) => request.url)).toContain(
      `/api/chat/${AGENT}/sessions/${SESSION}?email=ada%40example.com`,
    );
  });

  it('shows a typing indicator until the first piece, then the reply as it streams, and waits to send again', async () => {
    const user = userEvent.setup();
    const encoder = new TextEncoder();
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'POST'
        ? new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                stream = controller;
              },
            }),
            { status: 200, headers: { 'content-type': 'text/event-stream' } },
          )
        : jsonResponse(200, agent),
    );
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await user.type(input, 'Can I get a refund?{Enter}');

    expect(await screen.findByText('Course helper is typing')).toBeInTheDocument();
    await user.type(input, 'And a certificate?{Enter}');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(1);

    stream!.enqueue(encoder.encode('event: delta\ndata: {"text":"Yes, within "}\n\n'));
    expect(await screen.findByText(/Yes, within/)).toBeInTheDocument();
    expect(screen.queryByText('Course helper is typing')).not.toBeInTheDocument();
    expect(screen.queryByText('Built-in assistant')).not.toBeInTheDocument();

    stream!.enqueue(encoder.encode(`event: done\ndata: ${JSON.stringify(turn)}\n\n`));
    stream!.close();
    expect(await screen.findByText('Built-in assistant')).toBeInTheDocument();
    expect(input).toHaveValue('And a certificate?');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('sends the next message in the same conversation and handles a JSON answer', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(`courselens:chat:${AGENT}:session:ada@example.com`, SESSION);
    const fetchMock = stubFetch((url, init) => {
      if (url.includes('/sessions/')) {
        return jsonResponse(200, { sessionId: SESSION, messages: [], captured: {}, done: false });
      }
      if (init?.method === 'POST') {
        return jsonResponse(200, { ...turn, reply: { ...turn.reply, engine: 'llm', citation: null } });
      }
      return jsonResponse(200, agent);
    });
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await user.type(input, 'Can I get a refund?');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('AI model')).toBeInTheDocument();
    expect(screen.queryByText(/^From /)).not.toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post?.[1])).toMatchObject({ sessionId: SESSION });
    expect(input).toHaveFocus();
  });

  it('starts afresh when the stored conversation is not found, and on "New conversation"', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(`courselens:chat:${AGENT}:session:ada@example.com`, STORED_SESSION);
    stubFetch((url, init) => {
      if (url.includes('/sessions/')) {
        return jsonResponse(404, { error: CHATBOT_MESSAGES.sessionNotFound, code: 'NOT_FOUND' });
      }
      if (init?.method === 'POST') return streamedTurn(turn);
      return jsonResponse(200, agent);
    });
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await waitFor(() =>
      expect(window.localStorage.getItem(`courselens:chat:${AGENT}:session:ada@example.com`)).toBeNull(),
    );

    await user.type(input, 'Can I get a refund?{Enter}');
    expect(await screen.findByText('From Handbook — Refunds')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(screen.queryByText('From Handbook — Refunds')).not.toBeInTheDocument();
    expect(screen.getByText('the course')).toBeInTheDocument();
    expect(window.localStorage.getItem(`courselens:chat:${AGENT}:session:ada@example.com`)).toBeNull();
    expect(input).toHaveFocus();
  });

  it('shows a refusal inline and keeps the typed text', async () => {
    const user = userEvent.setup();
    stubFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(429, { error: 'Too many chat messages: wait a minute', code: 'RATE_LIMITED' })
        : jsonResponse(200, agent),
    );
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await user.type(input, 'Hello?{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many chat messages: wait a minute');
    expect(input).toHaveValue('Hello?');
    expect(screen.queryByText('Hello?', { selector: 'div' })).not.toBeInTheDocument();
  });

  it('shows an error event of the stream inline', async () => {
    const user = userEvent.setup();
    stubFetch((_url, init) =>
      init?.method === 'POST'
        ? sseResponse([
            'event: delta\ndata: {"text":"Let me"}\n\n',
            'event: error\ndata: {"error":"The model did not answer","code":"LLM_ERROR"}\n\n',
          ])
        : jsonResponse(200, agent),
    );
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await user.type(input, 'Hello?{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The model did not answer');
    expect(screen.queryByText('Let me')).not.toBeInTheDocument();
    expect(input).toHaveValue('Hello?');
  });

  it('follows the theme the course asks for, and in the bubble’s frame forwards Escape to the course page', async () => {
    const user = userEvent.setup();
    const postMessage = vi.fn();
    vi.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage } as unknown as Window);
    stubFetch(() => jsonResponse(200, agent));
    renderChat('?email=ada@example.com&embed=1&theme=dark');
    await screen.findByRole('log');
    expect(document.documentElement).toHaveClass('dark');

    await user.keyboard('{Escape}');
    expect(postMessage).toHaveBeenCalledWith({ type: CHAT_CLOSE_MESSAGE }, '*');
  });

  it('keeps Shift+Enter as a new line and counts characters near the limit', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse(200, agent));
    renderChat();
    const input = await screen.findByLabelText('Message to Course helper');
    await user.type(input, 'one{Shift>}{Enter}{/Shift}two');
    expect(input).toHaveValue('one\ntwo');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.clear(input);
    await user.click(input);
    await user.paste('x'.repeat(MAX_CHAT_MESSAGE_LENGTH + 1));
    expect(screen.getByText('2,001 / 2,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});
