import { KeyRound, RefreshCw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { CodeSnippet } from '@/components/code-snippet';
import { Button, buttonClassName } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useCanManage } from '@/lib/roles';

/** The tracker snippet for a course page or a Storyline "Execute JavaScript" trigger. */
export function trackerSnippet(origin: string): string {
  return [
    `<script src="${origin}/tracker.js"></script>`,
    '<script>',
    '  CourseLens.init({',
    `    endpoint: '${origin}',`,
    "    key: 'YOUR_INGEST_KEY',",
    "    course: { externalCourseId: 'onboarding-101', title: 'Onboarding 101' },",
    "    learner: { email: 'learner@example.com', name: 'Ada Learner' },",
    '  });',
    '</script>',
  ].join('\n');
}

/** One test event for `POST /api/v1/events`, as curl sends it. */
export function testEventCommand(origin: string, eventId: string): string {
  const body = JSON.stringify({
    events: [
      {
        id: eventId,
        type: 'course.started',
        course: { externalCourseId: 'onboarding-101', title: 'Onboarding 101' },
        learner: { email: 'learner@example.com', name: 'Ada Learner' },
      },
    ],
  });
  return [
    `curl -X POST ${origin}/api/v1/events \\`,
    "  -H 'Authorization: Bearer YOUR_INGEST_KEY' \\",
    "  -H 'Content-Type: application/json' \\",
    `  -d '${body}'`,
  ].join('\n');
}

type StepProps = { number: number; title: string; children: ReactNode };

function Step({ number, title, children }: StepProps) {
  return (
    <li className="grid min-w-0 grid-cols-[2rem_minmax(0,1fr)] gap-x-4 gap-y-2">
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white dark:bg-brand-500"
      >
        {number}
      </span>
      <h3 className="self-center font-semibold text-fg">
        <span className="sr-only">Step {number}: </span>
        {title}
      </h3>
      <div className="col-start-2 flex min-w-0 flex-col gap-3 text-sm text-fg-muted">{children}</div>
    </li>
  );
}

export type GettingStartedProps = {
  /** Where the product is served, e.g. `https://app.example.com`. */
  origin: string;
  onCheckAgain: () => void;
  isChecking?: boolean;
};

/** What an organization without courses or events sees: three steps to its first data. */
export function GettingStarted({ origin, onCheckAgain, isChecking = false }: GettingStartedProps) {
  const [eventId] = useState(() => `test-${Date.now().toString(36)}`);
  const apiKeys = useCanManage('api-keys');
  return (
    <Card className="p-5 sm:p-8" data-testid="getting-started">
      <h2 className="text-xl font-semibold tracking-tight text-fg">Get your first learning data in</h2>
      <p className="mt-1.5 max-w-2xl text-sm text-fg-muted">
        Nothing has arrived yet. Connect a course in three steps; this page fills in as soon as the first
        event is stored.
      </p>
      <ol className="mt-8 flex flex-col gap-8">
        {apiKeys.reason ? (
          <Step number={1} title="Get an API key from an owner">
            <p>
              {apiKeys.reason}: ask an owner of your organization for an ingest key. It only sends learning
              data, so it is safe inside a course.
            </p>
          </Step>
        ) : (
          <Step number={1} title="Create an API key">
            <p>
              Create an ingest key: it only sends learning data, so it is safe inside a course. It is shown
              once: keep it for the next two steps.
            </p>
            <div>
              <Link
                to={`${paths.organization.settings.href()}?tab=api-keys`}
                className={buttonClassName({ variant: 'primary' })}
              >
                <KeyRound aria-hidden="true" />
                Create an API key
              </Link>
            </div>
          </Step>
        )}
        <Step number={2} title="Paste the snippet into your course">
          <p>
            Add it to the course page, or to an “Execute JavaScript” trigger in Storyline, and replace{' '}
            <code className="rounded bg-surface-muted px-1 py-0.5 font-mono text-xs text-fg">
              YOUR_INGEST_KEY
            </code>{' '}
            and the course and learner details. Then call{' '}
            <code className="font-mono text-xs text-fg">CourseLens.setVariable(name, value)</code>,{' '}
            <code className="font-mono text-xs text-fg">CourseLens.answer(&#123;…&#125;)</code> and{' '}
            <code className="font-mono text-xs text-fg">CourseLens.complete()</code> as the learner goes.
          </p>
          <CodeSnippet label="Tracker snippet" code={trackerSnippet(origin)} />
          <p>
            The whole tracker API, with a Storyline example, is in the{' '}
            <a
              href={paths.docs.href()}
              className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
            >
              documentation
            </a>
            .
          </p>
        </Step>
        <Step number={3} title="Send a test event">
          <p>Or check the key from a terminal: this sends one “course started” event.</p>
          <CodeSnippet label="Test event command" code={testEventCommand(origin, eventId)} />
          <div>
            <Button variant="outline" onClick={onCheckAgain} isLoading={isChecking}>
              {isChecking ? null : <RefreshCw aria-hidden="true" />}
              Check for data
            </Button>
          </div>
        </Step>
      </ol>
    </Card>
  );
}
