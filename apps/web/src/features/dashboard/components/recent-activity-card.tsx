import type { DashboardResponse } from '@courselens/contracts';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';

export type RecentActivityCardProps = { dashboard: DashboardResponse };

/** The organization's latest activity, with a link to the whole feed. */
export function RecentActivityCard({ dashboard }: RecentActivityCardProps) {
  const { recentActivity } = dashboard;
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Recent activity</CardTitle>
        <Link
          to={paths.activity.href()}
          className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          View all
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </CardHeader>
      <CardContent>
        {recentActivity.length === 0 ? (
          <p className="text-sm text-fg-muted">Nothing has happened yet.</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {recentActivity.map((item) => (
              <li key={item.id} className="flex min-w-0 gap-3 text-sm">
                <span
                  aria-hidden="true"
                  className="mt-1.5 size-2 shrink-0 rounded-full bg-brand-500 dark:bg-brand-400"
                />
                <div className="min-w-0">
                  <p className="truncate text-fg">{item.summary ?? item.label}</p>
                  <p className="text-xs text-fg-subtle">
                    {item.label} · {item.actor?.name ?? 'System'} ·{' '}
                    <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
                      {formatRelative(item.createdAt)}
                    </time>
                  </p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
