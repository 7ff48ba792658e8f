import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ChatMessageBubble, CitationNote, citationSource } from './chat-message';

describe('ChatMessageBubble', () => {
  it('draws the learner’s text in the agent’s colour and says who wrote it', () => {
    render(
      <ChatMessageBubble from="learner" speaker="You" color="#fde68a">
        Hello
      </ChatMessageBubble>,
    );
    const bubble = screen.getByText('Hello');
    expect(bubble).toHaveTextContent('You: Hello');
    expect(bubble).toHaveStyle({ backgroundColor: '#fde68a', color: '#0f172a' });
  });

  it('draws the agent’s reply on the surface, without the agent’s colour', () => {
    render(
      <ChatMessageBubble from="agent" speaker="Coach" color="#4f46e5">
        Hi there
      </ChatMessageBubble>,
    );
    const bubble = screen.getByText('Hi there');
    expect(bubble).toHaveTextContent('Coach: Hi there');
    expect(bubble.getAttribute('style')).toBeNull();
  });
});

describe('citations', () => {
  it('names the section only when it is not the document itself', () => {
    expect(citationSource({ document: 'Handbook', title: 'Refunds' })).toBe('From Handbook — Refunds');
    expect(citationSource({ document: 'Handbook', title: ' Handbook ' })).toBe('From Handbook');
    expect(citationSource({ document: 'Handbook', title: '' })).toBe('From Handbook');
  });

  it('shows the quote and its source, and leaves out an empty quote', () => {
    const { container, rerender } = render(
      <CitationNote citation={{ document: 'Handbook', title: 'Refunds', quote: 'Within 30 days.' }} />,
    );
    expect(container.querySelector('blockquote')).toHaveTextContent('Within 30 days.');
    expect(container.querySelector('figcaption')).toHaveTextContent('From Handbook — Refunds');
    rerender(<CitationNote citation={{ document: 'Handbook', title: 'Refunds', quote: ' ' }} isFull />);
    expect(container.querySelector('blockquote')).toBeNull();
  });

  it('does not repeat a quote the reply already reads out, but still names its source', () => {
    const citation = { document: 'Handbook', title: 'Refunds', quote: 'Within 30 days.' };
    const { container } = render(
      <CitationNote citation={citation} reply={'From "Refunds" (Handbook): "Within 30 days."'} />,
    );
    expect(container.querySelector('blockquote')).toBeNull();
    expect(container.querySelector('figcaption')).toHaveTextContent('From Handbook — Refunds');
  });
});
