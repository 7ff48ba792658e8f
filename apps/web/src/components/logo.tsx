import { cn } from '@/lib/cn';

export type LogoProps = {
  className?: string;
};

/** The CourseLens mark and word mark. Decorative: wrap it in a labelled link. */
export function Logo({ className }: LogoProps) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id="courselens-logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6366f1" />
            <stop offset="1" stopColor="#8b5cf6" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill="url(#courselens-logo-gradient)" />
        <circle cx="14" cy="14" r="6.5" fill="none" stroke="#fff" strokeWidth="2.5" />
        <path d="M19 19l5.5 5.5" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
        <path d="M11 15.5v-2M14 15.5v-4M17 15.5v-3" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span className="text-lg font-semibold tracking-tight text-fg">CourseLens</span>
    </span>
  );
}
