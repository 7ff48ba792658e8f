import { Activity, CircleAlert, Database, RefreshCw, Server, Tag } from 'lucide-react';
import { useId, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';

import { HEALTH_REFETCH_INTERVAL_MS, useHealth, type DatabaseEngine } from '../api/get-health';

const engineLabels: Record<DatabaseEngine, { name: string; detail: string }> = {
  pglite: { name: 'PGlite', detail: 'embedded' },
  postgres: { name: 'PostgreSQL', detail: 'server' },
};

export function describeHealthError(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 503) {
      return 'The API is running but its database is not answering. Screens that show data will fail until it recovers.';
    }
    if (error.status === 0) return 'The CourseLens server could not be reached. Check that it is running.';
    return `The health check failed: ${error.message}`;
  }
  return error instanceof Error ? error.message : 'The health check failed.';
}

export type HealthStatusProps = {
  className?: string;
};

/** Live status of the API and its database, from `GET /api/health`. */
export function HealthStatus({ className }: HealthStatusProps) {
  const titleId = useId();
  const { data, error, isPending, isError, isFetching, dataUpdatedAt, refetch } = useHealth();

  let badge: ReactNode;
  let body: ReactNode;
  if (isPending) {
    badge = <Badge variant="neutral">Checking</Badge>;
    body = (
      <p className="flex items-center gap-3 text-sm text-fg-muted">
        <Spinner size="sm" label={null} className="text-accent" />
        Checking the API and database…
      </p>
    );
  } else if (isError) {
    badge = (
      <Badge variant="danger" dot>
        Unavailable
      </Badge>
    );
    body = (
      <div className="flex flex-col gap-4">
        <div className="flex gap-3 rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-600/15 ring-inset dark:bg-rose-400/10 dark:text-rose-200 dark:ring-rose-400/20">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{describeHealthError(error)}</p>
        </div>
        <div>
          <Button variant="outline" size="sm" isLoading={isFetching} onClick={() => void refetch()}>
            {isFetching ? null : <RefreshCw aria-hidden="true" />}
            Try again
          </Button>
        </div>
      </div>
    );
  } else {
    const engine = engineLabels[data.database];
    badge = (
      <Badge variant="success" dot="pulse">
        Operational
      </Badge>
    );
    body = (
      <dl className="divide-y divide-line overflow-hidden rounded-xl border border-line text-sm">
        <StatusItem icon={<Server aria-hidden="true" />} label="API">
          Online
        </StatusItem>
        <StatusItem icon={<Database aria-hidden="true" />} label="Database">
          <span>{engine.name}</span> <span className="font-normal text-fg-muted">({engine.detail})</span>
        </StatusItem>
        <StatusItem icon={<Tag aria-hidden="true" />} label="Version">
          v{data.version}
        </StatusItem>
      </dl>
    );
  }

  return (
    <Card role="region" aria-labelledby={titleId} className={className}>
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle id={titleId} className="flex items-center gap-2">
            <Activity className="size-4 text-accent" aria-hidden="true" />
            System status
          </CardTitle>
          {badge}
        </div>
        <CardDescription>
          Live check of the API and its database, every {HEALTH_REFETCH_INTERVAL_MS / 1000} seconds.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div aria-live="polite" aria-busy={isPending}>
          {body}
        </div>
        {dataUpdatedAt > 0 && !isError ? (
          <p className="mt-3 text-xs text-fg-subtle">
            Last checked at{' '}
            <time dateTime={new Date(dataUpdatedAt).toISOString()}>
              {new Date(dataUpdatedAt).toLocaleTimeString()}
            </time>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

type StatusItemProps = {
  icon: ReactNode;
  label: string;
  children: ReactNode;
};

function StatusItem({ icon, label, children }: StatusItemProps) {
  return (
    <div className="flex items-center justify-between gap-4 bg-surface-muted/40 px-4 py-2.5">
      <dt className="flex shrink-0 items-center gap-2 text-fg-muted [&_svg]:size-4">
        {icon}
        {label}
      </dt>
      <dd className="min-w-0 text-right font-semibold text-fg">{children}</dd>
    </div>
  );
}
