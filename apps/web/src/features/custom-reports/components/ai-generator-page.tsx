import {
  MAX_GENERATOR_PROMPT_LENGTH,
  REPORT_CHART_LABELS,
  generateReportInput,
  type GenerateReportResponse,
} from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, HelpCircle, MessageCircleQuestion, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';

import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useGenerateReport, useReportCatalog, useSaveReport } from '../api/custom-reports';

import type { BuilderLocationState } from './report-builder-page';
import { describeQuery, subjectCourse, toReportInput } from './report-form';

const EXAMPLES = [
  'Pass rate of passed safety check by department',
  'Hardest questions of the safety course',
  'Top 10 learners by final score as a leaderboard',
  'Weekly trend of satisfaction over the last 12 weeks',
];

type PromptValues = z.input<typeof generateReportInput>;
type Choice = { phrase: string; id: string };

const OPTION_KIND_LABELS = { course: 'Course', variable: 'Variable', question: 'Question' } as const;

/**
 * `/custom-reports/ai-generator`: a sentence in, a draft out. The generator
 * says what it understood and what it did not find, and asks back when a
 * phrase names several things; each answer re-sends the sentence with the
 * choices made so far. The draft opens in the builder or is saved as is.
 */
export function AiGeneratorPage() {
  const organizationId = useSession().currentOrganization?.id;
  const catalog = useReportCatalog(organizationId);
  const generate = useGenerateReport();
  const save = useSaveReport(organizationId);
  const navigate = useNavigate();
  const [request, setRequest] = useState<{ prompt: string; choices: Choice[] } | null>(null);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PromptValues, unknown, z.output<typeof generateReportInput>>({
    resolver: zodResolver(generateReportInput),
    defaultValues: { prompt: '' },
  });

  const result: GenerateReportResponse | undefined = generate.data;

  function send(prompt: string, choices: Choice[]) {
    setRequest({ prompt, choices });
    generate.mutate({ prompt, choices });
  }

  function handleChoice(phrase: string, id: string) {
    if (!request) return;
    send(request.prompt, [...request.choices.filter((choice) => choice.phrase !== phrase), { phrase, id }]);
  }

  async function handleSave(draft: GenerateReportResponse['draft']) {
    try {
      const report = await save.mutateAsync({ reportId: null, input: toReportInput(draft) });
      toast.success(`Report “${report.name}” saved`);
      void navigate(paths.customReports.view.href(report.id));
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The report could not be saved. Please try again.');
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-4xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Report AI generator · CourseLens</title>
      <PageHeader
        title="Report AI generator"
        description="Describe the report you want; you get a draft built from your own courses, variables and questions."
      />
      <Card className="flex flex-col gap-4 p-5 sm:p-6">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(event) => void handleSubmit((values) => send(values.prompt, []))(event)}
        >
          <label htmlFor="report-prompt" className="text-sm font-medium text-fg">
            What should the report show?
          </label>
          <textarea
            id="report-prompt"
            rows={3}
            maxLength={MAX_GENERATOR_PROMPT_LENGTH}
            placeholder={EXAMPLES[0]}
            aria-invalid={errors.prompt ? true : undefined}
            aria-describedby={errors.prompt ? 'report-prompt-error' : undefined}
            className={cn(inputClassName, 'h-auto py-2')}
            {...register('prompt')}
          />
          {errors.prompt ? (
            <p id="report-prompt-error" className="text-sm text-rose-600 dark:text-rose-400">
              {errors.prompt.message}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex flex-wrap gap-2" role="group" aria-label="Examples">
              {EXAMPLES.map((example) => (
                <button
                  key={example}
                  type="button"
                  className="rounded-full border border-line px-3 py-1 text-left text-xs text-fg-muted hover:border-brand-500 hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
                  onClick={() => setValue('prompt', example, { shouldValidate: true })}
                >
                  {example}
                </button>
              ))}
            </div>
            <Button type="submit" isLoading={generate.isPending}>
              {generate.isPending ? null : <Sparkles aria-hidden="true" />}
              Generate draft
            </Button>
          </div>
        </form>
        {generate.isError ? (
          <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
            {isApiError(generate.error) ? generate.error.message : 'The draft could not be generated.'}
          </p>
        ) : null}
      </Card>

      {result ? (
        <Card className="flex flex-col gap-5 p-5 sm:p-6" aria-live="polite" aria-labelledby="draft-title">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 id="draft-title" className="text-lg font-semibold break-words text-fg">
                {result.draft.name}
              </h2>
              <p className="text-sm text-fg-muted">
                {result.draft.items.length} {result.draft.items.length === 1 ? 'item' : 'items'}
                {result.draft.config.periodDays ? ` · last ${result.draft.config.periodDays} days` : ''}
                {result.draft.config.limit ? ` · top ${result.draft.config.limit}` : ''}
              </p>
            </div>
            <Badge variant="brand" data-testid="generator-engine">
              {result.engine === 'llm'
                ? `Language model${result.model ? ` (${result.model})` : ''}`
                : 'Built-in engine'}
            </Badge>
          </div>

          {result.ambiguities.length > 0 ? (
            <div className="flex flex-col gap-3" data-testid="ambiguities">
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
                    {ambiguity.message}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    {ambiguity.options.map((option) => (
                      <Button
                        key={option.id}
                        variant="outline"
                        size="sm"
                        className="h-auto min-h-8 py-1 whitespace-normal"
                        disabled={generate.isPending}
                        aria-label={`${OPTION_KIND_LABELS[option.kind]}: ${option.label}`}
                        onClick={() => handleChoice(ambiguity.phrase, option.id)}
                      >
                        {option.label}
                      </Button>
                    ))}
                  </div>
                </div>
              ))}
            </div>
          ) : null}

          {result.draft.items.length > 0 ? (
            <ol className="flex flex-col gap-2" data-testid="draft-items">
              {result.draft.items.map((item, index) => {
                const description = describeQuery(item.query, catalog.data);
                const course = subjectCourse(item.query.subject, catalog.data);
                return (
                  <li key={index} className="rounded-lg border border-line px-3 py-2 text-sm">
                    <span className="font-medium break-words text-fg">{item.displayName ?? description}</span>
                    <span className="block text-xs break-words text-fg-muted">
                      {[
                        item.displayName ? description : null,
                        course,
                        item.chart === 'auto' ? null : REPORT_CHART_LABELS[item.chart],
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </li>
                );
              })}
            </ol>
          ) : (
            <p className="text-sm text-fg-muted">No variable or question of yours matched yet.</p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-fg">
                <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
                Understood
              </h3>
              {result.understood.length > 0 ? (
                <ul className="list-disc pl-5 text-sm text-fg-muted" data-testid="understood">
                  {result.understood.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-fg-muted">Nothing specific.</p>
              )}
            </div>
            <div>
              <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-fg">
                <HelpCircle aria-hidden="true" className="size-4 text-amber-600 dark:text-amber-400" />
                Not understood
              </h3>
              {result.notFound.length > 0 ? (
                <ul className="list-disc pl-5 text-sm text-fg-muted" data-testid="not-found">
                  {result.notFound.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-fg-muted">Everything was matched.</p>
              )}
            </div>
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="outline"
              onClick={() => {
                const state: BuilderLocationState = { draft: result.draft };
                void navigate(paths.customReports.create.href(), { state });
              }}
            >
              Open in builder
            </Button>
            <Button isLoading={save.isPending} onClick={() => void handleSave(result.draft)}>
              Save
            </Button>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
