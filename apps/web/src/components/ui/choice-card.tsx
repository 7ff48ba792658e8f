import { cn } from '@/lib/cn';

export type ChoiceCardProps = {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  label: string;
  description?: string;
  disabled?: boolean;
};

/** A radio button as a card with its label and a line of explanation; a group of them is one choice. */
export function ChoiceCard({
  name,
  value,
  checked,
  onChange,
  label,
  description,
  disabled = false,
}: ChoiceCardProps) {
  return (
    <label
      className={cn(
        'flex items-start gap-3 rounded-xl border p-3 text-sm transition-colors',
        disabled ? 'cursor-not-allowed opacity-70' : 'cursor-pointer',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-focus',
        checked
          ? 'border-brand-500 bg-brand-50/60 dark:border-brand-400 dark:bg-brand-400/10'
          : cn('border-line', !disabled && 'hover:bg-surface-muted'),
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChange(value)}
        className="mt-0.5 size-4 accent-brand-600"
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="font-medium text-fg">{label}</span>
        {description ? <span className="text-fg-muted">{description}</span> : null}
      </span>
    </label>
  );
}
