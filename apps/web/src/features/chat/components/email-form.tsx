import { CHATBOT_MESSAGES, chatLearnerInput } from '@courselens/contracts';
import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

export const EMAIL_HINT = 'So your answers are saved to your record';
export const INVALID_EMAIL_MESSAGE = 'Enter a valid e-mail address, such as name@example.com';

/** The address as the API stores it (trimmed, lower-case), or null when it is not one. */
export function normalizeEmail(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = chatLearnerInput.shape.email.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export type EmailFormProps = {
  agentName: string;
  /** A value to start from (an address in the link that could not be used). */
  defaultEmail?: string;
  onSubmit: (email: string) => void;
};

/** Asks the learner for their e-mail once, before the chat starts, when the course did not pass it. */
export function EmailForm({ agentName, defaultEmail = '', onSubmit }: EmailFormProps) {
  const [value, setValue] = useState(defaultEmail);
  const [error, setError] = useState<string | undefined>(
    defaultEmail && !normalizeEmail(defaultEmail) ? INVALID_EMAIL_MESSAGE : undefined,
  );

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (value.trim() === '') return setError(CHATBOT_MESSAGES.learnerRequired);
    const email = normalizeEmail(value);
    if (!email) return setError(INVALID_EMAIL_MESSAGE);
    setError(undefined);
    onSubmit(email);
  }

  return (
    <div className="flex flex-1 items-center justify-center overflow-y-auto px-4 py-8">
      <form
        noValidate
        onSubmit={handleSubmit}
        aria-labelledby="chat-email-title"
        className="flex w-full max-w-sm flex-col gap-4 rounded-2xl bg-surface p-5 shadow-sm ring-1 ring-line sm:p-6"
      >
        <div>
          <h2 id="chat-email-title" className="text-base font-semibold text-fg">
            Before you chat with {agentName}
          </h2>
          <p className="mt-1 text-sm text-fg-muted">Enter your e-mail address to start the conversation.</p>
        </div>
        <TextField
          label="Your e-mail address"
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          hint={EMAIL_HINT}
          error={error}
          className="text-base sm:text-sm"
        />
        <Button type="submit">Start the conversation</Button>
      </form>
    </div>
  );
}
