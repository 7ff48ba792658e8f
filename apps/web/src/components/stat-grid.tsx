import type { ReactNode } from 'react';

export type Stat = { label: string; value: ReactNode; hint?: string };

/** A row of labelled figures (a report's summary statistics), as a description list. */
export function StatGrid({ stats, label }: { stats: readonly Stat[]; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-7">
      {stats.map((stat) => (
        <div
          key={stat.label}
          className="min-w-0 rounded-xl border border-line bg-surface px-3 py-2.5"
          title={stat.hint}
        >
          <dt className="truncate text-xs text-fg-muted">{stat.label}</dt>
          <dd className="mt-0.5 truncate text-lg font-semibold text-fg tabular-nums">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
