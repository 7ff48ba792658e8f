import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

/**
 * A small markdown renderer for the agents' replies (on the public chat page
 * and in the authors' transcripts), which are written by a model or built
 * from the author's knowledge text, so never trusted. It builds React
 * elements and nothing else: raw HTML comes out as the text it is, links go
 * only to http(s) addresses, in a new tab, without an opener or a referrer,
 * and images are shown as links (no request leaves the page by itself). It
 * covers what replies use: paragraphs with line breaks, headings (as bold
 * lines: a reply is not a document outline), bullet and numbered lists,
 * quotes, fenced code, rules, **bold**, *italic*, `code`, [links](…) and bare
 * addresses. Underscores are not emphasis: replies name variables such as
 * `team_size`, which must not turn italic. No markdown library is a
 * dependency of the app, and this is smaller than any.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const RULE = /^\s{0,3}(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$/;
/** A line under a list item that belongs to it (indented). */
const CONTINUATION = /^\s{2,}\S/;

type ListItem = { lines: string[] };

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    QUOTE.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    RULE.test(line)
  );
}

/** The blocks of a markdown text as React elements. */
function renderMarkdown(source: string): ReactNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let index = 0;

  while (index < lines.length) {
    const line = lines[index] ?? '';
    const key = `b${blocks.length}`;

    if (line.trim() === '') {
      index += 1;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trim().startsWith(marker)) {
        code.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      blocks.push(
        <pre key={key} className="overflow-x-auto rounded-md bg-surface-muted p-3 text-xs leading-relaxed">
          <code className="font-mono">{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }

    if (RULE.test(line)) {
      blocks.push(<hr key={key} className="border-line" />);
      index += 1;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push(
        <p key={key} className="font-semibold">
          {renderInline(heading[1] ?? '', key)}
        </p>,
      );
      index += 1;
      continue;
    }

    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length) {
        const match = QUOTE.exec(lines[index] ?? '');
        if (!match) break;
        quoted.push(match[1] ?? '');
        index += 1;
      }
      blocks.push(
        <blockquote key={key} className="border-l-2 border-line-strong pl-3 text-fg-muted">
          {renderMarkdown(quoted.join('\n'))}
        </blockquote>,
      );
      continue;
    }

    const isNumbered = NUMBERED.test(line);
    if (isNumbered || BULLET.test(line)) {
      const pattern = isNumbered ? NUMBERED : BULLET;
      const start = isNumbered ? Number(NUMBERED.exec(line)?.[1] ?? 1) : 1;
      const items: ListItem[] = [];
      while (index < lines.length) {
        const current = lines[index] ?? '';
        const item = pattern.exec(current);
        if (item) {
          items.push({ lines: [(isNumbered ? item[2] : item[1]) ?? ''] });
        } else if (CONTINUATION.test(current) && items.length > 0) {
          items[items.length - 1]?.lines.push(current.trim());
        } else {
          break;
        }
        index += 1;
      }
      const children = items.map((item, itemIndex) => (
        <li key={itemIndex}>{renderLines(item.lines, `${key}i${itemIndex}`)}</li>
      ));
      blocks.push(
        isNumbered ? (
          <ol key={key} start={start === 1 ? undefined : start} className="list-decimal space-y-1 pl-5">
            {children}
          </ol>
        ) : (
          <ul key={key} className="list-disc space-y-1 pl-5">
            {children}
          </ul>
        ),
      );
      continue;
    }

    const paragraph: string[] = [];
    while (index < lines.length) {
      const current = lines[index] ?? '';
      if (current.trim() === '' || (paragraph.length > 0 && startsBlock(current))) break;
      paragraph.push(current.trim());
      index += 1;
    }
    blocks.push(<p key={key}>{renderLines(paragraph, key)}</p>);
  }

  return blocks;
}

/** Lines of one block: a single line break in a reply is meant, so it stays one. */
function renderLines(lines: string[], key: string): ReactNode[] {
  return lines.flatMap((line, lineIndex) => [
    ...(lineIndex > 0 ? [<br key={`${key}br${lineIndex}`} />] : []),
    ...renderInline(line, `${key}l${lineIndex}`),
  ]);
}

// One pass finds the earliest of: an escaped character, `code`, **bold**,
// *italic*, a [link](address) or ![image](address), a bare http(s) address.
const INLINE =
  /\\([\\`*_{}[\]()#+\-.!>~|])|`([^`\n]+)`|\*\*(?=\S)(.+?)\*\*|\*(?=[^\s*])(.*?[^\s*\\])\*|!?\[([^\]\n]+)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"\n]*")?\s*\)|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"*_\]])/g;

/** An address a link may go to: http or https only, anything else (javascript:, data:, relative) is refused. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium break-words text-accent underline underline-offset-2 hover:no-underline"
    >
      {children}
    </a>
  );
}

/** Inline markup of one line; `allowLinks` is off inside a link's own text. */
function renderInline(text: string, key = 'i', allowLinks = true): ReactNode[] {
  const nodes: ReactNode[] = [];
  let plain = '';
  let last = 0;
  const flush = () => {
    if (plain !== '') nodes.push(plain);
    plain = '';
  };

  for (const match of text.matchAll(INLINE)) {
    const [whole, escaped, code, bold, italic, label, address, bare] = match;
    const at = match.index;
    const nodeKey = `${key}-${at}`;
    plain += text.slice(last, at);
    last = at + whole.length;

    if (escaped !== undefined) {
      plain += escaped;
      continue;
    }
    if (code !== undefined) {
      flush();
      nodes.push(
        <code key={nodeKey} className="rounded bg-surface-muted px-1 py-0.5 font-mono text-[0.85em]">
          {code}
        </code>,
      );
      continue;
    }
    if (bold !== undefined) {
      flush();
      nodes.push(
        <strong key={nodeKey} className="font-semibold">
          {renderInline(bold, nodeKey, allowLinks)}
        </strong>,
      );
      continue;
    }
    if (italic !== undefined) {
      flush();
      nodes.push(<em key={nodeKey}>{renderInline(italic, nodeKey, allowLinks)}</em>);
      continue;
    }
    if (label !== undefined) {
      const href = allowLinks ? safeHref(address ?? '') : null;
      flush();
      const content = renderInline(label, nodeKey, false);
      // A refused address keeps its words, as plain text, and loses the link.
      nodes.push(
        href ? (
          <ExternalLink key={nodeKey} href={href}>
            {content}
          </ExternalLink>
        ) : (
          <span key={nodeKey}>{content}</span>
        ),
      );
      continue;
    }
    if (bare !== undefined) {
      const href = allowLinks ? safeHref(bare) : null;
      if (!href) {
        plain += bare;
        continue;
      }
      flush();
      nodes.push(
        <ExternalLink key={nodeKey} href={href}>
          {bare}
        </ExternalLink>,
      );
    }
  }
  plain += text.slice(last);
  flush();
  return nodes;
}

export type MarkdownProps = {
  text: string;
  className?: string;
};

/** A reply's markdown, rendered safely (see {@link renderMarkdown}). */
export function Markdown({ text, className }: MarkdownProps) {
  return <div className={cn('space-y-2 break-words', className)}>{renderMarkdown(text)}</div>;
}
