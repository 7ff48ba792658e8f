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
    // A list that starts at 1 says nothing about its start.
    expect(ordered).not.toHaveAttribute('start');
    const bullets = container.querySelector('ul');
    expect([...(bullets?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      'apples',
      'pears',
    ]);
  });

  it('renders headings as bold lines, indented lines inside their item, a list’s start, quotes and code', () => {
    const container = renderMarkdown(
      [
        '## Opening hours',
        'We are open **weekdays**, see *below* and `help`.',
        '',
        '- Monday',
        '- Friday',
        '  until noon',
        '',
        '3. third',
        '4. fourth',
        '',
        '> Quoted',
        '',
        '```',
        'const a = 1;',
        '```',
      ].join('\n'),
    );
    expect(screen.getByText('Opening hours').tagName).toBe('P');
    expect(container.querySelector('h2')).toBeNull();
    expect(screen.getByText('weekdays').tagName).toBe('STRONG');
    expect(screen.getByText('below').tagName).toBe('EM');
    expect(screen.getByText('help').tagName).toBe('CODE');
    const lists = screen.getAllByRole('list');
    expect(lists[0]?.tagName).toBe('UL');
    const friday = lists[0]?.querySelectorAll('li')[1];
    expect(friday?.querySelector('br')).not.toBeNull();
    expect(friday).toHaveTextContent(/^Friday\s*until noon$/);
    expect(lists[1]).toHaveAttribute('start', '3');
    expect(container.querySelector('blockquote')).toHaveTextContent('Quoted');
    expect(container.querySelector('pre')).toHaveTextContent('const a = 1;');
  });

  it('leaves underscores alone, so a variable name keeps its letters', () => {
    const container = renderMarkdown('We store team_size and start_date.');
    expect(container.querySelector('em')).toBeNull();
    expect(container).toHaveTextContent('We store team_size and start_date.');
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

  it('keeps the words of a javascript:, data:, mailto: or relative link as inert text', () => {
    const container = renderMarkdown(
      '[click me](javascript:alert(1)) [data](data:text/html,<b>x</b>) [home](/settings) [write](mailto:a@b.test) ![pic](javascript:alert(3))',
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect(container).toHaveTextContent('click me');
    expect(container).toHaveTextContent('home');
    expect(container).toHaveTextContent('write');
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
