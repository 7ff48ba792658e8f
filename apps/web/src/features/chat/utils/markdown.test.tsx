import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Markdown, safeHref } from './markdown';

function renderMarkdown(text: string) {
  return render(<Markdown text={text} />).container;
}

describe('Markdown', () => {
  it('renders paragraphs, bold, italic, code and line breaks', () => {
    const container = renderMarkdown('Hello **Ada** and *welcome*.\nUse `npm test` now.\n\nSecond paragraph');
    const paragraphs = container.querySelectorAll('p');
    expect(paragraphs).toHaveLength(2);
    expect(container.querySelector('strong')).toHaveTextContent('Ada');
    expect(container.querySelector('em')).toHaveTextContent('welcome');
    expect(container.querySelector('code')).toHaveTextContent('npm test');
    expect(paragraphs[0]!.querySelector('br')).not.toBeNull();
    expect(paragraphs[1]).toHaveTextContent('Second paragraph');
  });

  it('renders bullet and numbered lists', () => {
    const container = renderMarkdown('Steps:\n1. Open the course\n2. Click **Start**\n\n- apples\n- pears');
    const ordered = container.querySelector('ol');
    expect(ordered?.querySelectorAll('li')).toHaveLength(2);
    expect(ordered?.querySelector('strong')).toHaveTextContent('Start');
    const bullets = container.querySelector('ul');
    expect([...(bullets?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      'apples',
      'pears',
    ]);
  });

  it('links http(s) addresses in a new tab without opener or referrer', () => {
    renderMarkdown('See [the guide](https://example.com/guide) or https://example.org/faq.');
    const guide = screen.getByRole('link', { name: 'the guide' });
    expect(guide).toHaveAttribute('href', 'https://example.com/guide');
    expect(guide).toHaveAttribute('target', '_blank');
    expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
    // The full stop ends the sentence, not the address.
    expect(screen.getByRole('link', { name: 'https://example.org/faq' })).toHaveAttribute(
      'href',
      'https://example.org/faq',
    );
  });

  it('shows raw HTML as text and never creates its elements', () => {
    const container = renderMarkdown(
      'Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <a href="https://evil.test">x</a>',
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    // The tag stays text; only its bare https address becomes one of our own safe links.
    expect(screen.queryByRole('link', { name: 'x' })).not.toBeInTheDocument();
    expect(container).toHaveTextContent('<a href="https://evil.test">x</a>');
    expect(container).toHaveTextContent('<script>alert(1)</script>');
    expect(container).toHaveTextContent('<img src=x onerror="alert(2)">');
  });

  it('keeps the words of a javascript:, data: or relative link as inert text', () => {
    const container = renderMarkdown(
      '[click me](javascript:alert(1)) [data](data:text/html,<b>x</b>) [home](/settings) ![pic](javascript:alert(3))',
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect(container).toHaveTextContent('click me');
    expect(container).toHaveTextContent('home');
  });

  it('shows an image as a link rather than loading it', () => {
    const container = renderMarkdown('![Course map](https://example.com/map.png)');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Course map' })).toHaveAttribute(
      'href',
      'https://example.com/map.png',
    );
  });

  it('keeps escaped markers and code literally', () => {
    const container = renderMarkdown('2 \\* 3 and `**not bold**`\n\n```\n<b>code</b>\n```');
    expect(container.querySelector('strong')).toBeNull();
    expect(container).toHaveTextContent('2 * 3 and **not bold**');
    expect(container.querySelector('pre')).toHaveTextContent('<b>code</b>');
    expect(container.querySelector('b')).toBeNull();
  });
});

describe('safeHref', () => {
  it('accepts http and https only', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('http://example.com/a?b=1')).toBe('http://example.com/a?b=1');
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref(' javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBeNull();
    expect(safeHref('//evil.test')).toBeNull();
  });
});
