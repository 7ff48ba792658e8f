import type { ApiKeyBody } from '@courselens/contracts';
import { KeyRound, Lock, Plus } from 'lucide-react';
import { useState } from 'react';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';

import { useApiKeys } from '../api/get-api-keys';

import { apiKeyStatus, type ApiKeyStatus } from './api-key-status';
import { ConnectAuthoringTool } from './connect-authoring-tool';
import { LrsActivity } from './lrs-activity';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { RevokeApiKeyDialog } from './revoke-api-key-dialog';

const statusBadge: Record<ApiKeyStatus, { label: string; variant: BadgeVariant }> = {
  active: { label: 'Active', variant: 'success' },
  expired: { label: 'Expired', variant: 'warning' },
  revoked: { label: 'Revoked', variant: 'neutral' },
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(value: string | null, format: Intl.DateTimeFormat, fallback: string): string {
  return value ? format.format(new Date(value)) : fallback;
}

/**
 * The API keys of the current organization: list, create (secret shown once),
 * revoke, and the settings that connect an xAPI course to the LRS. Owners
 * only: a team member sees why, and no keys are fetched.
 */
export function ApiKeysPanel() {
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const permission = useCanManage('api-keys');
  const apiKeys = useApiKeys(permission.isAllowed ? organizationId : null);
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const [keyToRevoke, setKeyToRevoke] = useState<ApiKeyBody | null>(null);

  return (
    <section aria-labelledby="api-keys-heading" className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="api-keys-heading" className="text-lg font-semibold tracking-tight text-fg">
            API keys
          </h2>
          <p className="mt-1 text-sm text-fg-muted">
            Keys let your courses send learning data. They read nothing, so they are safe inside a course.
          </p>
        </div>
        <Button
          onClick={() => setIsCreateOpen(true)}
          disabled={!organizationId || !permission.isAllowed}
          aria-describedby={permission.reason ? 'api-keys-owners-only' : undefined}
        >
          <Plus aria-hidden="true" />
          Create API key
        </Button>
      </div>

      {permission.reason ? (
        <div
          id="api-keys-owners-only"
          className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong px-4 py-10 text-center"
        >
          <Lock aria-hidden="true" className="size-8 text-fg-subtle" />
          <p className="mt-3 font-medium text-fg">{permission.reason}</p>
          <p className="mt-1 text-sm text-fg-muted">
            Ask an owner of your organization for a key to connect a course.
          </p>
        </div>
      ) : !permission.isAllowed ? null : apiKeys.isPending && organizationId ? (
        <div className="flex justify-center py-10 text-fg-muted">
          <Spinner label="Loading API keys" />
        </div>
      ) : apiKeys.isError ? (
        <p
          role="alert"
          className="rounded-xl border border-line p-4 text-sm text-rose-600 dark:text-rose-400"
        >
          {apiKeys.error.message}
        </p>
      ) : !apiKeys.data || apiKeys.data.length === 0 ? (
        <div className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong px-4 py-10 text-center">
          <KeyRound aria-hidden="true" className="size-8 text-fg-subtle" />
          <p className="mt-3 font-medium text-fg">No API keys yet</p>
          <p className="mt-1 text-sm text-fg-muted">Create one to connect your first course.</p>
        </div>
      ) : (
        <div className="relative overflow-x-auto rounded-2xl border border-line bg-surface">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">API keys</caption>
            <thead className="border-b border-line bg-surface-muted/60 text-xs font-medium tracking-wide text-fg-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Name
                </th>
                <th scope="col" className="px-4 py-3">
                  Key
                </th>
                <th scope="col" className="px-4 py-3">
                  Scope
                </th>
                <th scope="col" className="px-4 py-3">
                  Expires
                </th>
                <th scope="col" className="px-4 py-3">
                  Last used
                </th>
                <th scope="col" className="px-4 py-3">
                  Status
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {apiKeys.data.map((apiKey) => {
                const status = apiKeyStatus(apiKey);
                return (
                  <tr key={apiKey.id} className="align-middle">
                    <th scope="row" className="max-w-48 truncate px-4 py-3 font-medium text-fg">
                      {apiKey.name}
                    </th>
                    <td className="px-4 py-3">
                      <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs text-fg">
                        {apiKey.prefix}…
                      </code>
                    </td>
                    <td className="px-4 py-3">
                      <Badge variant="brand">Ingest only</Badge>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-fg-muted">
                      {formatDate(apiKey.expires_at, dateFormat, 'Never')}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-fg-muted">
                      {formatDate(apiKey.last_used_at, dateTimeFormat, 'Never used')}
                    </td>
                    <td className="px-4 py-3">
                      <Badge variant={statusBadge[status].variant} dot>
                        {statusBadge[status].label}
                      </Badge>
                    </td>
                    <td className="px-4 py-3 text-right">
                      {status === 'active' ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setKeyToRevoke(apiKey)}
                          aria-label={`Revoke ${apiKey.name}`}
                          className="text-rose-600 hover:text-rose-700 dark:text-rose-400 dark:hover:text-rose-300"
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {permission.isAllowed && apiKeys.data ? (
        <ConnectAuthoringTool apiKeys={apiKeys.data} onCreateKey={() => setIsCreateOpen(true)} />
      ) : null}
      {permission.isAllowed && organizationId && apiKeys.data && apiKeys.data.length > 0 ? (
        <LrsActivity organizationId={organizationId} />
      ) : null}

      <CreateApiKeyDialog
        open={isCreateOpen}
        onClose={() => setIsCreateOpen(false)}
        organizationId={organizationId}
      />
      <RevokeApiKeyDialog
        apiKey={keyToRevoke}
        organizationId={organizationId}
        onClose={() => setKeyToRevoke(null)}
      />
    </section>
  );
}
