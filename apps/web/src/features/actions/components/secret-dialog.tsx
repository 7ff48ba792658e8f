import { AlertTriangle, Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

export type SecretDialogProps = {
  /** The secret to show; null closes the dialog (and forgets it). */
  secret: string | null;
  actionName: string;
  /** A rotation: the previous secret stopped signing. */
  isRotation?: boolean;
  onDone: () => void;
};

/**
 * A webhook's signing secret, shown once (after creation or a rotation),
 * with a copy button and what the receiver does with it.
 */
export function SecretDialog({ secret, actionName, isRotation = false, onDone }: SecretDialogProps) {
  const inputId = useId();
  const [isCopied, setIsCopied] = useState(false);

  async function handleCopy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setIsCopied(true);
      toast.success('Signing secret copied to the clipboard');
    } catch {
      toast.error('Could not copy. Select the secret and copy it by hand.');
    }
  }

  function handleDone() {
    setIsCopied(false);
    onDone();
  }

  return (
    <Dialog
      open={secret !== null}
      onClose={handleDone}
      title={isRotation ? 'Copy the new signing secret' : 'Copy the signing secret'}
      description="This is the only time the secret is shown. Give it to the system that receives the webhook now."
    >
      <div className="flex flex-col gap-5">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-fg">
            Signing secret of “{actionName}”
          </label>
          <div className="flex gap-2">
            <input
              id={inputId}
              readOnly
              value={secret ?? ''}
              onFocus={(event) => event.currentTarget.select()}
              className={cn(inputClassName, 'font-mono text-xs')}
              data-autofocus
              data-testid="action-secret"
            />
            <Button variant="outline" onClick={() => void handleCopy()} aria-label="Copy signing secret">
              {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              <span className="hidden sm:inline">{isCopied ? 'Copied' : 'Copy'}</span>
            </Button>
          </div>
        </div>
        <div className="rounded-xl border border-line p-3 text-sm text-fg-muted">
          <p>
            Every request carries <code className="font-mono text-xs text-fg">webhook-id</code>,{' '}
            <code className="font-mono text-xs text-fg">webhook-timestamp</code> and{' '}
            <code className="font-mono text-xs text-fg">webhook-signature</code> (the Standard Webhooks
            format). Any Standard Webhooks library checks them with this secret.
          </p>
        </div>
        <p className="flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-400/10 dark:text-amber-100 dark:ring-amber-400/25 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
          <AlertTriangle aria-hidden="true" />
          <span>
            {isRotation ? 'The previous secret no longer signs anything. ' : ''}
            CourseLens keeps the secret encrypted and never shows it again: if it is lost, rotate it.
          </span>
        </p>
        <div className="flex justify-end">
          <Button onClick={handleDone}>I have stored it</Button>
        </div>
      </div>
    </Dialog>
  );
}
