import type { ImagePlan } from '@platform/image-tokens';
import { IMAGE_PLANS, isImagePlan, MAX_MONTHLY_LIMIT, TokenService } from '@platform/image-tokens';
import { AdminCommandError, parseFlags, type AdminCommand, type AdminCommands } from '@platform/service-kit';
import { isUUID } from 'class-validator';
import { parseArgs } from 'node:util';

/**
 * The customer account a subscription belongs to is the translation product's account id (what
 * `account:create` prints). It cannot be looked up here: that schema may be in another database.
 */
const ACCOUNT_HELP = 'the id of the customer account (printed by account:create)';

interface TokenCreateOptions {
  plan: ImagePlan;
  limit: number | null;
  account: string | null;
}

function parseLimit(value: string | undefined): number | null {
  if (value === undefined) return null;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit > MAX_MONTHLY_LIMIT) {
    throw new AdminCommandError(`--limit must be a whole number of conversions from 0 to ${MAX_MONTHLY_LIMIT}, got "${value}"`);
  }
  return limit;
}

/** An account id, or null for `none` where unlinking is allowed. */
function parseAccount(value: string, { allowNone }: { allowNone: boolean }): string | null {
  const account = value.trim().toLowerCase();
  if (allowNone && account === 'none') return null;
  if (!isUUID(account)) throw new AdminCommandError(`--account must be ${ACCOUNT_HELP}${allowNone ? ' or none' : ''}, got "${value}"`);
  return account;
}

const linkNote = (account: string | null) => (account ? `linked to account ${account}` : 'linked to no account');

const tokenCreate: AdminCommand<TokenCreateOptions> = {
  usage: `admin token:create --plan ${IMAGE_PLANS.join('|')} [--limit N] [--account ACCOUNT_ID]`,
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, options: { plan: { type: 'string' }, limit: { type: 'string' }, account: { type: 'string' } } }),
    );
    const plan = values.plan?.trim().toLowerCase();
    if (!plan) throw new AdminCommandError(`--plan is required\nusage: ${this.usage}`);
    if (!isImagePlan(plan)) throw new AdminCommandError(`--plan must be one of ${IMAGE_PLANS.join(', ')}, got "${values.plan}"`);
    return { plan, limit: parseLimit(values.limit), account: values.account === undefined ? null : parseAccount(values.account, { allowNone: false }) };
  },
  async run(context, { plan, limit, account }) {
    const { subscriptionId, token } = await context.get(TokenService).create(plan, limit, account);
    const limitNote = limit === null ? 'the plan limit' : `a monthly limit of ${limit}`;
    return [`created ${plan} subscription ${subscriptionId} with ${limitNote}, ${linkNote(account)}; the access token is shown only now:`, token];
  },
};

interface SubscriptionLinkOptions {
  subscription: string;
  account: string | null;
}

const subscriptionLink: AdminCommand<SubscriptionLinkOptions> = {
  usage: 'admin subscription:link SUBSCRIPTION_ID --account ACCOUNT_ID|none',
  parse(args) {
    const { values, positionals } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, allowPositionals: true, options: { account: { type: 'string' } } }),
    );
    const subscription = positionals[0]?.trim();
    if (positionals.length !== 1 || !subscription) throw new AdminCommandError(`give exactly one subscription id (printed by token:create)\nusage: ${this.usage}`);
    if (values.account === undefined) throw new AdminCommandError(`--account is required\nusage: ${this.usage}`);
    return { subscription, account: parseAccount(values.account, { allowNone: true }) };
  },
  async run(context, { subscription, account }) {
    const linked = await context.get(TokenService).link(subscription, account);
    if (!linked) throw new AdminCommandError(`no image subscription ${subscription}`);
    const shown = account ? `its tokens and conversions show in that account's console` : 'no console shows it';
    return [`${linked.plan} subscription ${linked.id} is ${linkNote(account)}: ${shown}`, account ?? 'none'];
  },
};

export const ADMIN_COMMANDS: AdminCommands = {
  'token:create': tokenCreate as AdminCommand<unknown>,
  'subscription:link': subscriptionLink as AdminCommand<unknown>,
};
