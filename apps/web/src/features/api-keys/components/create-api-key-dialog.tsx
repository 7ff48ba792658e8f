import { API_KEY_MESSAGES, createApiKeyInput, type CreatedApiKey } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertTriangle, Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useCreateApiKey } from '../api/create-api-key';

import { CopyField, useClipboardCopy, xapiEndpoint } from './connect-authoring-tool';

import { Dialog } from '@/components/ui/dialog';
import { inputClassName, TextField } from '@/components/ui/text-field';

export const expiryChoices = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;
type ExpiryChoice = (typeof expiryChoices)[number]['value'];

/** The contracts' create schema, with the expiry chosen from a list instead of typed (one scope: ingest). */
const createApiKeyFormSchema = createApiKeyInput.omit({ expires_at: true, scope: true }).extend({
  expiry: z.enum(['30', '90', '365', 'never']),
});
type CreateApiKeyFormValues = z.input<typeof createApiKeyFormSchema>;
type CreateApiKeyFormOutput = z.output<typeof createApiKeyFormSchema>;

/** The ISO expiry for a choice, counted from `now`; null means the key never expires. */
export function expiryFromChoice(choice: ExpiryChoice, now: Date = new Date()): string | null {
  if (choice === 'never') return null;
  return new Date(now.getTime() + Number(choice) * 24 * 60 * 60 * 1000).toISOString();
}

export type CreateApiKeyDialogProps = {
  open: boolean;
  onClose: () => void;
  organizationId: string | null | undefined;
};

/**
 * Creates a key, then shows its secret once, with the LRS settings an xAPI
 * course needs (LRS key = the key's id, LRS secret = the key); closing the
 * dialog forgets the secret.
 */
export function CreateApiKeyDialog({ open, onClose, organizationId }: CreateApiKeyDialogProps) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  function handleClose() {
    setCreated(null);
    onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={handleClose}
      title={created ? 'Copy your API key' : 'Create an API key'}
      description={
        created
          ? 'This is the only time the secret is shown. Store it somewhere safe now.'
          : 'A key lets a course send learning data to this organization. It reads nothing.'
      }
    >
      {created ? (
        <CreatedKeySecret apiKey={created} onDone={handleClose} />
      ) : (
        <CreateApiKeyForm organizationId={organizationId} onCreated={setCreated} onCancel={handleClose} />
      )}
    </Dialog>
  );
}

type CreateApiKeyFormProps = {
  organizationId: string | null | undefined;
  onCreated: (apiKey: CreatedApiKey) => void;
  onCancel: () => void;
};

function CreateApiKeyForm({ organizationId, onCreated, onCancel }: CreateApiKeyFormProps) {
  const createApiKey = useCreateApiKey(organizationId);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateApiKeyFormValues, unknown, CreateApiKeyFormOutput>({
    resolver: zodResolver(createApiKeyFormSchema),
    defaultValues: { name: '', expiry: '90' },
  });

  async function handleValidSubmit({ name, expiry }: CreateApiKeyFormOutput) {
    try {
      onCreated(
        await createApiKey.mutateAsync({ name, scope: 'ingest', expires_at: expiryFromChoice(expiry) }),
      );
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (message === API_KEY_MESSAGES.expiryInPast) setError('expiry', { type: 'server', message });
      else toast.error(message);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField
        label="Name"
        placeholder="What this key is for"
        autoComplete="off"
        data-autofocus
        error={errors.name?.message}
        {...register('name')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="api-key-expiry" className="text-sm font-medium text-fg">
          Expires after
        </label>
        <select
          id="api-key-expiry"
          className={inputClassName}
          aria-invalid={errors.expiry ? true : undefined}
          aria-describedby={errors.expiry ? 'api-key-expiry-error' : undefined}
          {...register('expiry')}
        >
          {expiryChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {errors.expiry ? (
          <p id="api-key-expiry-error" className="text-sm text-rose-600 dark:text-rose-400">
            {errors.expiry.message}
          </p>
        ) : null}
      </div>
      <p className="rounded-xl border border-line p-3 text-sm text-fg-muted">
        <span className="font-medium text-fg">Ingest only.</span> The key can only send learning data and
        reads nothing, so it is safe inside a published course.
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? 'Creating…' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}

type CreatedKeySecretProps = { apiKey: CreatedApiKey; onDone: () => void };

function CreatedKeySecret({ apiKey, onDone }: CreatedKeySecretProps) {
  const { copiedValue, copy } = useClipboardCopy();
  const isCopied = copiedValue === apiKey.key;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="created-api-key" className="text-sm font-medium text-fg">
          Secret of “{apiKey.name}”
        </label>
        <div className="flex gap-2">
          <input
            id="created-api-key"
            readOnly
            value={apiKey.key}
            onFocus={(event) => event.currentTarget.select()}
            className={cn(inputClassName, 'font-mono text-xs')}
            data-autofocus
          />
          <Button
            variant="outline"
            onClick={() => void copy(apiKey.key, 'API key')}
            aria-label="Copy API key"
          >
            {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            <span className="hidden sm:inline">{isCopied ? 'Copied' : 'Copy'}</span>
          </Button>
        </div>
      </div>
      <p className="flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-400/10 dark:text-amber-100 dark:ring-amber-400/25 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
        <AlertTriangle aria-hidden="true" />
        <span>
          CourseLens stores only a hash of this key: once you close this dialog it cannot be shown again.
        </span>
      </p>
      <section
        aria-labelledby="created-api-key-lrs"
        className="flex flex-col gap-4 rounded-xl border border-line p-4"
      >
        <div>
          <h3 id="created-api-key-lrs" className="text-sm font-semibold text-fg">
            For an xAPI course
          </h3>
          <p className="mt-0.5 text-sm text-fg-muted">
            Storyline, Rise, Captivate and iSpring courses published for xAPI sign in to the LRS with these.
          </p>
        </div>
        <CopyField label="LRS endpoint" value={xapiEndpoint(window.location.origin)} />
        <CopyField label="LRS key" value={apiKey.id} hint="The key’s id (some tools call it the username)." />
        <CopyField
          label="LRS secret"
          value={apiKey.key}
          hint="The API key above (some tools call it the password)."
        />
      </section>
      <div className="flex justify-end">
        <Button onClick={onDone}>I have stored it</Button>
      </div>
    </div>
  );
}
