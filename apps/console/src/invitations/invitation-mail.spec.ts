import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { freePort, selfSignedCertificate, startSmtpStandIn, type ReceivedMail, type SmtpStandIn } from '@platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleConfig } from '../config/console.config';
import { accountWithOwner, Browser, newEmail, PASSWORD, startConsole, tokenOf, type TestAccount } from '../console-browser.testing';
import { Mailer } from '../mail/mailer.service';

const MAIL_FROM = 'Example Console <console@example.eu>';
const PUBLIC_URL = 'https://console.example.eu';

/** The console with a mail server, an account and its signed-in owner. */
async function consoleMailingThrough(smtp: Record<string, string>): Promise<{ app: NestFastifyApplication; url: string; account: TestAccount }> {
  const { app, url } = await startConsole({ CONSOLE_MAIL_FROM: MAIL_FROM, CONSOLE_PUBLIC_URL: PUBLIC_URL, ...smtp });
  return { app, url, account: await accountWithOwner(app, url) };
}

const mailTo = (server: SmtpStandIn, email: string): ReceivedMail | undefined => server.received.find((mail) => mail.to.includes(email.toLowerCase()));

describe('invitation mail through a mail server', () => {
  const started: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((thing) => thing.close()));
  });

  it('mails an owner’s invitation with the link and its expiry; the mailed link signs the person in once', async () => {
    const smtp = await startSmtpStandIn();
    const { app, url, account } = await consoleMailingThrough({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    started.push(smtp, app);

    const email = newEmail('Mailed');
    const invited = await account.owner.call('POST', '/users/invitations', { email, role: 'reviewer' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ ok: true, mailed: true, link: expect.stringMatching(/^https:\/\/console\.example\.eu\/console\/accept-invitation#token=inv_/) });

    const mail = mailTo(smtp, email)!;
    expect(mail).toMatchObject({ from: 'console@example.eu', to: [email.toLowerCase()], secure: false });
    expect(mail.message).toMatch(/^From: Example Console <console@example\.eu>\r?$/m);
    expect(mail.message).toMatch(new RegExp(`^Subject: Your invitation to the console of ${account.name}\\r?$`, 'm'));
    expect(mail.message).toContain(`You are invited to the console of the account "${account.name}" as reviewer.`);
    expect(mail.message).toMatch(/Content-Type: text\/plain[\s\S]*Content-Type: text\/html/);
    const expires = new Date(invited.body.invitation.expires_at);
    expect(mail.message).toContain(`until ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(expires)} UTC`);
    // The same link in the text and as the HTML part's button.
    expect(mail.message.split(invited.body.link).length - 1).toBe(3);
    expect(mail.message).toContain(`<a href="${invited.body.link}"`);

    const joined = new Browser(url);
    const accepted = await joined.call('POST', '/invitations/accept', { token: tokenOf(invited.body.link), password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ user: { email: email.toLowerCase(), role: 'reviewer' }, account: { id: account.accountId } });
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(invited.body.link), password: PASSWORD })).status).toBe(404);
  });

  it('sends an open invitation again with a new link that alone works, and withdraws one so that its link stops', async () => {
    const smtp = await startSmtpStandIn();
    const { app, url, account } = await consoleMailingThrough({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    started.push(smtp, app);

    const email = newEmail('Again');
    const first = (await account.owner.call('POST', '/users/invitations', { email })).body;
    const again = await account.owner.call('POST', `/users/invitations/${first.invitation.id}/resend`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ok: true, mailed: true, invitation: { id: first.invitation.id, email: email.toLowerCase() }, link: expect.stringMatching(/^https:\/\/console\.example\.eu\/console\/accept-invitation#token=inv_/) });
    expect(again.body.link).not.toBe(first.link);
    expect(smtp.received.filter((mail) => mail.to.includes(email.toLowerCase()))).toHaveLength(2);
    expect(mailTo(smtp, email)!.message).toContain(first.link);
    expect(smtp.received.at(-1)!.message).toContain(again.body.link);
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(first.link), password: PASSWORD })).status).toBe(404);

    const withdrawn = (await account.owner.call('POST', '/users/invitations', { email: newEmail('Withdrawn') })).body;
    const revoked = await account.owner.call('DELETE', `/users/invitations/${withdrawn.invitation.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ ok: true, invitation: withdrawn.invitation });
    expect((await account.owner.call('GET', '/users')).body.invitations.map((invitation: { id: string }) => invitation.id)).toEqual([first.invitation.id]);
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(withdrawn.link), password: PASSWORD })).status).toBe(404);

    // Gone, accepted, another account's or not an id: 404 either way.
    const other = await accountWithOwner(app, url);
    expect((await account.owner.call('DELETE', `/users/invitations/${withdrawn.invitation.id}`)).status).toBe(404);
    expect((await other.owner.call('POST', `/users/invitations/${first.invitation.id}/resend`)).status).toBe(404);
    expect((await other.owner.call('DELETE', `/users/invitations/${first.invitation.id}`)).status).toBe(404);
    expect((await account.owner.call('DELETE', '/users/invitations/not-an-id')).body).toMatchObject({ error: 'not_found' });
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(again.body.link), password: PASSWORD })).status).toBe(200);
    expect((await account.owner.call('POST', `/users/invitations/${first.invitation.id}/resend`)).status).toBe(404);
  });

  it('upgrades with STARTTLS, checks the server against SMTP_CA_FILE and signs in with the URL’s credentials', async () => {
    const certificate = await selfSignedCertificate();
    const login = { user: 'console@example.eu', password: 'p@ss:w/rd' };
    const smtp = await startSmtpStandIn({ tls: certificate, login });
    const credentials = `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}`;
    const { app, account } = await consoleMailingThrough({ SMTP_URL: `smtp://${credentials}@127.0.0.1:${smtp.port}`, SMTP_CA_FILE: certificate.certFile });
    started.push(smtp, app);

    const email = newEmail('tls');
    const invited = await account.owner.call('POST', '/users/invitations', { email });
    expect(invited.body.mailed).toBe(true);
    expect(mailTo(smtp, email)).toMatchObject({ secure: true, user: login.user });
  });

  it('still invites when the mail server is down: 201, mailed false, and the answered link works', async () => {
    const { app, url, account } = await consoleMailingThrough({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    started.push(app);

    const invited = await account.owner.call('POST', '/users/invitations', { email: newEmail('unmailed') });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ ok: true, mailed: false, link: expect.stringContaining('#token=inv_') });
    expect((await account.owner.call('GET', '/users')).body.invitations).toContainEqual(invited.body.invitation);
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(invited.body.link), password: PASSWORD })).status).toBe(200);
  });

  it('does not mail through a server whose certificate it cannot verify', async () => {
    const smtp = await startSmtpStandIn({ tls: await selfSignedCertificate(), login: { user: 'u', password: 'secret-password' } });
    const { app, account } = await consoleMailingThrough({ SMTP_URL: `smtp://u:secret-password@127.0.0.1:${smtp.port}` });
    started.push(smtp, app);

    const invited = await account.owner.call('POST', '/users/invitations', { email: newEmail('untrusted') });
    expect(invited.status).toBe(201);
    expect(invited.body.mailed).toBe(false);
    expect(smtp.received).toEqual([]);
  });

  it('stops at start when SMTP_CA_FILE cannot be read', () => {
    const config = loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://127.0.0.1:2525', CONSOLE_MAIL_FROM: MAIL_FROM, SMTP_CA_FILE: '/nonexistent/ca.pem' });
    expect(() => new Mailer(config)).toThrow(/^SMTP_CA_FILE \/nonexistent\/ca\.pem cannot be read: ENOENT/);
  });
});
