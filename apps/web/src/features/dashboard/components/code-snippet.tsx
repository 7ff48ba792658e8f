import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';

export type CodeSnippetProps = {
  /** Names the code for the copy button and screen readers ("Tracker snippet"). */
  label: string;
  code: string;
};

/** A block of code to paste somewhere else, with a copy button. */
export function CodeSnippet({ label, code }: CodeSnippetProps) {
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

  return (
    <div className="relative min-w-0">
      <pre
        id={id}
        aria-label={label}
        // Scrollable code must be reachable by keyboard.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="max-w-full overflow-x-auto rounded-xl border border-line bg-slate-950 p-4 pr-24 font-mono text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus dark:bg-black/40"
      >
        <code>{code}</code>
      </pre>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => void handleCopy()}
        aria-label={`Copy ${label.toLowerCase()}`}
        aria-controls={id}
        className="absolute top-2 right-2 bg-white/10 text-slate-100 hover:bg-white/20 dark:bg-white/10 dark:hover:bg-white/20"
      >
        {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {isCopied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}
