import { createServer, type Server } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents, invitations, userOrganizations } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { bearer, signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
  owner = await signUpViaApi(testApp.app, { name: 'Olga Owner', organizationName: 'Team Org' });
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);

type Sent = {
  invitation: { id: string; email: string; status: string; inviterName: string };
  link: string;
  token: string;
  isEmailed: boolean;
};

async function invite(email: string, headers = owner.headers): Promise<Sent> {
  const response = await inject({ method: 'POST', url: '/api/invitations', headers, payload: { email } });
  expect(response.statusCode).toBe(201);
  return response.json<Sent>();
}

describe('invitations', () => {
  it('invites by e-mail: the link carries an unguessable token whose hash alone is stored', async () => {
    const sent = await invite('New.Person@Example.com');
    expect(sent.invitation).toMatchObject({
      email: 'new.person@example.com',
      status: 'pending',
      inviterName: 'Olga Owner',
      role: 'team_member',
    });
    expect(sent.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.link).toBe(`http://localhost:80/team-signup?token=${sent.token}`);
    expect(sent.isEmailed).toBe(false);
    const [row] = await testApp.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, sent.invitation.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(sent.token);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const list = await inject({ method: 'GET', url: '/api/invitations', headers: owner.headers });
    expect(list.json<{ invitations: { id: string }[] }>().invitations.map((entry) => entry.id)).toContain(
      sent.invitation.id,
    );
  });

  it('shows the organization and the inviter to anyone with the link (public)', async () => {
    const sent = await invite('preview@example.com');
    const response = await inject({ method: 'GET', url: `/api/invitations/${sent.token}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      organizationName: 'Team Org',
      inviterName: 'Olga Owner',
      email: 'preview@example.com',
      role: 'team_member',
      expiresAt: expect.any(String),
    });
    expect((await inject({ method: 'GET', url: '/api/invitations/not-a-token' })).statusCode).toBe(404);
  });

  it('lets a new person create an account and join as team_member; the invitation turns accepted', async () => {
    const sent = await invite('joiner@example.com');
    const response = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.token}/signup`,
      payload: { name: 'Jo Joiner', password: 'joiner password' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ token: string; user: { id: string; email: string } }>();
    expect(body).toMatchObject({
      user: { name: 'Jo Joiner', email: 'joiner@example.com' },
      organization: owner.organization,
    });
    const me = await inject({ method: 'GET', url: '/api/me', headers: bearer(body.token) });
    expect(me.json<{ organizations: unknown[] }>().organizations).toEqual([
      { ...owner.organization, role: 'team_member', isPrimary: true },
    ]);
    const [row] = await testApp.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, sent.invitation.id));
    expect(row).toMatchObject({ status: 'accepted', acceptedBy: body.user.id });
    expect(row?.acceptedAt).toBeInstanceOf(Date);
    // The link works once.
    const again = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.token}/signup`,
      payload: { name: 'Someone', password: 'another password' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This invitation is no longer valid');
    // A team member works with the data but does not manage the team.
    const forbidden = await inject({
      method: 'POST',
      url: '/api/invitations',
      headers: bearer(body.token),
      payload: { email: 'x@example.com' },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('Only owners can invite people and change or remove members');
    expect(
      (await inject({ method: 'GET', url: '/api/courses', headers: bearer(body.token) })).statusCode,
    ).toBe(200);
  });

  it('lets an existing, signed-in person accept an invitation sent to their address', async () => {
    const existing = await signUpViaApi(testApp.app);
    const sent = await invite(existing.user.email);
    const stranger = await signUpViaApi(testApp.app);
    const wrongPerson = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.token}/accept`,
      headers: stranger.headers,
    });
    expect(wrongPerson.statusCode).toBe(403);
    expect(wrongPerson.json().error).toBe('This invitation was sent to another email address');
    const response = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.token}/accept`,
      headers: existing.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(owner.organization);
    const me = await inject({ method: 'GET', url: '/api/me', headers: existing.headers });
    expect(me.json<{ organizations: unknown[] }>().organizations).toEqual([
      { ...existing.organization, role: 'owner', isPrimary: true },
      { ...owner.organization, role: 'team_member', isPrimary: false },
    ]);
    const duplicate = await inject({
      method: 'POST',
      url: '/api/invitations',
      headers: owner.headers,
      payload: { email: existing.user.email },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('This person is already a member of the organization');
  });

  it('refuses a new account for an address that already has one', async () => {
    const existing = await signUpViaApi(testApp.app);
    const sent = await invite(existing.user.email);
    const response = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.token}/signup`,
      payload: { name: 'Dup', password: 'long enough' },
    });
    expect(response.statusCode).toBe(409);
  });

  it('expires after 7 days', async () => {
    const sent = await invite('late@example.com');
    await testApp.database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, sent.invitation.id));
    const response = await inject({ method: 'GET', url: `/api/invitations/${sent.token}` });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('This invitation has expired');
  });

  it('can be revoked; the link then stops working', async () => {
    const sent = await invite('revoked@example.com');
    const response = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.invitation.id}/revoke`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'revoked' });
    expect((await inject({ method: 'GET', url: `/api/invitations/${sent.token}` })).statusCode).toBe(409);
  });

  it('re-sending rotates the token: the old link stops working, the new one works', async () => {
    const sent = await invite('resend@example.com');
    const response = await inject({
      method: 'POST',
      url: `/api/invitations/${sent.invitation.id}/resend`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    const resent = response.json<Sent>();
    expect(resent.token).not.toBe(sent.token);
    expect(resent.invitation.id).toBe(sent.invitation.id);
    expect((await inject({ method: 'GET', url: `/api/invitations/${sent.token}` })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/invitations/${resent.token}` })).statusCode).toBe(200);
  });

  it("answers 'Could not identify the inviter' when the inviter's account is gone", async () => {
    const otherOwner = await signUpViaApi(testApp.app);
    const sent = await invite('orphan@example.com', otherOwner.headers);
    await testApp.database.db
      .update(invitations)
      .set({ inviterId: null })
      .where(eq(invitations.id, sent.invitation.id));
    const response = await inject({ method: 'GET', url: `/api/invitations/${sent.token}` });
    expect(response.json().error).toBe('Could not identify the inviter');
  });
});

describe('members', () => {
  it('owners change roles and remove members for real; the last owner stays', async () => {
    const org = await signUpViaApi(testApp.app, { name: 'Main Owner' });
    const sent = await invite('member@example.com', org.headers);
    const joined = (
      await inject({
        method: 'POST',
        url: `/api/invitations/${sent.token}/signup`,
        payload: { name: 'Mem Ber', password: 'member password' },
      })
    ).json<{ user: { id: string } }>();

    const list = await inject({ method: 'GET', url: '/api/team/members', headers: org.headers });
    expect(
      list.json<{ members: { name: string; role: string }[] }>().members.map((m) => [m.name, m.role]),
    ).toEqual([
      ['Main Owner', 'owner'],
      ['Mem Ber', 'team_member'],
    ]);

    const lastOwnerDemotion = await inject({
      method: 'PATCH',
      url: `/api/team/members/${org.user.id}`,
      headers: org.headers,
      payload: { role: 'team_member' },
    });
    expect(lastOwnerDemotion.statusCode).toBe(409);
    expect(lastOwnerDemotion.json().error).toBe('An organization needs at least one owner');
    const lastOwnerRemoval = await inject({
      method: 'DELETE',
      url: `/api/team/members/${org.user.id}`,
      headers: org.headers,
    });
    expect(lastOwnerRemoval.statusCode).toBe(409);

    const promoted = await inject({
      method: 'PATCH',
      url: `/api/team/members/${joined.user.id}`,
      headers: org.headers,
      payload: { role: 'owner' },
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: joined.user.id, role: 'owner' });
    // With two owners, one may step down.
    const demoted = await inject({
      method: 'PATCH',
      url: `/api/team/members/${org.user.id}`,
      headers: org.headers,
      payload: { role: 'team_member' },
    });
    expect(demoted.statusCode).toBe(200);
    // ...and is then no longer an owner.
    const notOwner = await inject({
      method: 'DELETE',
      url: `/api/team/members/${joined.user.id}`,
      headers: org.headers,
    });
    expect(notOwner.statusCode).toBe(403);

    const removed = await inject({
      method: 'DELETE',
      url: `/api/team/members/${org.user.id}`,
      headers: bearer((await signIn('member@example.com', 'member password')).token),
    });
    expect(removed.statusCode).toBe(204);
    const memberships = await testApp.database.db
      .select()
      .from(userOrganizations)
      .where(
        and(
          eq(userOrganizations.organizationId, org.organization.id),
          eq(userOrganizations.userId, org.user.id),
        ),
      );
    expect(memberships).toEqual([]);

    const kinds = await testApp.database.db
      .select({ kind: activityEvents.kind })
      .from(activityEvents)
      .where(eq(activityEvents.organizationId, org.organization.id));
    expect(kinds.map((row) => row.kind).sort()).toEqual([
      'member.invited',
      'member.joined',
      'member.removed',
      'member.role_changed',
      'member.role_changed',
    ]);
  });
});

describe('two owners demoting each other at the same moment', () => {
  it('leaves exactly one owner', async () => {
    const first = await signUpViaApi(testApp.app);
    const sent = await invite('second-owner@example.com', first.headers);
    const second = (
      await inject({
        method: 'POST',
        url: `/api/invitations/${sent.token}/signup`,
        payload: { name: 'Second Owner', password: 'second password' },
      })
    ).json<{ token: string; user: { id: string } }>();
    await inject({
      method: 'PATCH',
      url: `/api/team/members/${second.user.id}`,
      headers: first.headers,
      payload: { role: 'owner' },
    });
    const [a, b] = await Promise.all([
      inject({
        method: 'PATCH',
        url: `/api/team/members/${second.user.id}`,
        headers: first.headers,
        payload: { role: 'team_member' },
      }),
      inject({
        method: 'PATCH',
        url: `/api/team/members/${first.user.id}`,
        headers: bearer(second.token),
        payload: { role: 'team_member' },
      }),
    ]);
    // One wins; the other is refused either as the last owner (409) or, when
    // the winner finished first, as no longer an owner (403).
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0], `${a.body} ${b.body}`).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const owners = await testApp.database.db
      .select()
      .from(userOrganizations)
      .where(
        and(eq(userOrganizations.organizationId, first.organization.id), eq(userOrganizations.role, 'owner')),
      );
    expect(owners).toHaveLength(1);
  });
});

async function signIn(email: string, password: string): Promise<{ token: string }> {
  const response = await inject({ method: 'POST', url: '/api/session', payload: { email, password } });
  expect(response.statusCode).toBe(200);
  return response.json<{ token: string }>();
}

describe('delivery by SMTP', () => {
  let server: Server;
  const received: string[] = [];

  beforeAll(async () => {
    // A tiny SMTP server: enough of the protocol for nodemailer to hand over one message.
    server = createServer((socket) => {
      let isData = false;
      let data = '';
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString('utf8').split('\r\n')) {
          if (isData) {
            if (line === '.') {
              isData = false;
              received.push(data);
              socket.write('250 queued\r\n');
            } else data += `${line}\n`;
            continue;
          }
          const command = line.slice(0, 4).toUpperCase();
          if (command === 'EHLO' || command === 'HELO') socket.write('250 test\r\n');
          else if (command === 'MAIL' || command === 'RCPT') socket.write('250 ok\r\n');
          else if (command === 'DATA') {
            isData = true;
            data = '';
            socket.write('354 go ahead\r\n');
          } else if (command === 'QUIT') socket.end('221 bye\r\n');
          else if (line) socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('e-mails the invitation when SMTP_URL is set, and still returns the link', async () => {
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const mailing = await createTestApp({
      smtp: { url: `smtp://127.0.0.1:${address.port}`, from: 'CourseLens <no-reply@example.com>' },
      publicUrl: 'https://app.example.com',
    });
    try {
      const sender = await signUpViaApi(mailing.app, { name: 'Mail Owner', organizationName: 'Mail Org' });
      const response = await mailing.app.inject({
        method: 'POST',
        url: '/api/invitations',
        headers: sender.headers,
        payload: { email: 'mailed@example.com' },
      });
      const sent = response.json<Sent>();
      expect(sent.isEmailed).toBe(true);
      expect(sent.link).toBe(`https://app.example.com/team-signup?token=${sent.token}`);
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('mailed@example.com');
      expect(received[0]).toContain('Mail Owner invited you to Mail Org');
      expect(received[0]?.replace(/=\n/g, '')).toContain(sent.token);
    } finally {
      await mailing.close();
    }
  });
});
