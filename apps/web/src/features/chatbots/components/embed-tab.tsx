import { chatEmbedSnippets } from '@courselens/contracts';
import { ExternalLink, Info, PowerOff } from 'lucide-react';

import { CodeSnippet } from '@/components/code-snippet';
import { buttonClassName } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

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
            <CodeSnippet label="Inline chat snippet" code={snippets.iframe} wrap />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Chat bubble</CardTitle>
            <CardDescription>A round button in the corner that opens the chat over the page.</CardDescription>
          </CardHeader>
          <CardContent>
            <CodeSnippet label="Chat bubble snippet" code={snippets.bubble} wrap />
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
