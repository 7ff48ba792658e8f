import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { createTestQueryClient } from '@/testing/test-utils';

import { sessionQueryKey, type SessionProfile } from './auth';
import { permissionFor, useCanManage, useCurrentRole } from './roles';

function profile(role: string): SessionProfile {
  return {
    user: { id: 'u1', name: 'Mia Member', email: 'mia@example.com' },
    organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
  };
}

function renderWithSession<T>(hook: () => T, session: SessionProfile | null) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, session);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return renderHook(hook, { wrapper }).result;
}

describe('permissionFor', () => {
  it('lets owners act in every owner-only area', () => {
    expect(permissionFor('owner', 'api-keys')).toEqual({ isAllowed: true, reason: null });
    expect(permissionFor('owner', 'sharing')).toEqual({ isAllowed: true, reason: null });
  });

  it('refuses team members with the reason the server gives', () => {
    expect(permissionFor('team_member', 'api-keys')).toEqual({
      isAllowed: false,
      reason: 'Only owners can manage API keys',
    });
    expect(permissionFor('team_member', 'course-deletion').reason).toBe('Only owners can delete courses');
  });

  it('allows nothing and explains nothing while the role is unknown', () => {
    expect(permissionFor(null, 'team')).toEqual({ isAllowed: false, reason: null });
  });
});

describe('useCurrentRole and useCanManage', () => {
  it('read the role in the current organization', () => {
    expect(renderWithSession(useCurrentRole, profile('team_member')).current).toBe('team_member');
    expect(renderWithSession(() => useCanManage('sharing'), profile('team_member')).current).toEqual({
      isAllowed: false,
      reason: 'Only owners can share reports and views publicly',
    });
    expect(renderWithSession(() => useCanManage('sharing'), profile('owner')).current.isAllowed).toBe(true);
  });

  it('know no role when signed out', () => {
    expect(renderWithSession(useCurrentRole, null).current).toBeNull();
  });
});
