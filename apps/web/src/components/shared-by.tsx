import { Share2 } from 'lucide-react';

export type SharedByProps = {
  /** Null while the first answer loads. */
  organizationName: string | null;
};

/**
 * Above the title of a shared view: that it is shared, and by which
 * organization (its name only, never a person or an e-mail address).
 */
export function SharedBy({ organizationName }: SharedByProps) {
  return (
    <p className="mb-2 flex items-center gap-1.5 text-sm text-fg-muted" data-testid="shared-by">
      <Share2 aria-hidden="true" className="size-4 shrink-0 text-accent" />
      {organizationName ? (
        <span className="min-w-0 break-words">
          Shared by <span className="font-semibold text-fg">{organizationName}</span>
        </span>
      ) : (
        <span>Shared view</span>
      )}
    </p>
  );
}
