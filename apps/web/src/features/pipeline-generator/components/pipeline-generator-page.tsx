import {
  ACTION_TYPE_LABELS,
  MAX_BROADCAST_MESSAGE_LENGTH,
  MAX_PIPELINE_PROMPT_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  generatePipelineInput,
  webhookUrlProblem,
  type CreatedAction,
  type GeneratePipelineResponse,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ArrowRight,
  CornerDownRight,
  HelpCircle,
  MessageCircleQuestion,
  Plus,
  Sparkles,
  Workflow,
} from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';

import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField, inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useCreateGeneratedPipeline } from '../api/create-generated-pipeline';
import { useGeneratePipeline } from '../api/generate-pipeline';

import { describeDraft, type DraftStep } from './describe-draft';

export const EXAMPLES = [
  'When a learner fails the safety course twice, e-mail the team and set at_risk to true',
  'Every Monday at 8am notify the team',
  'When someone completes any course, send a webhook to https://hooks.example.com/courselens',
  'If a learner has not finished onboarding a week after starting it, e-mail them a reminder',
];

type PromptValues = z.input<typeof generatePipelineInput>;
type Result = GeneratePipelineResponse;
type MissingAction = Result['missingActions'][number];

/** What the person fills in for a proposed action the sentence left open, by node id. */
type Filled = Record<string, { url?: string; message?: string }>;

export const GENERATOR_MESSAGES = {
  answerFirst: 'Answer the questions above to finish the draft',
  incomplete: 'Fill in what the new actions need',
  chooseDestination: 'Choose the variable the values go to',
  failed: 'The draft could not be generated. Please try again.',
  createFailed: 'The pipeline could not be created. Please try again.',
  messageRequired: 'Write the message the course shows',
} as const;

function fieldError(action: MissingAction, filled: Filled): { url?: string; message?: string } {
  const values = filled[action.nodeId] ?? {};
  const errors: { url?: string; message?: string } = {};
  if (action.missing.includes('url')) {
    const url = values.url?.trim() ?? '';
    errors.url = url ? (webhookUrlProblem(url) ?? undefined) : 'Webhook URL is required';
  }
  if (action.missing.includes('message') && !values.message?.trim())
    errors.message = GENERATOR_MESSAGES.messageRequired;
  return errors;
}

function configWithFilled(action: MissingAction, filled: Filled): Record<string, unknown> {
  const values = filled[action.nodeId] ?? {};
  return {
    ...action.config,
    ...(action.missing.includes('url') ? { url: values.url?.trim() ?? '' } : {}),
    ...(action.missing.includes('message') ? { message: values.message?.trim() ?? '' } : {}),
  };
}

/**
 * `/pipelines/ai-generator`: a sentence in, a draft pipeline out, read back
 * as steps. The generator says what it could not map and asks back when a
 * name fits two courses (each answer re-sends the sentence with the choices
 * made so far). "Create pipeline" creates the new actions the draft needs,
 * then the pipeline, off, and opens it in the editor.
 */
export function PipelineGeneratorPage() {
  const organizationId = useSession().currentOrganization?.id;
  const generate = useGeneratePipeline();
  const create = useCreateGeneratedPipeline(organizationId);
  const navigate = useNavigate();
  const [request, setRequest] = useState<{ prompt: string; choices: Record<string, string> } | null>(null);
  const [filled, setFilled] = useState<Filled>({});
  const [settings, setSettings] = useState<Record<string, Record<string, string>>>({});
  const [created, setCreated] = useState<Record<string, CreatedAction>>({});
  const [showErrors, setShowErrors] = useState(false);
  const [secrets, setSecrets] = useState<{ pipelineId: string; actions: CreatedAction[] } | null>(null);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PromptValues, unknown, z.output<typeof generatePipelineInput>>({
    resolver: zodResolver(generatePipelineInput),
    defaultValues: { prompt: '' },
  });

  const result: Result | undefined = generate.data;

  function send(prompt: string, choices: Record<string, string>) {
    setRequest({ prompt, choices });
    setShowErrors(false);
    setFilled({});
    setSettings({});
    setCreated({});
    generate.mutate({ prompt, choices });
  }

  function handleChoice(phrase: string, id: string) {
    if (!request) return;
    send(request.prompt, { ...request.choices, [phrase]: id });
  }

  const actionErrors = result
    ? result.missingActions.map((action) => ({ action, errors: fieldError(action, filled) }))
    : [];
  const hasActionErrors = actionErrors.some(({ errors: found }) => Object.values(found).some(Boolean));
  const openSettings = result?.openSettings ?? [];
  const hasOpenSettings = openSettings.some((setting) => !settings[setting.nodeId]?.[setting.field]);
  const blocker = !result
    ? null
    : result.ambiguities.length > 0
      ? GENERATOR_MESSAGES.answerFirst
      : hasActionErrors
        ? GENERATOR_MESSAGES.incomplete
        : hasOpenSettings
          ? GENERATOR_MESSAGES.chooseDestination
          : null;

  async function handleCreate() {
    if (!result) return;
    setShowErrors(true);
    if (blocker) return;
    try {
      const saved = await create.mutateAsync({
        draft: result.draft,
        actions: result.missingActions.map((action) => ({
          ...action,
          config: configWithFilled(action, filled),
        })),
        settings,
        created,
        onActionCreated: (nodeId, action) => setCreated((current) => ({ ...current, [nodeId]: action })),
      });
      toast.success(`Pipeline “${saved.pipeline.name}” created, off until you turn it on`);
      const withSecrets = saved.actions.filter((action) => action.secret);
      if (withSecrets.length > 0) setSecrets({ pipelineId: saved.pipeline.id, actions: withSecrets });
      else void navigate(paths.pipelines.editor.href(saved.pipeline.id));
    } catch (error) {
      toast.error(isApiError(error) ? error.message : GENERATOR_MESSAGES.createFailed);
    }
  }

  const reading = result ? describeDraft(result.draft) : null;

  return (
    <div className="mx-auto flex w-full max-w-4xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Pipeline AI generator · CourseLens</title>
      <PageHeader
        title="Pipeline AI generator"
        description="Say what should happen, in your own words; you get a draft pipeline built from your own courses and actions, to review before it is created."
        actions={
          <Link
            to={paths.pipelines.list.href()}
            className="inline-flex h-10 items-center rounded-lg px-3 text-sm font-medium text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
          >
            All pipelines
          </Link>
        }
      />
      <Card className="flex flex-col gap-4 p-5 sm:p-6">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(event) => void handleSubmit((values) => send(values.prompt, {}))(event)}
        >
          <label htmlFor="pipeline-prompt" className="text-sm font-medium text-fg">
            Describe your pipeline
          </label>
          <textarea
            id="pipeline-prompt"
            rows={3}
            maxLength={MAX_PIPELINE_PROMPT_LENGTH}
            placeholder="When a learner does something in a course, what should happen"
            aria-invalid={errors.prompt ? true : undefined}
            aria-describedby={errors.prompt ? 'pipeline-prompt-error' : 'pipeline-prompt-hint'}
            className={cn(inputClassName, 'h-auto py-2')}
            {...register('prompt')}
          />
          {errors.prompt ? (
            <p id="pipeline-prompt-error" className="text-sm text-rose-600 dark:text-rose-400">
              {errors.prompt.message}
            </p>
          ) : (
            <p id="pipeline-prompt-hint" className="text-xs text-fg-muted">
              Name your courses and actions as you know them; a schedule (“every Monday at 8am”) or “a button”
              work too.
            </p>
          )}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <div className="flex flex-wrap gap-2" role="group" aria-label="Examples">
              {EXAMPLES.map((example) => (
                <button
                  key={example}
                  type="button"
                  className="max-w-full min-w-0 rounded-full border border-line px-3 py-1 text-left text-xs break-words text-fg-muted hover:border-brand-500 hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
                  onClick={() => setValue('prompt', example, { shouldValidate: true })}
                >
                  {example}
                </button>
              ))}
            </div>
            <Button type="submit" className="shrink-0 self-end" isLoading={generate.isPending}>
              {generate.isPending ? null : <Sparkles aria-hidden="true" />}
              Generate draft
            </Button>
          </div>
        </form>
        {generate.isError ? (
          <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
            {isApiError(generate.error) ? generate.error.message : GENERATOR_MESSAGES.failed}
          </p>
        ) : null}
      </Card>

      {result && reading ? (
        <Card className="flex flex-col gap-6 p-5 sm:p-6" aria-labelledby="draft-title">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 id="draft-title" className="text-lg font-semibold break-words text-fg">
                {result.draft.name}
              </h2>
              <p className="text-sm text-fg-muted">A draft: nothing is saved until you create it.</p>
            </div>
            <Badge variant="brand" data-testid="generator-engine">
              {result.engine === 'llm'
                ? `Language model${result.model ? ` (${result.model})` : ''}`
                : 'Built-in engine'}
            </Badge>
          </div>

          {result.ambiguities.length > 0 ? (
            <section className="flex flex-col gap-3" aria-label="Questions" data-testid="ambiguities">
              {result.ambiguities.map((ambiguity, index) => (
                <div
                  key={ambiguity.phrase}
                  role="group"
                  aria-labelledby={`ambiguity-${index}`}
                  className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 dark:border-amber-400/30 dark:bg-amber-400/10"
                >
                  <p id={`ambiguity-${index}`} className="flex items-start gap-2 text-sm font-medium text-fg">
                    <MessageCircleQuestion
                      aria-hidden="true"
                      className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-300"
                    />
                    “{ambiguity.phrase}” fits {ambiguity.options.length}{' '}
                    {ambiguity.kind === 'course' ? 'courses' : `${ambiguity.kind}s`}. Which one did you mean?
                  </p>
                  <div className="flex flex-wrap gap-2">
                    {ambiguity.options.map((option) => (
                      <Button
                        key={option.id}
                        variant="outline"
                        size="sm"
                        className="h-auto min-h-8 py-1 whitespace-normal"
                        disabled={generate.isPending}
                        onClick={() => handleChoice(ambiguity.phrase, option.id)}
                      >
                        {option.label}
                      </Button>
                    ))}
                  </div>
                </div>
              ))}
            </section>
          ) : null}

          <section aria-labelledby="steps-title" className="flex flex-col gap-3">
            <h3 id="steps-title" className="flex items-center gap-2 text-sm font-semibold text-fg">
              <Workflow aria-hidden="true" className="size-4 text-brand-600 dark:text-brand-400" />
              What it will do
            </h3>
            <DraftSteps reading={reading} isAsking={result.ambiguities.length > 0} />
          </section>

          {result.unmapped.length > 0 ? (
            <section aria-labelledby="unmapped-title">
              <h3 id="unmapped-title" className="mb-2 flex items-center gap-2 text-sm font-semibold text-fg">
                <HelpCircle aria-hidden="true" className="size-4 text-amber-600 dark:text-amber-400" />
                Not understood
              </h3>
              <ul className="list-disc pl-5 text-sm text-fg-muted" data-testid="unmapped">
                {result.unmapped.map((line) => (
                  <li key={line} className="break-words">
                    {line}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {result.missingActions.length > 0 ? (
            <section aria-labelledby="new-actions-title" className="flex flex-col gap-3">
              <h3 id="new-actions-title" className="flex items-center gap-2 text-sm font-semibold text-fg">
                <Plus aria-hidden="true" className="size-4 text-brand-600 dark:text-brand-400" />
                New actions it will create
              </h3>
              <ul className="flex flex-col gap-3" data-testid="new-actions">
                {actionErrors.map(({ action, errors: found }) => (
                  <li
                    key={action.nodeId}
                    className="flex flex-col gap-3 rounded-lg border border-line px-3 py-3"
                  >
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge>{ACTION_TYPE_LABELS[action.type]}</Badge>
                      <span className="font-medium break-words text-fg">{action.name}</span>
                      {created[action.nodeId] ? <Badge variant="success">Created</Badge> : null}
                    </div>
                    <p className="text-sm break-words text-fg-muted">{action.description}</p>
                    {action.missing.includes('url') ? (
                      <TextField
                        label="Webhook URL"
                        type="url"
                        inputMode="url"
                        autoComplete="off"
                        maxLength={MAX_WEBHOOK_URL_LENGTH}
                        placeholder="The address that receives the event"
                        value={filled[action.nodeId]?.url ?? ''}
                        disabled={Boolean(created[action.nodeId])}
                        error={showErrors ? found.url : undefined}
                        hint="Starts with https:// — every request is signed."
                        onChange={(event) =>
                          setFilled((current) => ({
                            ...current,
                            [action.nodeId]: { ...current[action.nodeId], url: event.target.value },
                          }))
                        }
                      />
                    ) : null}
                    {action.missing.includes('message') ? (
                      <TextField
                        label="Broadcast message"
                        maxLength={MAX_BROADCAST_MESSAGE_LENGTH}
                        placeholder="What the course shows its learners"
                        value={filled[action.nodeId]?.message ?? ''}
                        disabled={Boolean(created[action.nodeId])}
                        error={showErrors ? found.message : undefined}
                        onChange={(event) =>
                          setFilled((current) => ({
                            ...current,
                            [action.nodeId]: { ...current[action.nodeId], message: event.target.value },
                          }))
                        }
                      />
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {openSettings.map((setting) => {
            const value = settings[setting.nodeId]?.[setting.field] ?? '';
            const id = `setting-${setting.nodeId}`;
            const isMissing = showErrors && !value;
            return (
              <div key={`${setting.nodeId}-${setting.field}`} className="flex flex-col gap-1.5">
                <label htmlFor={id} className="text-sm font-medium text-fg">
                  {setting.message}
                </label>
                <select
                  id={id}
                  className={inputClassName}
                  value={value}
                  aria-invalid={isMissing ? true : undefined}
                  onChange={(event) =>
                    setSettings((current) => ({
                      ...current,
                      [setting.nodeId]: { ...current[setting.nodeId], [setting.field]: event.target.value },
                    }))
                  }
                >
                  <option value="">Choose a variable</option>
                  {setting.options.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
            );
          })}

          {secrets ? (
            <SecretsPanel
              actions={secrets.actions}
              onContinue={() => void navigate(paths.pipelines.editor.href(secrets.pipelineId))}
            />
          ) : (
            <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end">
              {showErrors && blocker ? (
                <p role="alert" className="text-sm text-rose-600 sm:mr-auto dark:text-rose-400">
                  {blocker}
                </p>
              ) : (
                <p className="text-sm text-fg-muted sm:mr-auto">
                  It is created off: test it in the editor, then turn it on.
                </p>
              )}
              <Button isLoading={create.isPending} onClick={() => void handleCreate()}>
                Create pipeline
              </Button>
            </div>
          )}
        </Card>
      ) : null}
    </div>
  );
}

function StepItem({ step }: { step: DraftStep }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-2 break-words">
      <span className="min-w-0">{step.text}</span>
      {step.isNew ? <Badge variant="brand">new</Badge> : null}
    </span>
  );
}

function DraftSteps({ reading, isAsking }: { reading: ReturnType<typeof describeDraft>; isAsking: boolean }) {
  if (!reading.sources && reading.steps.length === 0 && reading.mappings.length === 0) {
    return (
      <p className="text-sm text-fg-muted">
        {isAsking
          ? 'Answer the question above: the draft starts from what you choose.'
          : 'Nothing could be drafted yet: see what was not understood.'}
      </p>
    );
  }
  return (
    <ol className="flex flex-col gap-2 text-sm text-fg" data-testid="draft-steps">
      {reading.sources ? (
        <li className="rounded-lg border border-line bg-surface-muted px-3 py-2 font-medium break-words">
          {reading.sources}
        </li>
      ) : (
        <li className="rounded-lg border border-dashed border-line px-3 py-2 text-fg-muted">
          No trigger yet
        </li>
      )}
      {reading.steps.map((step) => (
        <li key={step.id} className="flex items-start gap-2 pl-2">
          <ArrowRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
          <StepItem step={step} />
        </li>
      ))}
      {reading.branch ? (
        <li className="flex flex-col gap-2 pl-2">
          <span className="flex items-start gap-2">
            <ArrowRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
            <span className="font-medium">{reading.branch.text}</span>
          </span>
          {(['yes', 'no'] as const).map((side) => (
            <div key={side} className="flex flex-col gap-1 pl-6">
              <span className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
                {side === 'yes' ? 'Yes' : 'Otherwise'}
              </span>
              {(reading.branch?.[side] ?? []).map((step) => (
                <span key={step.id} className="flex items-start gap-2">
                  <CornerDownRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
                  <StepItem step={step} />
                </span>
              ))}
            </div>
          ))}
        </li>
      ) : null}
      {reading.mappings.map((step) => (
        <li key={step.id} className="rounded-lg border border-line px-3 py-2 break-words">
          {step.text}
        </li>
      ))}
    </ol>
  );
}

function SecretsPanel({ actions, onContinue }: { actions: CreatedAction[]; onContinue: () => void }) {
  return (
    <section
      aria-labelledby="secrets-title"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-400/30 dark:bg-amber-400/10"
    >
      <h3 id="secrets-title" className="text-sm font-semibold text-fg">
        Copy the signing {actions.length === 1 ? 'secret' : 'secrets'} now
      </h3>
      <p className="text-sm text-fg-muted">
        The receiver checks each request with it. It is shown this once; you can rotate it on the action’s
        page.
      </p>
      <dl className="flex flex-col gap-2">
        {actions.map((action) => (
          <div key={action.id} className="flex flex-col gap-1">
            <dt className="text-sm font-medium text-fg">{action.name}</dt>
            <dd>
              <code className="block rounded-md bg-surface px-2 py-1 text-xs break-all text-fg">
                {action.secret}
              </code>
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end">
        <Button onClick={onContinue}>Open the pipeline</Button>
      </div>
    </section>
  );
}
