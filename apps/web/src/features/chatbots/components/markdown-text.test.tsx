import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MarkdownText, parseBlocks, safeHref } from './markdown-text';

describe('MarkdownText', () => {
  it('renders headings, lists, quotes, code and inline marks', () => {
    const { container } = render(
      <MarkdownText
        text={[
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
        ].join('\n')}
      />,
    );
    expect(screen.getByText('Opening hours').tagName).toBe('P');
    expect(screen.getByText('weekdays').tagName).toBe('STRONG');
    expect(screen.getByText('below').tagName).toBe('EM');
    expect(screen.getByText('help').tagName).toBe('CODE');
    const lists = screen.getAllByRole('list');
    expect(lists[0]?.tagName).toBe('UL');
    expect(lists[0]).toHaveTextContent('Friday until noon');
    expect(lists[1]).toHaveAttribute('start', '3');
    expect(container.querySelector('blockquote')).toHaveTextContent('Quoted');
    expect(container.querySelector('pre')).toHaveTextContent('const a = 1;');
  });

  it('never turns text into markup, and links only to web and mail addresses', () => {
    const { container } = render(
      <MarkdownText
        text={'<img src=x onerror=alert(1)> [evil](javascript:alert(1)) [docs](https://example.com/a)'}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(screen.queryByRole('link', { name: 'evil' })).toBeNull();
    expect(screen.getByText(/evil/)).toBeInTheDocument();
    const docs = screen.getByRole('link', { name: 'docs' });
    expect(docs).toHaveAttribute('href', 'https://example.com/a');
    expect(docs).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });
});

describe('parseBlocks', () => {
  it('keeps line breaks inside a paragraph and splits on blank lines', () => {
    expect(parseBlocks('one\ntwo\n\nthree')).toEqual([
      { kind: 'paragraph', lines: ['one', 'two'] },
      { kind: 'paragraph', lines: ['three'] },
    ]);
  });

  it('allows only http(s) and mailto links', () => {
    expect(safeHref('https://a.test')).toBe('https://a.test');
    expect(safeHref('mailto:a@b.test')).toBe('mailto:a@b.test');
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
  });
});
