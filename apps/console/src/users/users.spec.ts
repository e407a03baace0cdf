import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, newEmail, PASSWORD, sql, startConsole, tokenOf, type TestAccount } from '../console-browser.testing';

describe('console users and invitations over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ CONSOLE_PUBLIC_URL: 'https://console.example.eu/' }));
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  it('lets an owner invite with a one-time link that sets a password, lists users and open invitations', async () => {
    const email = newEmail('Invited');
    const invited = await account.owner.call('POST', '/users/invitations', { email, role: 'member' });
    expect(invited.status).toBe(201);
    expect(invited.body).toEqual({
      ok: true,
      invitation: { id: expect.any(String), email: email.toLowerCase(), role: 'member', expires_at: expect.any(String) },
      link: expect.stringMatching(/^https:\/\/console\.example\.eu\/console\/accept-invitation#token=inv_[A-Za-z0-9_-]{43}$/),
      // No SMTP_URL: the owner passes the link on.
      mailed: false,
    });
    const listed = await account.owner.call('GET', '/users');
    expect(listed.body.users).toEqual([{ id: expect.any(String), email: account.ownerEmail, role: 'owner' }]);
    expect(listed.body.invitations).toEqual([invited.body.invitation]);
    expect(listed.text).not.toContain(tokenOf(invited.body.link));

    const token = tokenOf(invited.body.link);
    const short = await new Browser(url).call('POST', '/invitations/accept', { token, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ error: 'invalid_request', message: 'password must be from 12 to 256 characters' });
    const joined = new Browser(url);
    const accepted = await joined.call('POST', '/invitations/accept', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ user: { email: email.toLowerCase(), role: 'member' }, account: { id: account.accountId } });
    expect((await joined.call('GET', '/me')).status).toBe(200);
    expect((await new Browser(url).signIn(email)).status).toBe(200);

    // Single use: the same link a second time is refused and creates nobody.
    const again = await new Browser(url).call('POST', '/invitations/accept', { token, password: 'another password 123' });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'not_found', message: 'This invitation link is unknown, already used or expired; ask for a new one' });
    expect((await account.owner.call('GET', '/users')).body.invitations).toEqual([]);
  });

  it('refuses an expired invitation link', async () => {
    const invited = await account.owner.call('POST', '/users/invitations', { email: newEmail('late') });
    await sql(`UPDATE translation.console_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [invited.body.invitation.id]);
    const late = await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(invited.body.link), password: PASSWORD });
    expect(late.status).toBe(404);
    expect((await account.owner.call('GET', '/users')).body.invitations.map((i: { id: string }) => i.id)).not.toContain(invited.body.invitation.id);
  });

  it('refuses inviting an address that already has a user', async () => {
    const res = await account.owner.call('POST', '/users/invitations', { email: account.ownerEmail.toUpperCase() });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'invalid_request', message: `email: ${account.ownerEmail.toUpperCase()} already has a console user` });
    expect((await account.owner.call('POST', '/users/invitations', { email: 'not-an-address' })).body.message).toBe('email must be an email address');
  });

  it('keeps user management to owners: a member gets 403 and can still manage keys', async () => {
    const { browser: member, userId } = await account.join('member');
    for (const [method, path, json] of [
      ['GET', '/users'],
      ['POST', '/users/invitations', { email: newEmail('x') }],
      ['PATCH', `/users/${userId}`, { role: 'owner' }],
      ['DELETE', `/users/${userId}`],
    ] as const) {
      const res = await member.call(method, path, json);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'forbidden', message: 'This needs the role owner; you are member' });
    }
    expect((await member.call('GET', '/keys')).status).toBe(200);
  });

  it('lets a reviewer reach no customer endpoint', async () => {
    const { browser: reviewer } = await account.join('reviewer');
    expect((await reviewer.call('GET', '/me')).body.user.role).toBe('reviewer');
    for (const [method, path, json] of [
      ['GET', '/keys'],
      ['POST', '/keys', { name: 'k' }],
      ['GET', '/users'],
      ['POST', '/activation', { company: 'x', vat_id: 'DE123456789', intended_use: 'x' }],
    ] as const) {
      expect((await reviewer.call(method, path, json)).status, `${method} ${path}`).toBe(403);
    }
  });

  it('changes roles and removes users, which applies to their sessions at once, and keeps one owner', async () => {
    const { browser, userId } = await account.join('member');
    const promoted = await account.owner.call('PATCH', `/users/${userId}`, { role: 'owner' });
    expect(promoted.body).toMatchObject({ ok: true, user: { id: userId, role: 'owner' } });
    expect((await browser.call('GET', '/users')).status).toBe(200);
    expect((await account.owner.call('PATCH', `/users/${userId}`, { role: 'boss' })).status).toBe(422);

    expect((await account.owner.call('DELETE', `/users/${userId}`)).status).toBe(200);
    expect((await browser.call('GET', '/me')).status).toBe(401);
    const ownerId = (await account.owner.call('GET', '/me')).body.user.id;
    const demote = await account.owner.call('PATCH', `/users/${ownerId}`, { role: 'member' });
    expect(demote.status).toBe(422);
    expect(demote.body.message).toBe('An account keeps at least one owner: make another user owner first');
    expect((await account.owner.call('DELETE', `/users/${ownerId}`)).status).toBe(422);
  });

  it("answers 404 for another account's users, as for unknown ids", async () => {
    const other = await accountWithOwner(app, url);
    const otherOwnerId = (await other.owner.call('GET', '/me')).body.user.id;
    for (const id of [otherOwnerId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await account.owner.call('PATCH', `/users/${id}`, { role: 'member' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
      expect((await account.owner.call('DELETE', `/users/${id}`)).status).toBe(404);
    }
    expect((await other.owner.call('GET', '/me')).body.user.role).toBe('owner');
  });
});
