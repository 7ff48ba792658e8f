import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { inputClassName } from '@/components/ui/text-field';

export type CopyLinkFieldProps = { label: string; value: string };

/** A read-only value with a copy button (invitation links). */
export function CopyLinkField({ label, value }: CopyLinkFieldProps) {
  const id = useId();
  const [isCopied, setIsCopied] = useState(false);

  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(value);
      setIsCopied(true);
      toast.success('Link copied to the clipboard');
    } catch {
      toast.error('Could not copy. Select the link and copy it by hand.');
    }
  }

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(inputClassName, 'font-mono text-xs')}
        />
        <Button
          variant="outline"
          onClick={() => void handleCopy()}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          <span className="hidden sm:inline">{isCopied ? 'Copied' : 'Copy'}</span>
        </Button>
      </div>
    </div>
  );
}
