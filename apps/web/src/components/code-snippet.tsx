import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

export type CodeSnippetProps = {
  /** Names the code for the copy button and screen readers ("Tracker snippet"). */
  label: string;
  code: string;
  /**
   * Wraps long lines instead of scrolling sideways: for markup pasted whole
   * (an embed tag is one long line), not for commands read line by line.
   */
  wrap?: boolean;
};

/** A block of code to paste somewhere else, with a copy button. */
export function CodeSnippet({ label, code, wrap = false }: CodeSnippetProps) {
  const id = useId();
  const [isCopied, setIsCopied] = useState(false);

  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(code);
      setIsCopied(true);
      toast.success(`${label} copied to the clipboard`);
    } catch {
      toast.error('Could not copy. Select the code and copy it by hand.');
    }
  }

  // The copy button sits in a bar above the code, not over it: on a phone the
  // code scrolls sideways and a button laid on top would hide its first line.
  return (
    <div className="min-w-0 overflow-hidden rounded-xl border border-line bg-slate-950 dark:bg-black/40">
      <div className="flex items-center justify-between gap-2 border-b border-white/10 py-1.5 pr-1.5 pl-4">
        <span aria-hidden="true" className="truncate text-xs font-medium text-slate-400">
          {label}
        </span>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void handleCopy()}
          aria-label={`Copy ${label.toLowerCase()}`}
          aria-controls={id}
          className="bg-white/10 text-slate-100 hover:bg-white/20 dark:bg-white/10 dark:hover:bg-white/20"
        >
          {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <pre
        id={id}
        aria-label={label}
        // Scrollable code must be reachable by keyboard.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className={cn(
          'max-w-full overflow-x-auto p-4 font-mono text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus',
          wrap ? 'break-all whitespace-pre-wrap' : null,
        )}
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
