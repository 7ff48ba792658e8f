import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

/**
 * A small, safe reader of the markdown agents write: paragraphs, headings,
 * lists, quotes, fenced code, and inline bold, italic, code and links.
 * Everything becomes React elements and text, never HTML, so a reply
 * cannot inject markup; links open only http(s) and mailto addresses.
 */

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'code'; text: string };

const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const FENCE = /^\s*(```|~~~)/;

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trim().startsWith(fence[1] ?? '```')) {
        code.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      index += 1;
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = !bullet;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      const start = numbered ? Number(numbered[1]) : 1;
      while (index < lines.length) {
        const current = lines[index] ?? '';
        const match = pattern.exec(current);
        if (match) items.push((ordered ? match[2] : match[1]) ?? '');
        else if (current.trim() !== '' && /^\s{2,}/.test(current) && items.length > 0) {
          // An indented line carries on the item above it.
          items[items.length - 1] = `${items[items.length - 1]} ${current.trim()}`;
        } else break;
        index += 1;
      }
      blocks.push({ kind: 'list', ordered, start, items });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index] ?? '')) {
        quoted.push(QUOTE.exec(lines[index] ?? '')?.[1] ?? '');
        index += 1;
      }
      blocks.push({ kind: 'quote', lines: quoted });
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length) {
      const current = lines[index] ?? '';
      if (
        current.trim() === '' ||
        FENCE.test(current) ||
        HEADING.test(current) ||
        BULLET.test(current) ||
        NUMBERED.test(current) ||
        QUOTE.test(current)
      ) {
        break;
      }
      paragraph.push(current);
      index += 1;
    }
    blocks.push({ kind: 'paragraph', lines: paragraph });
  }
  return blocks;
}

/** Only addresses that open a page or a mail: `javascript:` and the like stay text. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : null;
}

const INLINE =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*|__[^_\n]+__)|(\*[^*\s][^*\n]*\*|_[^_\s][^_\n]*_)|(\[[^\]\n]+\]\([^)\s]+\))/;

function renderInline(text: string, keyPrefix: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let rest = text;
  let key = 0;
  while (rest !== '') {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push(rest);
      break;
    }
    if (match.index > 0) nodes.push(rest.slice(0, match.index));
    const token = match[0];
    const id = `${keyPrefix}-${key}`;
    key += 1;
    if (match[1]) {
      nodes.push(
        <code key={id} className="rounded bg-black/5 px-1 py-0.5 font-mono text-[0.85em] dark:bg-white/10">
          {token.slice(1, -1)}
        </code>,
      );
    } else if (match[2]) {
      nodes.push(<strong key={id}>{renderInline(token.slice(2, -2), id)}</strong>);
    } else if (match[3]) {
      nodes.push(<em key={id}>{renderInline(token.slice(1, -1), id)}</em>);
    } else {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
      const href = link ? safeHref(link[2] ?? '') : null;
      nodes.push(
        href ? (
          <a
            key={id}
            href={href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="rounded underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-focus"
          >
            {link?.[1]}
          </a>
        ) : (
          (link?.[1] ?? token)
        ),
      );
    }
    rest = rest.slice(match.index + token.length);
  }
  return nodes;
}

function withBreaks(lines: string[], keyPrefix: string): ReactNode[] {
  return lines.flatMap((line, index) => {
    const content = renderInline(line, `${keyPrefix}-${index}`);
    return index === 0 ? content : [<br key={`${keyPrefix}-br-${index}`} />, ...content];
  });
}

export type MarkdownTextProps = { text: string; className?: string };

export function MarkdownText({ text, className }: MarkdownTextProps) {
  const blocks = parseBlocks(text);
  return (
    <div className={cn('flex min-w-0 flex-col gap-2 break-words', className)}>
      {blocks.map((block, index) => {
        const key = `b${index}`;
        switch (block.kind) {
          case 'heading':
            // Inside a transcript, a reply's heading is emphasis, not part of the page's outline.
            return (
              <p key={key} className="font-semibold">
                {renderInline(block.text, key)}
              </p>
            );
          case 'list': {
            const items = block.items.map((item, itemIndex) => (
              <li key={`${key}-${itemIndex}`}>{renderInline(item, `${key}-${itemIndex}`)}</li>
            ));
            return block.ordered ? (
              <ol key={key} start={block.start} className="list-decimal space-y-1 pl-5">
                {items}
              </ol>
            ) : (
              <ul key={key} className="list-disc space-y-1 pl-5">
                {items}
              </ul>
            );
          }
          case 'quote':
            return (
              <blockquote key={key} className="border-l-2 border-current/30 pl-3 italic opacity-90">
                {withBreaks(block.lines, key)}
              </blockquote>
            );
          case 'code':
            return (
              <pre
                key={key}
                className="overflow-x-auto rounded-lg bg-black/5 p-2 font-mono text-xs whitespace-pre dark:bg-white/10"
              >
                <code>{block.text}</code>
              </pre>
            );
          case 'paragraph':
            return <p key={key}>{withBreaks(block.lines, key)}</p>;
        }
      })}
    </div>
  );
}
