import { chatEmbedSnippets } from '@courselens/contracts';
import { Check, Copy, ExternalLink, Info, PowerOff } from 'lucide-react';
import { useId, useState } from 'react';

import { Button, buttonClassName } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';

/**
 * A snippet to paste into a course, with a copy button. The dashboard has
 * the same block (features/dashboard/components/code-snippet.tsx), but a
 * feature may not import another; it belongs in src/components.
 */
function Snippet({ label, code }: { label: string; code: string }) {
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
        className="max-w-full overflow-x-auto p-4 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}

export type EmbedTabProps = {
  chatbotId: string;
  isActive: boolean;
  /** The app's address as learners reach it; the browser's own by default. */
  origin?: string;
};

/** The Embed tab: the snippets that put the agent on a course page, and what the course fills in. */
export function EmbedTab({ chatbotId, isActive, origin = window.location.origin }: EmbedTabProps) {
  const snippets = chatEmbedSnippets(origin, chatbotId);
  return (
    <div className="flex flex-col gap-6">
      {isActive ? null : (
        <p className="flex items-start gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-600/25 dark:bg-amber-400/10 dark:text-amber-100 dark:ring-amber-400/25">
          <PowerOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          This agent is switched off: embedded, it tells learners so and takes no messages. Switch it on in
          Settings.
        </p>
      )}
      <p className="flex items-start gap-2 text-sm text-fg-muted">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          Replace{' '}
          <code className="rounded bg-surface-muted px-1 font-mono text-xs text-fg">LEARNER_EMAIL</code> with
          the learner’s e-mail address: the course fills it in (most course tools have a placeholder for it),
          so what the agent captures lands on the same learner as their course data.
        </span>
      </p>
      <div className="grid min-w-0 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Inline chat</CardTitle>
            <CardDescription>The whole chat inside the page, 600 px high.</CardDescription>
          </CardHeader>
          <CardContent>
            <Snippet label="Inline chat snippet" code={snippets.iframe} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Chat bubble</CardTitle>
            <CardDescription>A round button in the corner that opens the chat over the page.</CardDescription>
          </CardHeader>
          <CardContent>
            <Snippet label="Chat bubble snippet" code={snippets.bubble} />
          </CardContent>
        </Card>
      </div>
      <div>
        <a
          href={paths.chatbots.chat.href(chatbotId)}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClassName({ variant: 'outline' })}
        >
          <ExternalLink aria-hidden="true" />
          Open the chat page
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
    </div>
  );
}
