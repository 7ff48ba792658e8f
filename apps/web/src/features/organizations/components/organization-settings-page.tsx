import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';

import { OrganizationGeneralForm } from './organization-general-form';
import { readSettingsTab, settingsTabs, type SettingsTab } from './settings-tabs';

export type OrganizationSettingsPageProps = {
  /** The other tabs come from their features; the route composes them (features never import each other). */
  membersTab?: ReactNode;
  invitationsTab?: ReactNode;
  apiKeysTab?: ReactNode;
  jobsTab?: ReactNode;
};

/** `/organization/settings`: tabs General, Members, Invitations, API keys, Background jobs; the tab is kept in `?tab=`. */
export function OrganizationSettingsPage({
  membersTab,
  invitationsTab,
  apiKeysTab,
  jobsTab,
}: OrganizationSettingsPageProps) {
  const session = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const activeTab = readSettingsTab(searchParams);
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({});
  const organization = session.currentOrganization;
  const isLoaded = Boolean(organization);

  // At 375 px the tab row scrolls sideways; a link to ?tab=api-keys must not
  // open on a tab the reader cannot see.
  useEffect(() => {
    tabRefs.current[activeTab]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeTab, isLoaded]);

  function selectTab(tab: SettingsTab, moveFocus = false) {
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (tab === 'general') next.delete('tab');
        else next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
    if (moveFocus) tabRefs.current[tab]?.focus();
  }

  function handleTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = settingsTabs.findIndex((tab) => tab.id === activeTab);
    let nextIndex: number | null = null;
    if (event.key === 'ArrowRight') nextIndex = (index + 1) % settingsTabs.length;
    if (event.key === 'ArrowLeft') nextIndex = (index - 1 + settingsTabs.length) % settingsTabs.length;
    if (event.key === 'Home') nextIndex = 0;
    if (event.key === 'End') nextIndex = settingsTabs.length - 1;
    const next = nextIndex === null ? undefined : settingsTabs[nextIndex];
    if (!next) return;
    event.preventDefault();
    selectTab(next.id, true);
  }

  const panels: Record<SettingsTab, ReactNode> = {
    general: organization ? (
      <Card>
        <CardHeader>
          <CardTitle>General</CardTitle>
          <CardDescription>The organization’s name and the subdomain it is known by.</CardDescription>
        </CardHeader>
        <CardContent>
          <OrganizationGeneralForm organization={organization} />
        </CardContent>
      </Card>
    ) : null,
    members: membersTab,
    invitations: invitationsTab,
    'api-keys': apiKeysTab,
    jobs: jobsTab,
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Organization settings · CourseLens</title>
      <PageHeader
        title="Organization settings"
        description={organization ? `Settings of ${organization.name}.` : 'Settings of your organization.'}
      />
      {session.status === 'loading' ? (
        <div className="flex justify-center py-16 text-fg-muted">
          <Spinner label="Loading the organization" />
        </div>
      ) : !organization ? (
        <p className="text-sm text-fg-muted">No organization selected</p>
      ) : (
        <>
          <div
            role="tablist"
            aria-label="Organization settings"
            className="-mx-4 flex gap-1 overflow-x-auto border-b border-line px-4 sm:mx-0 sm:px-0"
          >
            {settingsTabs.map((tab) => {
              const isActive = tab.id === activeTab;
              return (
                <button
                  key={tab.id}
                  ref={(element) => {
                    tabRefs.current[tab.id] = element;
                  }}
                  type="button"
                  role="tab"
                  id={`${baseId}-tab-${tab.id}`}
                  aria-selected={isActive}
                  aria-controls={`${baseId}-panel-${tab.id}`}
                  tabIndex={isActive ? 0 : -1}
                  onClick={() => selectTab(tab.id)}
                  onKeyDown={handleTabKeyDown}
                  className={cn(
                    '-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors',
                    'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus',
                    isActive
                      ? 'border-brand-600 text-fg dark:border-brand-400'
                      : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
                  )}
                >
                  {tab.label}
                </button>
              );
            })}
          </div>
          <div
            role="tabpanel"
            id={`${baseId}-panel-${activeTab}`}
            aria-labelledby={`${baseId}-tab-${activeTab}`}
            tabIndex={0}
            className="focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-focus"
          >
            {panels[activeTab] ?? <p className="text-sm text-fg-muted">Nothing to show here yet.</p>}
          </div>
        </>
      )}
    </div>
  );
}
