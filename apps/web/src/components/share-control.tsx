import { Copy, RefreshCw, Share2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import { toast } from '@/lib/toast';

export type ShareControlProps = {
  /** What is shared, for the labels ("this question"). */
  subject: string;
  enabled: boolean;
  /** The full link to copy while sharing is on. */
  link: string | null;
  viewCount: number;
  isLoading?: boolean;
  isSaving?: boolean;
  onToggle: (enabled: boolean) => void;
  onRotate: () => void;
  /**
   * Why this person may not switch sharing or replace the link (only owners
   * share publicly): the switch is disabled, New link hidden, the reason shown.
   */
  disabledReason?: string | null;
};

/**
 * Switches public sharing of a view and copies its link. The link carries an
 * unguessable token; replacing it ends every copy handed out before.
 */
export function ShareControl({
  subject,
  enabled,
  link,
  viewCount,
  isLoading = false,
  isSaving = false,
  onToggle,
  onRotate,
  disabledReason = null,
}: ShareControlProps) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const reasonId = `${panelId}-reason`;
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useClickOutside(containerRef, () => setIsOpen(false), isOpen);
  useEscapeKey(() => {
    setIsOpen(false);
    buttonRef.current?.focus();
  }, isOpen);

  async function handleCopy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Link copied');
    } catch {
      toast.error('The link could not be copied. Select it and copy it by hand.');
    }
  }

  return (
    <div ref={containerRef} className="relative">
      <Button
        ref={buttonRef}
        variant="outline"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((open) => !open)}
      >
        <Share2 aria-hidden="true" />
        Share{enabled ? ' · on' : ''}
      </Button>
      {isOpen ? (
        <div
          id={panelId}
          role="group"
          aria-label="Sharing"
          className="absolute right-0 z-20 mt-2 w-[min(22rem,calc(100vw-2rem))] rounded-xl border border-line bg-surface p-4 text-left shadow-lg"
        >
          <div className="flex items-center justify-between gap-3">
            <div>
              <p className="text-sm font-medium text-fg">Share {subject}</p>
              <p className="text-xs text-fg-muted">
                Anyone with the link sees names and values, never e-mail addresses.
              </p>
            </div>
            <Switch
              checked={enabled}
              onChange={onToggle}
              label={`Share ${subject}`}
              disabled={isLoading || isSaving || Boolean(disabledReason)}
              describedBy={disabledReason ? reasonId : undefined}
            />
          </div>
          {disabledReason ? (
            <p id={reasonId} className="mt-2 text-xs font-medium text-fg">
              {disabledReason}.
            </p>
          ) : null}
          {enabled && link ? (
            <div className="mt-3 flex flex-col gap-2">
              <label className="sr-only" htmlFor={`${panelId}-link`}>
                Share link
              </label>
              <input
                id={`${panelId}-link`}
                readOnly
                value={link}
                onFocus={(event) => event.currentTarget.select()}
                className="w-full truncate rounded-lg border border-line bg-surface-muted px-2 py-1.5 font-mono text-xs text-fg"
              />
              <div className="flex flex-wrap items-center gap-2">
                <Button size="sm" onClick={() => void handleCopy()}>
                  <Copy aria-hidden="true" />
                  Copy link
                </Button>
                {disabledReason ? null : (
                  <Button size="sm" variant="ghost" onClick={onRotate} disabled={isSaving}>
                    <RefreshCw aria-hidden="true" />
                    New link
                  </Button>
                )}
                <span className="ml-auto text-xs text-fg-subtle">
                  {viewCount === 1 ? '1 view' : `${viewCount.toLocaleString('en-US')} views`}
                </span>
              </div>
            </div>
          ) : (
            <p className="mt-3 text-xs text-fg-muted">
              Sharing is off: the link shows “This view is not shared”.
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
