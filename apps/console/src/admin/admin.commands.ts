import { AccountService, existingAccount } from '@platform/auth';
import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { TokenService } from '@platform/image-tokens';
import { AdminCommandError, asOperatorMistake, parseFlags, type AdminCommand, type AdminCommands } from '@platform/service-kit';
import { isEmail } from 'class-validator';
import { parseArgs } from 'node:util';
import { ActivationService } from '../activation/activation.service';
import { ConsoleConfig, isLocalUrl } from '../config/console.config';
import { InvitationsService } from '../invitations/invitations.service';
import { UsersService } from '../users/users.service';
import { CONSOLE_ROLES, type ConsoleRole } from '../users/console-user.entity';

function oneAccount(usage: string, args: string[]): string {
  const { positionals } = parseFlags(usage, () => parseArgs({ args, strict: true, allowPositionals: true }));
  const reference = positionals[0]?.trim();
  if (positionals.length !== 1 || !reference) throw new AdminCommandError(`give exactly one account name or id\nusage: ${usage}`);
  return reference;
}

/** Commands that only list take no arguments. */
function noArguments(usage: string, args: string[]): Record<string, never> {
  parseFlags(usage, () => parseArgs({ args, strict: true }));
  return {};
}

/**
 * Production refuses a local CONSOLE_PUBLIC_URL when the config loads; elsewhere the default
 * (localhost) is allowed, and an operator who forgot to set it on a server would hand out a link
 * that opens nowhere but there. Said on stderr before anything is created, so stdout stays the result.
 */
function warnOfLocalLinks(config: ConsoleConfig): void {
  if (!isLocalUrl(config.CONSOLE_PUBLIC_URL)) return;
  process.stderr.write(
    `warning: CONSOLE_PUBLIC_URL is ${config.CONSOLE_PUBLIC_URL} (NODE_ENV=${config.NODE_ENV}): the link opens only in a browser on this machine. ` +
      'For anyone else, set CONSOLE_PUBLIC_URL to the address people reach the console at (https:// in production, where a local one is refused).\n',
  );
}

const userInvite: AdminCommand<{ account: string; email: string; role: ConsoleRole; languages?: string[] }> = {
  usage: 'admin user:invite --account NAME|ID --email ADDRESS [--role owner|member|reviewer] [--languages de,fr (reviewers)]',
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({
        args,
        strict: true,
        options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string', default: 'owner' }, languages: { type: 'string' } },
      }),
    );
    const account = values.account?.trim();
    if (!account) throw new AdminCommandError(`--account is required\nusage: ${this.usage}`);
    const email = values.email?.trim() ?? '';
    if (!isEmail(email) || email.length > 254) throw new AdminCommandError(`--email must be an email address\nusage: ${this.usage}`);
    const role = values.role as ConsoleRole;
    if (!CONSOLE_ROLES.includes(role)) throw new AdminCommandError(`--role must be one of ${CONSOLE_ROLES.join(', ')}, got "${values.role}"`);
    const languages = values.languages?.split(',').map((code) => code.trim().toLowerCase());
    const unknown = languages?.filter((code) => !isEuLanguage(code)) ?? [];
    if (unknown.length > 0) throw new AdminCommandError(`--languages: ${unknown.join(', ')} is not an EU language code (${EU_LANGUAGES.join(', ')})`);
    return { account, email, role, languages };
  },
  async run(context, { account: name, email, role, languages }) {
    const account = await existingAccount(context, name);
    warnOfLocalLinks(context.get(ConsoleConfig));
    const { invitation, link, mail } = await asOperatorMistake(context.get(InvitationsService).invite(account.id, email, role, languages));
    const mailed = !mail ? [] : mail.sent ? [`mailed the link to ${invitation.email}`] : [`could not mail the link (${mail.reason}): pass it on yourself`];
    const reviewing = invitation.languages.length > 0 ? ` (${invitation.languages.join(', ')})` : '';
    return [...mailed, `invited ${invitation.email} as ${role}${reviewing} of "${account.name}" until ${invitation.expiresAt.toISOString()}; the link works once and is shown only now:`, link];
  },
};

const accountActivate: AdminCommand<{ account: string }> = {
  usage: 'admin account:activate NAME|ID',
  parse(args) {
    return { account: oneAccount(this.usage, args) };
  },
  async run(context, { account: reference }) {
    const account = await context.get(AccountService).activate(await existingAccount(context, reference));
    return [`account "${account.name}" is activated for production use: live keys can be created`, account.activatedAt!.toISOString()];
  },
};

const accountPending: AdminCommand<Record<string, never>> = {
  usage: 'admin account:pending',
  parse(args) {
    return noArguments(this.usage, args);
  },
  async run(context) {
    const pending = await context.get(ActivationService).pending();
    const lines = pending.map(
      ({ account, request }) =>
        `${account.name}\t${account.id}\trequested ${request.requestedAt.toISOString()}\tcompany: ${request.company}\tVAT id: ${request.vatId}\tuse: ${request.intendedUse.replace(/\s+/g, ' ')}`,
    );
    return [...lines, `${pending.length} account${pending.length === 1 ? '' : 's'} waiting for activation (admin account:activate NAME|ID)`];
  },
};

const accountSignups: AdminCommand<Record<string, never>> = {
  usage: 'admin account:signups',
  parse(args) {
    return noArguments(this.usage, args);
  },
  async run(context) {
    const accounts = context.get(AccountService);
    const users = context.get(UsersService);
    const waiting = await accounts.awaitingApproval();
    const lines = await Promise.all(
      waiting.map(async (account) => {
        const owners = (await users.list(account.id)).filter((user) => user.role === 'owner').map((user) => user.email);
        return `${account.name}\t${account.id}\tsigned up ${account.createdAt.toISOString()}\tconfirmed ${account.signupVerifiedAt!.toISOString()}\towner: ${owners.join(', ')}`;
      }),
    );
    return [...lines, `${waiting.length} sign-up${waiting.length === 1 ? '' : 's'} confirmed and waiting for approval (admin account:approve NAME|ID)`];
  },
};

const accountApprove: AdminCommand<{ account: string }> = {
  usage: 'admin account:approve NAME|ID',
  parse(args) {
    return { account: oneAccount(this.usage, args) };
  },
  async run(context, { account: reference }) {
    const account = await existingAccount(context, reference);
    const approved = await context.get(AccountService).approveSignup(account);
    if (!approved) {
      throw new AdminCommandError(`account "${account.name}" (${account.id}) is not confirmed yet: its owner has not opened the mailed link, so there is nothing to approve`);
    }
    return [`account "${approved.name}" (${approved.id}) is approved: its owners can create sandbox keys in the console now`, approved.signupApprovedAt!.toISOString()];
  },
};

/**
 * Links an image subscription to a customer account, both checked here: the console is the one
 * place that reaches the accounts and the image schema (IMAGE_DATABASE_URL) alike.
 */
const subscriptionLink: AdminCommand<{ subscription: string; account: string | null }> = {
  usage: 'admin subscription:link SUBSCRIPTION_ID --account NAME|ID|none',
  parse(args) {
    const { values, positionals } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, allowPositionals: true, options: { account: { type: 'string' } } }),
    );
    const subscription = positionals[0]?.trim();
    if (positionals.length !== 1 || !subscription) throw new AdminCommandError(`give exactly one subscription id (printed by image-api's token:create)\nusage: ${this.usage}`);
    const account = values.account?.trim();
    if (!account) throw new AdminCommandError(`--account is required: the account's name or id, or none\nusage: ${this.usage}`);
    return { subscription, account: account.toLowerCase() === 'none' ? null : account };
  },
  async run(context, { subscription, account: name }) {
    if (!context.get(ConsoleConfig).IMAGE_DATABASE_URL) {
      throw new AdminCommandError("IMAGE_DATABASE_URL is not set: this console reaches no image subscriptions; set it to image-api's database");
    }
    const account = name === null ? null : await existingAccount(context, name);
    const linked = await context.get(TokenService).link(subscription, account?.id ?? null);
    if (!linked) throw new AdminCommandError(`no image subscription ${subscription}`);
    if (!account) return [`${linked.plan} subscription ${linked.id} is linked to no account: no console shows it`, 'none'];
    return [`${linked.plan} subscription ${linked.id} is linked to account "${account.name}": its tokens and conversions show in that account's console`, account.id];
  },
};

export const ADMIN_COMMANDS: AdminCommands = {
  'user:invite': userInvite,
  'account:activate': accountActivate,
  'account:pending': accountPending,
  'subscription:link': subscriptionLink,
  'account:signups': accountSignups,
  'account:approve': accountApprove,
};
