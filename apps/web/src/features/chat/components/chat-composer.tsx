import { MAX_CHAT_MESSAGE_LENGTH } from '@courselens/contracts';
import { SendHorizontal } from 'lucide-react';
import { useId, type FormEvent, type KeyboardEvent, type ReactNode, type Ref } from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/** The counter shows from this many characters on, so it does not distract in short messages. */
export const COUNTER_THRESHOLD = Math.floor(MAX_CHAT_MESSAGE_LENGTH * 0.9);

export type ChatComposerProps = {
  agentName: string;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is on its way (or the conversation is loading): typing is fine, sending waits. */
  isBusy: boolean;
  /** The last attempt's failure, shown above the box. */
  error: string | null;
  /** Under the box on the left (who is chatting). */
  footer?: ReactNode;
  inputRef?: Ref<HTMLTextAreaElement>;
};

export function ChatComposer({
  agentName,
  value,
  onChange,
  onSend,
  isBusy,
  error,
  footer,
  inputRef,
}: ChatComposerProps) {
  const id = useId();
  const length = value.trim().length;
  const isTooLong = length > MAX_CHAT_MESSAGE_LENGTH;
  const canSend = !isBusy && length > 0 && !isTooLong;
  const showCounter = length >= COUNTER_THRESHOLD;
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, showCounter ? counterId : null].filter(Boolean).join(' ');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (canSend) onSend();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter while an input method composes a word confirms the word, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  }

  return (
    <form
      onSubmit={handleSubmit}
      className="shrink-0 border-t border-line bg-surface px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6"
    >
      <div className="mx-auto w-full max-w-3xl">
        {error ? (
          <p
            id={errorId}
            role="alert"
            className="mb-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-600/15 dark:bg-rose-400/10 dark:text-rose-300 dark:ring-rose-300/20"
          >
            {error}
          </p>
        ) : null}
        <div className="flex items-end gap-2">
          <label htmlFor={id} className="sr-only">
            Message to {agentName}
          </label>
          <textarea
            id={id}
            ref={inputRef}
            rows={1}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={handleKeyDown}
            placeholder="Type your message…"
            aria-describedby={describedBy || undefined}
            aria-invalid={isTooLong || undefined}
            // 16 px text on phones: iOS zooms the page into a smaller field on focus.
            className={cn(
              'block max-h-40 min-h-10 w-full resize-none rounded-xl border border-line-strong bg-canvas px-3 py-2 text-base text-fg field-sizing-content sm:text-sm',
              'placeholder:text-fg-subtle focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-focus',
              'aria-invalid:border-rose-500 dark:aria-invalid:border-rose-400',
            )}
          />
          <Button type="submit" size="icon" aria-label="Send" disabled={!canSend} className="rounded-xl">
            <SendHorizontal aria-hidden="true" />
          </Button>
        </div>
        <div className="mt-1.5 flex min-h-4 items-center justify-between gap-3 text-xs text-fg-subtle">
          <div className="min-w-0 truncate">{footer}</div>
          {showCounter ? (
            <span
              id={counterId}
              className={cn(
                'shrink-0 tabular-nums',
                isTooLong && 'font-medium text-rose-600 dark:text-rose-400',
              )}
            >
              {length.toLocaleString('en-US')} / {MAX_CHAT_MESSAGE_LENGTH.toLocaleString('en-US')}
            </span>
          ) : (
            <span className="hidden shrink-0 sm:inline">Enter to send · Shift+Enter for a new line</span>
          )}
        </div>
      </div>
    </form>
  );
}
