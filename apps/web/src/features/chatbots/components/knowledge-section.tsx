import { MAX_KNOWLEDGE_CHARS, MAX_KNOWLEDGE_DOCUMENTS } from '@courselens/contracts';
import { FileText, Trash2, Upload } from 'lucide-react';
import { useId, useState, type ChangeEvent } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatNumber, formatPercent } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { KNOWLEDGE_FILE_ACCEPT, knowledgeFileProblem, useExtractKnowledge } from '../api/extract-knowledge';

import { knowledgeCharacters, type ChatbotFormValues } from './chatbot-form-model';
import { FieldError, FormSection, TextAreaField } from '@/components/ui/form-fields';

/** How much of a document its preview shows: enough to recognise it, not a whole book in the page. */
const PREVIEW_CHARS = 2_000;

/** The share of the knowledge limit in use, as a bar that turns amber near the end and red past it. */
function KnowledgeMeter({ total }: { total: number }) {
  const ratio = total / MAX_KNOWLEDGE_CHARS;
  const isOver = total > MAX_KNOWLEDGE_CHARS;
  const text = `${formatNumber(total)} of ${formatNumber(MAX_KNOWLEDGE_CHARS)} characters`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-fg">Knowledge in all</span>
        <span
          className={cn('tabular-nums', isOver ? 'text-rose-600 dark:text-rose-400' : 'text-fg-muted')}
          aria-hidden="true"
        >
          {text}
        </span>
      </div>
      <div
        role="meter"
        aria-label="Knowledge in all"
        aria-valuemin={0}
        aria-valuemax={MAX_KNOWLEDGE_CHARS}
        aria-valuenow={Math.min(total, MAX_KNOWLEDGE_CHARS)}
        aria-valuetext={`${text} (${formatPercent(ratio)})`}
        className="h-2 overflow-hidden rounded-full bg-surface-muted"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width]',
            isOver
              ? 'bg-rose-500 dark:bg-rose-400'
              : ratio > 0.9
                ? 'bg-amber-500 dark:bg-amber-400'
                : 'bg-brand-500 dark:bg-brand-400',
          )}
          style={{ width: `${Math.min(100, ratio * 100)}%` }}
        />
      </div>
      {isOver ? (
        <p className="text-sm text-rose-600 dark:text-rose-400">
          {formatNumber(total - MAX_KNOWLEDGE_CHARS)} characters too many: shorten the text or remove a
          document.
        </p>
      ) : null}
    </div>
  );
}

export type KnowledgeSectionProps = {
  control: Control<ChatbotFormValues>;
  register: UseFormRegister<ChatbotFormValues>;
  errors: FieldErrors<ChatbotFormValues>;
  organizationId: OrganizationIdInput;
};

/** What the agent answers from: text typed here and the text of uploaded files, within one limit. */
export function KnowledgeSection({ control, register, errors, organizationId }: KnowledgeSectionProps) {
  const documents = useFieldArray({ control, name: 'documents' });
  const knowledge = useWatch({ control, name: 'knowledge' });
  const documentValues = useWatch({ control, name: 'documents' });
  const extract = useExtractKnowledge(organizationId);
  const [uploading, setUploading] = useState<string[]>([]);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);
  const fileInputId = useId();
  const fileHintId = useId();
  const total = knowledgeCharacters({ knowledge, documents: documentValues });
  const isFull = documents.fields.length >= MAX_KNOWLEDGE_DOCUMENTS;
  const documentsMessage = errors.documents?.message ?? errors.documents?.root?.message;

  async function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = Array.from(input.files ?? []);
    // The same file may be picked again after a fix: the input forgets this choice.
    input.value = '';
    const problems: string[] = [];
    let room = MAX_KNOWLEDGE_DOCUMENTS - documents.fields.length;
    const accepted: File[] = [];
    for (const file of files) {
      const problem = knowledgeFileProblem(file);
      if (problem) problems.push(problem);
      else if (room <= 0)
        problems.push(
          `“${file.name}” was not added: an agent has at most ${MAX_KNOWLEDGE_DOCUMENTS} documents`,
        );
      else {
        accepted.push(file);
        room -= 1;
      }
    }
    setUploadErrors(problems);
    setUploading(accepted.map((file) => file.name));
    for (const file of accepted) {
      try {
        const document = await extract.mutateAsync(file);
        documents.append(
          { title: document.title, format: document.format, text: document.text },
          { shouldFocus: false },
        );
      } catch (error) {
        problems.push(
          isApiError(error) ? error.message : `“${file.name}” could not be read. Please try again.`,
        );
        setUploadErrors([...problems]);
      } finally {
        setUploading((names) => {
          const at = names.indexOf(file.name);
          return at < 0 ? names : [...names.slice(0, at), ...names.slice(at + 1)];
        });
      }
    }
  }

  return (
    <FormSection
      title="Knowledge"
      description="What the agent answers from. It says so when the knowledge has no answer, and those questions show under Insights."
    >
      <TextAreaField
        label="Knowledge"
        labelAside="Markdown"
        rows={8}
        placeholder="Markdown: headings, paragraphs and lists the agent answers from"
        hint="Facts, policies and answers to frequent questions. Headings help the agent find the right part."
        error={errors.knowledge?.message}
        {...register('knowledge')}
      />

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-0.5">
            <h3 className="text-sm font-medium text-fg">Documents</h3>
            <p id={fileHintId} className="text-xs text-fg-muted">
              .md, .txt or .pdf files with text, up to {MAX_KNOWLEDGE_DOCUMENTS}; their text is added to the
              knowledge.
            </p>
          </div>
          <label
            htmlFor={fileInputId}
            className={cn(
              'inline-flex h-8 cursor-pointer items-center gap-2 rounded-lg border border-line-strong bg-surface px-3 text-sm font-medium text-fg shadow-xs hover:bg-surface-muted',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus',
              isFull ? 'pointer-events-none opacity-55' : null,
            )}
          >
            <Upload aria-hidden="true" className="size-4" />
            Upload files
            <input
              id={fileInputId}
              type="file"
              multiple
              accept={KNOWLEDGE_FILE_ACCEPT}
              disabled={isFull}
              aria-describedby={fileHintId}
              className="sr-only"
              onChange={(event) => void handleFiles(event)}
            />
          </label>
        </div>
        {uploading.length > 0 ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted">
            <Spinner size="sm" label={null} />
            <span role="status">Reading {uploading.join(', ')}…</span>
          </p>
        ) : null}
        {uploadErrors.length > 0 ? (
          <ul role="alert" className="flex flex-col gap-1">
            {uploadErrors.map((message) => (
              <li key={message} className="text-sm text-rose-600 dark:text-rose-400">
                {message}
              </li>
            ))}
          </ul>
        ) : null}
        {documents.fields.length > 0 ? (
          <ul
            className="flex flex-col divide-y divide-line rounded-xl border border-line"
            aria-label="Documents"
          >
            {documents.fields.map((field, index) => {
              const text = documentValues[index]?.text ?? field.text;
              const rowErrors = errors.documents?.[index];
              return (
                <li key={field.id} className="flex flex-col gap-2 p-3">
                  <div className="flex items-start gap-3">
                    <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-muted" />
                    <div className="flex min-w-0 flex-1 flex-col gap-1">
                      <span className="text-sm font-medium break-words text-fg">{field.title}</span>
                      <span className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
                        <Badge>{field.format === 'markdown' ? 'Markdown' : 'Text'}</Badge>
                        <span className="tabular-nums">{formatNumber(text.length)} characters</span>
                      </span>
                    </div>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove ${field.title}`}
                      title="Remove"
                      onClick={() => documents.remove(index)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                  <FieldError message={rowErrors?.title?.message ?? rowErrors?.text?.message} />
                  <details className="rounded-lg bg-surface-muted/60 px-3 py-2">
                    <summary className="cursor-pointer rounded text-xs text-fg-muted focus-visible:outline-2 focus-visible:outline-focus">
                      Show the text
                    </summary>
                    <pre
                      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
                      tabIndex={0}
                      aria-label={`Text of ${field.title}`}
                      className="mt-2 max-h-60 overflow-auto font-mono text-xs break-words whitespace-pre-wrap text-fg focus-visible:outline-2 focus-visible:outline-focus"
                    >
                      {text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text}
                    </pre>
                  </details>
                </li>
              );
            })}
          </ul>
        ) : null}
        <FieldError message={documentsMessage} />
      </div>

      <KnowledgeMeter total={total} />
    </FormSection>
  );
}
