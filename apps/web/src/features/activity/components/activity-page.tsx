import { ACTIVITY_KIND_GROUPS, SYSTEM_ACTOR, type ActivityItem } from '@courselens/contracts';
import {
  Activity,
  BookOpen,
  Bot,
  Building2,
  ChartNoAxesCombined,
  CreditCard,
  Database,
  FileChartColumn,
  FilterX,
  KeyRound,
  type LucideIcon,
  Users,
  Workflow,
  Zap,
} from 'lucide-react';
import { useId } from 'react';

import { EmailText } from '@/components/email-text';
import { ExportCsvButton } from '@/components/export-csv-button';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Spinner } from '@/components/ui/spinner';
import { inputClassName } from '@/components/ui/text-field';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';

import { useActivity } from '../api/get-activity';
import { useActivityActors } from '../api/get-activity-actors';

import { toActivityParams, useActivityFilters } from './use-activity-filters';

type GroupId = (typeof ACTIVITY_KIND_GROUPS)[number]['id'];

const GROUP_ICONS: Record<GroupId, LucideIcon> = {
  ingestion: Database,
  courses: BookOpen,
  'api-keys': KeyRound,
  team: Users,
  reports: FileChartColumn,
  organization: Building2,
  pipelines: Workflow,
  actions: Zap,
  chatbots: Bot,
  analytics: ChartNoAxesCombined,
  billing: CreditCard,
};

function groupOf(kind: string) {
  return ACTIVITY_KIND_GROUPS.find((group) => (group.kinds as readonly string[]).includes(kind));
}

/** Figures an ingestion summary carries in its details, e.g. "120 accepted · 3 duplicates". */
function ingestionFigures(item: ActivityItem): string | null {
  if (item.kind !== 'events.ingested') return null;
  const parts: string[] = [];
  for (const key of ['accepted', 'duplicates', 'rejected'] as const) {
    const value = item.details[key];
    const count = Array.isArray(value) ? value.length : typeof value === 'number' ? value : null;
    if (count !== null) parts.push(`${formatNumber(count)} ${key}`);
  }
  return parts.length > 0 ? parts.join(' · ') : null;
}

function ActivityRow({ item }: { item: ActivityItem }) {
  const group = groupOf(item.kind);
  const Icon = group ? GROUP_ICONS[group.id] : Activity;
  const figures = ingestionFigures(item);
  return (
    <li className="flex gap-3 px-4 py-4 sm:gap-4 sm:px-5">
      <span
        aria-hidden="true"
        className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300"
      >
        <Icon className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Badge variant={item.kind === 'events.ingested' ? 'neutral' : 'brand'}>{item.label}</Badge>
          <time
            dateTime={item.createdAt}
            title={formatDateTime(item.createdAt)}
            className="text-xs text-fg-subtle"
          >
            {formatDateTime(item.createdAt)} · {formatRelative(item.createdAt)}
          </time>
        </div>
        <p className="mt-1 text-sm break-words text-fg">{item.summary ?? item.label}</p>
        {figures ? <p className="mt-0.5 text-xs text-fg-muted">{figures}</p> : null}
        <p className="mt-1 text-xs text-fg-muted">
          {item.actor ? (
            <>
              by <span className="font-medium text-fg">{item.actor.name}</span> (
              <EmailText email={item.actor.email} />)
            </>
          ) : (
            'by the system (API key)'
          )}
        </p>
      </div>
    </li>
  );
}

/** `/activity`: what happened in the organization, filtered by kind, person, days and text. */
export function ActivityPage() {
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const [filters, update, clear] = useActivityFilters();
  const actorId = useId();
  const fromId = useId();
  const toId = useId();
  const apiFilters = {
    q: filters.q,
    kind: filters.kinds.join(','),
    actor: filters.actor,
    from: filters.from,
    to: filters.to,
  };
  const activity = useActivity(organizationId, toActivityParams(filters));
  const actors = useActivityActors(organizationId);
  const isFiltered = Boolean(
    filters.q || filters.kinds.length || filters.actor || filters.from || filters.to,
  );
  const selected = new Set(filters.kinds);

  function isGroupOn(group: (typeof ACTIVITY_KIND_GROUPS)[number]) {
    return group.kinds.every((kind) => selected.has(kind));
  }

  function handleToggleGroup(group: (typeof ACTIVITY_KIND_GROUPS)[number]) {
    const next = new Set(selected);
    if (isGroupOn(group)) for (const kind of group.kinds) next.delete(kind);
    else for (const kind of group.kinds) next.add(kind);
    update({ kinds: [...next] });
  }

  const data = activity.data;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Activity · CourseLens</title>
      <PageHeader
        title="Activity"
        description="What happened in your organization: data from your courses and your team's actions."
        actions={
          <ExportCsvButton
            path="/activity/export"
            query={apiFilters}
            fileName={`activity-${new Date().toISOString().slice(0, 10)}.csv`}
          />
        }
      />

      <Card className="mt-6 flex flex-col gap-4 p-4 sm:p-5">
        <div role="group" aria-label="Kind of activity" className="flex flex-wrap gap-2">
          <button
            type="button"
            aria-pressed={filters.kinds.length === 0}
            onClick={() => update({ kinds: [] })}
            className={chipClassName(filters.kinds.length === 0)}
          >
            All
          </button>
          {ACTIVITY_KIND_GROUPS.map((group) => {
            const Icon = GROUP_ICONS[group.id];
            return (
              <button
                key={group.id}
                type="button"
                aria-pressed={isGroupOn(group)}
                onClick={() => handleToggleGroup(group)}
                className={chipClassName(isGroupOn(group))}
              >
                <Icon aria-hidden="true" className="size-3.5" />
                {group.label}
              </button>
            );
          })}
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_auto_auto_auto] lg:items-end">
          <div className="flex flex-col gap-1.5">
            <span className="text-sm font-medium text-fg" aria-hidden="true">
              Search
            </span>
            <SearchField
              label="Search activity"
              placeholder="Search the summaries"
              value={filters.q}
              onChange={(q) => update({ q })}
              className="sm:max-w-none"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={actorId} className="text-sm font-medium text-fg">
              Who
            </label>
            <select
              id={actorId}
              value={filters.actor}
              onChange={(event) => update({ actor: event.target.value })}
              className={inputClassName}
            >
              <option value="">Everyone</option>
              <option value={SYSTEM_ACTOR}>System (API keys)</option>
              {(actors.data ?? []).map((actor) => (
                <option key={actor.id} value={actor.id}>
                  {actor.name} ({actor.email})
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fromId} className="text-sm font-medium text-fg">
              From
            </label>
            <input
              id={fromId}
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(event) => update({ from: event.target.value })}
              className={inputClassName}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={toId} className="text-sm font-medium text-fg">
              To
            </label>
            <input
              id={toId}
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(event) => update({ to: event.target.value })}
              className={inputClassName}
            />
          </div>
          <Button variant="ghost" onClick={clear} disabled={!isFiltered}>
            <FilterX aria-hidden="true" />
            Clear filters
          </Button>
        </div>
        <p className="text-xs text-fg-subtle">Days are whole days in UTC, both included.</p>
      </Card>

      <Card className="mt-4 overflow-hidden">
        {activity.isPending && organizationId ? (
          <div className="flex justify-center py-14 text-fg-muted">
            <Spinner label="Loading activity" />
          </div>
        ) : activity.isError ? (
          <p role="alert" className="px-5 py-10 text-center text-sm text-rose-600 dark:text-rose-400">
            {activity.error.message}
          </p>
        ) : !data || data.items.length === 0 ? (
          <div className="px-4 py-10">
            <EmptyState
              icon={<Activity />}
              title={isFiltered ? 'No activity matches these filters' : 'No activity yet'}
            >
              {isFiltered
                ? 'Try another kind, person or period, or clear the filters.'
                : 'Course data, API keys, invitations and course changes will be listed here as they happen.'}
            </EmptyState>
          </div>
        ) : (
          <ol
            aria-label="Activity feed"
            aria-busy={activity.isFetching}
            className={cn('divide-y divide-line', activity.isPlaceholderData && 'opacity-60')}
          >
            {data.items.map((item) => (
              <ActivityRow key={item.id} item={item} />
            ))}
          </ol>
        )}
      </Card>
      {data && data.total > 0 ? (
        <div className="mt-4">
          <Pagination
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            noun="events"
            onPageChange={(page) => update({ page })}
          />
        </div>
      ) : null}
    </div>
  );
}

function chipClassName(isOn: boolean): string {
  return cn(
    'inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
    isOn
      ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-500 dark:bg-brand-500'
      : 'border-line-strong bg-surface text-fg-muted hover:bg-surface-muted hover:text-fg',
  );
}
