import type { APIRequestContext } from '@playwright/test';

import { signInAs, signUpViaApi, uniqueSuffix, type Account } from '../support/accounts';
import { expect, test } from '../support/test';

/**
 * Roles (decision 008): a team member works with the data, and sees every
 * owner-only control disabled or replaced by the reason, in the server's own
 * words. The page fails on any console error, so this also proves the screens
 * send a member no request the server would refuse (a 403 logs one).
 */

async function post(request: APIRequestContext, token: string, url: string, data?: unknown) {
  const response = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** An owner's organization with a course, a public report and a key, and a member who joined by invitation. */
async function organizationWithMember(request: APIRequestContext) {
  const owner: Account = await signUpViaApi(request, { name: 'Olive Owner' });
  await post(request, owner.token, '/api/courses', {
    courseTitle: 'Fire Safety',
    externalCourseId: `fire-safety-${uniqueSuffix()}`,
  });
  const report = await post(request, owner.token, '/api/custom-reports', { name: 'Safety results' });
  const reportId = String(report.id);
  const shared = await request.put(`/api/custom-reports/${reportId}/public`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { isPublic: true },
  });
  expect(shared.status()).toBe(200);
  await post(request, owner.token, '/api/api-keys', { name: 'Storyline player' });
  const invitation = await post(request, owner.token, '/api/invitations', {
    email: `mia.${uniqueSuffix()}@example.com`,
  });
  const member = (await request
    .post(`/api/invitations/${String(invitation.token)}/signup`, {
      data: { name: 'Mia Member', password: 'a sturdy passphrase' },
    })
    .then((response) => response.json())) as Account;
  expect(member.token).toBeTruthy();
  return { owner, member, reportId };
}

test('a team member sees the owner-only controls disabled or hidden, each with the reason', async ({
  page,
  request,
}) => {
  const { member, reportId } = await organizationWithMember(request);

  // The server refuses a member's key, with the words the screens show.
  const refused = await request.post('/api/api-keys', {
    headers: { authorization: `Bearer ${member.token}` },
    data: { name: 'Mine' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: 'Only owners can manage API keys', code: 'FORBIDDEN' });

  await signInAs(page, member.token);

  // Settings: the General form is read-only, with the reason.
  await page.goto('/organization/settings');
  await expect(page.getByLabel('Organization name')).toBeDisabled();
  await expect(
    page.getByText('Only owners can change the organization settings: its name and subdomain.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);

  // API keys: no list, the create button disabled and described by the reason.
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByText('Only owners can manage API keys', { exact: true })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create API key' });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(/Only owners can manage API keys/);
  await expect(page.getByText('Storyline player')).toHaveCount(0);

  // Invitations and members: no invite form, no role or removal controls.
  await page.getByRole('tab', { name: 'Invitations' }).click();
  await expect(
    page.getByText(
      'Only owners can invite people and change or remove members. Ask an owner to invite a colleague.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page.getByText('Olive Owner')).toBeVisible();
  await expect(page.getByTestId('members-owners-only')).toHaveText(
    'Only owners can invite people and change or remove members.',
  );
  await expect(page.getByRole('combobox', { name: /^Role of / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);

  // Courses: Edit works, Delete is disabled with the reason.
  await page.goto('/courses');
  await page.getByRole('button', { name: 'Actions for Fire Safety' }).click();
  const remove = page.getByRole('menuitem', { name: 'Delete' });
  await expect(remove).toHaveAttribute('aria-disabled', 'true');
  await expect(remove).toHaveAccessibleDescription('Only owners can delete courses');
  // Playwright waits for an aria-disabled item to be enabled; force the click to prove it does nothing.
  await remove.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Delete course' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // A report the owner shared: the member copies the link but cannot switch it or replace it.
  await page.goto(`/custom-reports/view/${reportId}`);
  const publicSwitch = page.getByRole('switch', { name: 'Public link' });
  await expect(publicSwitch).toBeDisabled();
  await expect(publicSwitch).toHaveAttribute('aria-checked', 'true');
  await expect(publicSwitch).toHaveAccessibleDescription('Only owners can share reports and views publicly.');
  await expect(page.getByRole('textbox', { name: 'Public link' })).toHaveValue(/\/public-reports\//);
  await expect(page.getByRole('button', { name: 'Replace link' })).toHaveCount(0);
});
