import { Fragment } from 'react';

export type SummaryNarrativeProps = {
  /** Plain text: paragraphs separated by blank lines, bullets as lines starting with "- ". */
  content: string;
};

type Block = { kind: 'paragraph'; lines: string[] } | { kind: 'list'; items: string[] };

/** Splits a summary into paragraphs and bullet lists (no HTML is ever interpreted). */
export function parseNarrative(content: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of content.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = chunk
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    let list: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) blocks.push({ kind: 'paragraph', lines: paragraph });
      if (list.length > 0) blocks.push({ kind: 'list', items: list });
      paragraph = [];
      list = [];
    };
    for (const line of lines) {
      if (line.startsWith('- ')) {
        if (paragraph.length > 0) flush();
        list.push(line.slice(2));
      } else {
        if (list.length > 0) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}

/** The summary's text, as paragraphs and lists. */
export function SummaryNarrative({ content }: SummaryNarrativeProps) {
  return (
    <div className="flex flex-col gap-4 text-base/7 text-pretty text-fg">
      {parseNarrative(content).map((block, index) =>
        block.kind === 'list' ? (
          <ul key={index} className="flex list-disc flex-col gap-1 pl-5 marker:text-fg-subtle">
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>{item}</li>
            ))}
          </ul>
        ) : (
          <p key={index}>
            {block.lines.map((line, lineIndex) => (
              <Fragment key={lineIndex}>
                {lineIndex > 0 ? <br /> : null}
                {line}
              </Fragment>
            ))}
          </p>
        ),
      )}
    </div>
  );
}
