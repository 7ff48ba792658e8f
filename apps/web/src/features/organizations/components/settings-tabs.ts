export const settingsTabs = [
  { id: 'general', label: 'General' },
  { id: 'members', label: 'Members' },
  { id: 'invitations', label: 'Invitations' },
  { id: 'api-keys', label: 'API keys' },
  { id: 'jobs', label: 'Background jobs' },
] as const;
export type SettingsTab = (typeof settingsTabs)[number]['id'];

function isSettingsTab(value: string | null): value is SettingsTab {
  return settingsTabs.some((tab) => tab.id === value);
}

/** The tab `?tab=` opens (General for anything else); the page and its route loader read it alike. */
export function readSettingsTab(searchParams: URLSearchParams): SettingsTab {
  const requested = searchParams.get('tab');
  return isSettingsTab(requested) ? requested : 'general';
}
