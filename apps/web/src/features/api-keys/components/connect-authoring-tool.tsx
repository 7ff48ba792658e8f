import type { ApiKeyBody } from '@courselens/contracts';
import { Check, ChevronRight, Copy, KeyRound, Plus } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { CodeSnippet } from '@/components/code-snippet';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { apiKeyStatus } from './api-key-status';

import { inputClassName } from '@/components/ui/text-field';

/** The xAPI LRS of this CourseLens: `<origin>/xapi/`, with the trailing slash authoring tools expect. */
export function xapiEndpoint(origin: string): string {
  return `${origin}/xapi/`;
}

/** What a launch link's `auth` holds; the secret is never known after creation, so it stays a placeholder. */
export const LAUNCH_AUTH_PLACEHOLDER = 'Basic%20<base64 of LRS key:LRS secret>';

/** The actor a launch link passes, in the array form Storyline and Rise read. */
const EXAMPLE_ACTOR = {
  objectType: 'Agent',
  name: ['Learner name'],
  mbox: ['mailto:learner@example.com'],
};

/** The query a Storyline or Rise xAPI package is launched with when no LMS launches it. */
export function launchLinkTemplate(endpoint: string): string {
  return (
    `index_lms.html?endpoint=${encodeURIComponent(endpoint)}` +
    `&auth=${LAUNCH_AUTH_PLACEHOLDER}` +
    `&actor=${encodeURIComponent(JSON.stringify(EXAMPLE_ACTOR))}`
  );
}

/** The settings to paste into an authoring tool or an LMS, as plain text. */
export function lrsConfiguration({ endpoint, apiKey }: { endpoint: string; apiKey: ApiKeyBody }): string {
  // Not the key's name: the block is pasted into tools and tickets, where the prefix is enough.
  return [
    `LRS endpoint: ${endpoint}`,
    `LRS key:      ${apiKey.id}`,
    `LRS secret:   the API key itself (${apiKey.prefix}…), shown once when you created it`,
    '',
    'Launch link for Storyline 360 and Rise 360 (replace the auth placeholder and the learner):',
    launchLinkTemplate(endpoint),
  ].join('\n');
}

/**
 * Copies text and says so in a toast; `copiedValue` is what was copied last,
 * so a field shows "Copied" only while it still holds that value.
 */
export function useClipboardCopy() {
  const [copiedValue, setCopiedValue] = useState<string | null>(null);

  async function copy(value: string, subject: string) {
    try {
      await navigator.clipboard.writeText(value);
      setCopiedValue(value);
      toast.success(`${subject} copied to the clipboard`);
    } catch {
      toast.error(`Could not copy the ${subject}. Select it and copy it by hand.`);
    }
  }

  return { copiedValue, copy };
}

export type CopyFieldProps = {
  label: string;
  value: string;
  /** What the copy button and its toast name ("LRS key"); the label when not given. */
  subject?: string;
  hint?: ReactNode;
};

/**
 * A read-only value with a copy button. The value wraps inside its box instead
 * of scrolling, so a phone shows a whole UUID or URL; one click selects it all.
 */
export function CopyField({ label, value, subject = label, hint }: CopyFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const { copiedValue, copy } = useClipboardCopy();
  const isCopied = copiedValue === value;

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span id={labelId} className="text-sm font-medium text-fg">
        {label}
      </span>
      <div className="flex min-w-0 items-start gap-2">
        <div
          role="textbox"
          aria-readonly="true"
          aria-labelledby={labelId}
          aria-describedby={hint ? hintId : undefined}
          tabIndex={0}
          className={cn(
            inputClassName,
            'h-auto min-h-10 min-w-0 flex-1 py-2.5 font-mono text-xs leading-5 break-all select-all',
          )}
        >
          {value}
        </div>
        <Button variant="outline" onClick={() => void copy(value, subject)} aria-label={`Copy ${subject}`}>
          {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          <span className="hidden sm:inline">{isCopied ? 'Copied' : 'Copy'}</span>
        </Button>
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export type ConnectAuthoringToolProps = {
  /** The organization's keys, any status: only active ones are offered. */
  apiKeys: ApiKeyBody[];
  /** Opens the create-key dialog (the empty state's button). */
  onCreateKey: () => void;
  /** Where CourseLens is served; the page's own origin by default. */
  origin?: string;
};

/**
 * What to enter in Storyline, Rise, Captivate or iSpring (or the LMS that
 * launches their xAPI package) so a published course reports to the
 * organization's LRS at `/xapi/`, authenticated with one of its API keys.
 */
export function ConnectAuthoringTool({
  apiKeys,
  onCreateKey,
  origin = window.location.origin,
}: ConnectAuthoringToolProps) {
  const headingId = useId();
  const selectId = useId();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const activeKeys = apiKeys.filter((apiKey) => apiKeyStatus(apiKey) === 'active');
  // A key revoked meanwhile falls back to the newest active one.
  const selected = activeKeys.find((apiKey) => apiKey.id === selectedId) ?? activeKeys[0];
  const endpoint = xapiEndpoint(origin);

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle as="h3" id={headingId}>
          Connect an authoring tool
        </CardTitle>
        <CardDescription className="max-w-3xl">
          Courses published for xAPI (Tin Can) from Storyline 360, Rise 360, Captivate or iSpring report to
          CourseLens as they would to any LRS: enter these settings, no tracker code needed.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {selected ? (
          <>
            <div className="flex max-w-md flex-col gap-1.5">
              <label htmlFor={selectId} className="text-sm font-medium text-fg">
                API key
              </label>
              <select
                id={selectId}
                value={selected.id}
                onChange={(event) => setSelectedId(event.target.value)}
                className={inputClassName}
              >
                {activeKeys.map((apiKey) => (
                  // The name goes in `label` (what the list shows and screen readers read), not
                  // in the text, so a search of the page's text finds a key's name once: in its row.
                  <option key={apiKey.id} value={apiKey.id} label={`${apiKey.name} (${apiKey.prefix}…)`} />
                ))}
              </select>
            </div>
            <div className="grid min-w-0 gap-4 lg:grid-cols-2">
              <CopyField label="LRS endpoint" value={endpoint} />
              <CopyField
                label="LRS key"
                value={selected.id}
                hint="The API key’s id (some tools call it the username)."
              />
              <LrsSecretField prefix={selected.prefix} />
            </div>
            <div className="flex min-w-0 flex-col gap-2">
              <p className="text-sm text-fg-muted">
                An LMS that launches the course passes its own LRS settings. To launch the published{' '}
                <code className="font-mono text-xs text-fg">index_lms.html</code> yourself, add the endpoint,
                the authorization and the learner to its address:
              </p>
              <CodeSnippet
                label="Connection settings"
                code={lrsConfiguration({ endpoint, apiKey: selected })}
                wrap
              />
            </div>
          </>
        ) : (
          <EmptyState
            icon={<KeyRound aria-hidden="true" />}
            title="No active API key"
            action={
              <Button variant="outline" onClick={onCreateKey}>
                <Plus aria-hidden="true" />
                Create an API key
              </Button>
            }
          >
            A course signs in to the LRS with an API key: its id is the LRS key and the key itself the LRS
            secret. Create one to get the settings.
          </EmptyState>
        )}
        <WhatCourseLensRecords />
      </CardContent>
    </Card>
  );
}

/** The secret cannot be shown again (only its hash is stored): say where it is instead. */
function LrsSecretField({ prefix }: { prefix: string }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5 lg:col-span-2">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        LRS secret
      </label>
      <input
        id={id}
        readOnly
        placeholder={`${prefix}…`}
        aria-describedby={`${id}-hint`}
        className={cn(inputClassName, 'font-mono text-xs lg:max-w-[calc(50%-0.5rem)]')}
      />
      <p id={`${id}-hint`} className="text-xs text-fg-muted">
        The API key itself (starting with <code className="font-mono">{prefix}</code>), shown once when you
        created it; create a new key if you no longer have it. Some tools call it the password.
      </p>
    </div>
  );
}

const recordRules: { subject: string; rule: ReactNode }[] = [
  {
    subject: 'Course runs',
    rule: (
      <>
        from <em>launched</em>, <em>initialized</em> or <em>attempted</em>; a statement’s registration keeps
        its run together.
      </>
    ),
  },
  {
    subject: 'Completion and pass',
    rule: (
      <>
        from <em>completed</em>, <em>passed</em> and <em>failed</em>, with the score and the pass mark.
      </>
    ),
  },
  {
    subject: 'Answers',
    rule: (
      <>
        from <em>answered</em> with an interaction definition: the question, the answer, whether it was
        correct and its points.
      </>
    ),
  },
  {
    subject: 'Slide views',
    rule: (
      <>
        from <em>experienced</em> on a slide or page of the course.
      </>
    ),
  },
  {
    subject: 'Variables',
    rule: (
      <>
        from result extensions whose IRI ends in{' '}
        <code className="font-mono text-xs break-all">/variables/&lt;name&gt;</code>, such as a Storyline
        “Send xAPI statement” trigger sends, and from a <code className="font-mono text-xs">variables</code>{' '}
        state document holding a JSON object.
      </>
    ),
  },
  {
    subject: 'LRS records',
    rule: <>every statement is also kept whole, including the ones that map to nothing above.</>,
  },
];

function WhatCourseLensRecords() {
  return (
    <details className="group rounded-xl border border-line bg-surface-muted/40 px-4 py-3">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded text-sm font-medium text-fg focus-visible:outline-2 focus-visible:outline-focus [&::-webkit-details-marker]:hidden">
        <ChevronRight
          aria-hidden="true"
          className="size-4 shrink-0 text-fg-muted transition-transform group-open:rotate-90"
        />
        What CourseLens records
      </summary>
      <ul className="mt-3 flex list-disc flex-col gap-1.5 pl-5 text-sm sm:pl-10 text-fg-muted">
        {recordRules.map(({ subject, rule }) => (
          <li key={subject}>
            <span className="font-medium text-fg">{subject}:</span> {rule}
          </li>
        ))}
      </ul>
    </details>
  );
}
