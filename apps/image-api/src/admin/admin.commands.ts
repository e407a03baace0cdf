import type { ImagePlan } from '@platform/image-tokens';
import { IMAGE_PLANS, isImagePlan, MAX_MONTHLY_LIMIT, TokenService } from '@platform/image-tokens';
import { AdminCommandError, parseFlags, type AdminCommand, type AdminCommands } from '@platform/service-kit';
import { parseArgs } from 'node:util';

interface TokenCreateOptions {
  plan: ImagePlan;
  limit: number | null;
}

function parseLimit(value: string | undefined): number | null {
  if (value === undefined) return null;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit > MAX_MONTHLY_LIMIT) {
    throw new AdminCommandError(`--limit must be a whole number of conversions from 0 to ${MAX_MONTHLY_LIMIT}, got "${value}"`);
  }
  return limit;
}

const tokenCreate: AdminCommand<TokenCreateOptions> = {
  usage: `admin token:create --plan ${IMAGE_PLANS.join('|')} [--limit N]`,
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, options: { plan: { type: 'string' }, limit: { type: 'string' } } }),
    );
    const plan = values.plan?.trim().toLowerCase();
    if (!plan) throw new AdminCommandError(`--plan is required\nusage: ${this.usage}`);
    if (!isImagePlan(plan)) throw new AdminCommandError(`--plan must be one of ${IMAGE_PLANS.join(', ')}, got "${values.plan}"`);
    return { plan, limit: parseLimit(values.limit) };
  },
  async run(context, { plan, limit }) {
    const { subscriptionId, token } = await context.get(TokenService).create(plan, limit);
    const limitNote = limit === null ? 'the plan limit' : `a monthly limit of ${limit}`;
    return [`created ${plan} subscription ${subscriptionId} with ${limitNote}; the access token is shown only now:`, token];
  },
};

export const ADMIN_COMMANDS: AdminCommands = {
  'token:create': tokenCreate as AdminCommand<unknown>,
};
