import { createHash } from 'node:crypto';

import { getMe, signInAs, signUpViaApi, uniqueSuffix } from '../support/accounts';
import { expect, test } from '../support/test';

test('an owner invites a teammate who joins through /team-signup as a team member', async ({
  page,
  browser,
  request,
}) => {
  const owner = await signUpViaApi(request);
  await signInAs(page, owner.token);
  await page.goto('/organization/settings?tab=invitations');

  const email = `teammate.${uniqueSuffix()}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation for ${email} created. Send them this link.`)).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  expect(link).toContain('/team-signup?token=');

  // The invitee opens the link in a browser of their own, signed out.
  const context = await browser.newContext();
  try {
    const invitee = await context.newPage();
    await invitee.goto(link);
    await expect(invitee.getByRole('heading', { name: `Join ${owner.organization.name}` })).toBeVisible();
    await expect(invitee.getByText(`${owner.user.name} invited ${email} as team member.`)).toBeVisible();
    await invitee.getByLabel('Your name').fill('Tess Teammate');
    await invitee.getByLabel('Password').fill('a sturdy passphrase');
    await invitee.getByRole('button', { name: 'Create account and join' }).click();
    // Signed in as the new member, in the inviting organization.
    await expect(invitee).toHaveURL(/\/dashboard$/);
    await expect(invitee.getByText(owner.organization.name).first()).toBeVisible();
  } finally {
    await context.close();
  }

  // The owner sees the new member with the team_member role.
  const members = await request.get('/api/team/members', {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  const body = (await members.json()) as { members: { email: string; role: string }[] };
  expect(body.members).toEqual(
    expect.arrayContaining([expect.objectContaining({ email, role: 'team_member' })]),
  );
});

test('an owner creates an API key, sees its secret once, uses it, and revokes it', async ({
  page,
  request,
}) => {
  const owner = await signUpViaApi(request);
  await signInAs(page, owner.token);
  await page.goto('/organization/settings?tab=api-keys');
  await expect(page.getByText('No API keys yet')).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Name').fill('Safety course');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await page.getByLabel('Secret of “Safety course”').inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(40);
  await page.getByRole('button', { name: 'I have stored it' }).click();

  // Only a prefix is listed and the server never returns the secret again.
  await expect(page.getByText('Safety course')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  const listed = await request.get('/api/api-keys', { headers: { authorization: `Bearer ${owner.token}` } });
  const listedText = await listed.text();
  expect(listedText).not.toContain(secret);
  expect(listedText).not.toContain(createHash('sha256').update(secret).digest('hex'));

  // The key works on the ingestion API...
  const sendEvent = (id: string) =>
    request.post('/api/v1/events', {
      headers: { authorization: `Bearer ${secret}` },
      data: {
        events: [
          {
            id,
            type: 'course.started',
            course: { externalCourseId: 'safety-101', title: 'Safety 101' },
            learner: { email: 'learner@example.com', name: 'Lee Learner' },
          },
        ],
      },
    });
  const used = await sendEvent('e2e-key-used-1');
  expect(used.status()).toBe(200);
  expect(await used.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
  // ...and nowhere else: an ingest key reads nothing.
  expect(
    (await request.get('/api/courses', { headers: { authorization: `Bearer ${secret}` } })).status(),
  ).toBe(401);

  await page.getByRole('button', { name: 'Revoke Safety course' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('API key “Safety course” revoked')).toBeVisible();
  await expect(page.getByText('Revoked', { exact: true })).toBeVisible();
  expect((await sendEvent('e2e-key-used-2')).status()).toBe(401);

  // The owner's own session is unaffected.
  expect((await getMe(request, owner.token)).ok()).toBe(true);
});
