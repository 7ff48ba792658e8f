import { cn } from '@/lib/cn';

export type SwitchProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Accessible name ("Active"). */
  label: string;
  disabled?: boolean;
  /** The id of the text that explains the switch (e.g. why it is disabled). */
  describedBy?: string;
  className?: string;
};

/** An on/off toggle (`role="switch"`), e.g. a variable's active flag. */
export function Switch({ checked, onChange, label, disabled = false, describedBy, className }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
        'disabled:cursor-not-allowed disabled:opacity-55',
        checked ? 'bg-brand-600 dark:bg-brand-500' : 'bg-line-strong',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-5 rounded-full bg-white shadow-sm transition-transform',
          checked ? 'translate-x-5.5' : 'translate-x-0.5',
        )}
      />
    </button>
  );
}
