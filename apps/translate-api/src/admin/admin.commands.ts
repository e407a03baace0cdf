import { AccountService, ApiKeyService, existingAccount } from '@platform/auth';
import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { ReviewerService, ReviewRouting } from '@platform/review';
import { AdminCommandError, asOperatorMistake, parseFlags, type AdminCommand, type AdminCommands } from '@platform/service-kit';
import { parseArgs } from 'node:util';
import { catalogBuild } from './catalog.command';

const accountCreate: AdminCommand<{ name: string; sandbox: boolean }> = {
  usage: 'admin account:create NAME [--sandbox]',
  parse(args) {
    const { values, positionals } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, allowPositionals: true, options: { sandbox: { type: 'boolean', default: false } } }),
    );
    const name = positionals[0]?.trim();
    if (positionals.length !== 1 || !name || name.length > 200) {
      throw new AdminCommandError(`give exactly one account name (1 to 200 characters)\nusage: ${this.usage}`);
    }
    return { name, sandbox: values.sandbox };
  },
  async run(context, { name, sandbox }) {
    const accounts = context.get(AccountService);
    const existing = await accounts.findByName(name);
    if (existing) throw new AdminCommandError(`account "${existing.name}" (${existing.id}) already exists; names are compared ignoring case, letter width and surrounding spaces`);
    // The operator vouches for an account it creates, unless it is for sandbox use only.
    const account = await asOperatorMistake(accounts.create(name, { activated: !sandbox }));
    return [`created ${sandbox ? 'sandbox-only' : 'activated'} account "${account.name}"`, account.id];
  },
};

interface KeyCreateOptions {
  account: string;
  sandbox: boolean;
  manage: boolean;
  monthlyWordLimit: number | null;
  rateLimitPerMinute: number | null;
  name: string | null;
}

function parseCount(flag: string, value: string, unit: string, min = 0): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count) || count < min) {
    throw new AdminCommandError(`${flag} must be a whole number of ${unit}${min > 0 ? ` (at least ${min})` : ''}, got "${value}"`);
  }
  return count;
}

function parseWordLimit(value: string | undefined): number | null {
  return value === undefined ? null : parseCount('--word-limit', value, 'words');
}

/** A ceiling flag: absent leaves it as it is, `none` clears it. */
function parseCeiling(flag: string, value: string | undefined, unit: string, min: number): number | null | undefined {
  if (value === undefined) return undefined;
  return value.trim().toLowerCase() === 'none' ? null : parseCount(flag, value, `${unit} or "none"`, min);
}

const keyCreate: AdminCommand<KeyCreateOptions> = {
  usage: 'admin key:create --account NAME|ID [--sandbox] [--manage] [--word-limit N] [--rate N] [--name LABEL]',
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({
        args,
        strict: true,
        options: {
          account: { type: 'string' },
          sandbox: { type: 'boolean', default: false },
          manage: { type: 'boolean', default: false },
          'word-limit': { type: 'string' },
          rate: { type: 'string' },
          name: { type: 'string' },
        },
      }),
    );
    const account = values.account?.trim();
    if (!account) throw new AdminCommandError(`--account is required\nusage: ${this.usage}`);
    const monthlyWordLimit = parseWordLimit(values['word-limit']);
    const rateLimitPerMinute = values.rate === undefined ? null : parseCount('--rate', values.rate, 'requests per minute', 1);
    const name = values.name?.trim() || null;
    if (name && name.length > 100) throw new AdminCommandError('--name must be at most 100 characters');
    return { account, sandbox: values.sandbox, manage: values.manage, monthlyWordLimit, rateLimitPerMinute, name };
  },
  async run(context, options) {
    const account = await existingAccount(context, options.account);
    const { key, secret } = await asOperatorMistake(
      context.get(ApiKeyService).create(account.id, {
        sandbox: options.sandbox,
        scopes: options.manage ? ['manage'] : ['translate'],
        monthlyWordLimit: options.monthlyWordLimit,
        rateLimitPerMinute: options.rateLimitPerMinute,
        name: options.name,
      }),
    );
    const kind = key.sandbox ? 'sandbox' : 'live';
    return [`created ${kind} key ${key.id} for account "${account.name}" (scopes: ${key.scopes.join(', ')}); it is shown only now:`, secret];
  },
};

interface AccountLimitsOptions {
  account: string;
  monthlyWordLimit: number | null | undefined;
  rateLimitPerMinute: number | null | undefined;
}

const accountLimits: AdminCommand<AccountLimitsOptions> = {
  usage: 'admin account:limits NAME|ID [--words N|none] [--rate N|none]',
  parse(args) {
    const { values, positionals } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, allowPositionals: true, options: { words: { type: 'string' }, rate: { type: 'string' } } }),
    );
    const account = positionals[0]?.trim();
    if (positionals.length !== 1 || !account) throw new AdminCommandError(`give exactly one account name or id\nusage: ${this.usage}`);
    return {
      account,
      monthlyWordLimit: parseCeiling('--words', values.words, 'words', 0),
      rateLimitPerMinute: parseCeiling('--rate', values.rate, 'requests per minute', 1),
    };
  },
  async run(context, options) {
    const account = await context.get(AccountService).setLimits(await existingAccount(context, options.account), options);
    const shown = (value: number | null, unit: string) => (value === null ? 'none' : `${value} ${unit}`);
    return [
      `account "${account.name}": monthly ceiling ${shown(account.monthlyWordLimit, 'words')}, rate ceiling ${shown(account.rateLimitPerMinute, 'requests per minute')} ` +
        '(each for its sandbox keys together and for its live keys together)',
      JSON.stringify({ monthly_word_limit: account.monthlyWordLimit, rate_limit_per_minute: account.rateLimitPerMinute }),
    ];
  },
};

/** `--languages de,fr` as a list of EU language codes, each once. */
function parseLanguages(usage: string, value: string | undefined): string[] {
  const languages = [...new Set((value ?? '').split(',').map((code) => code.trim().toLowerCase()).filter(Boolean))];
  if (languages.length === 0) throw new AdminCommandError(`--languages is required\nusage: ${usage}`);
  const unknown = languages.filter((code) => !isEuLanguage(code));
  if (unknown.length > 0) throw new AdminCommandError(`--languages: ${unknown.join(', ')} is not an EU language code (${EU_LANGUAGES.join(', ')})`);
  return languages;
}

const reviewerCreate: AdminCommand<{ languages: string[]; name: string | null; account: string | null }> = {
  usage: 'admin reviewer:create --languages de,fr [--account NAME|ID] [--name NAME]',
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, options: { languages: { type: 'string' }, name: { type: 'string' }, account: { type: 'string' } } }),
    );
    const languages = parseLanguages(this.usage, values.languages);
    const name = values.name?.trim() || null;
    if (name && name.length > 100) throw new AdminCommandError('--name must be at most 100 characters');
    if (values.account !== undefined && !values.account.trim()) throw new AdminCommandError(`--account needs an account name or id\nusage: ${this.usage}`);
    return { languages, name, account: values.account?.trim() ?? null };
  },
  async run(context, { languages, name, account: accountName }) {
    const account = accountName === null ? null : await existingAccount(context, accountName);
    const { reviewer, token } = await context.get(ReviewerService).create(languages, { name, accountId: account?.id ?? null });
    const whose = account ? `of account "${account.name}"` : "of the platform's pool (accounts opt in per language with account:review-pool)";
    return [`created reviewer ${reviewer.id}${name ? ` "${name}"` : ''} ${whose} for ${languages.join(', ')}; the token is shown only now:`, token];
  },
};

const accountReviewPool: AdminCommand<{ account: string; languages: string[] }> = {
  usage: 'admin account:review-pool NAME|ID --languages de,fr|none',
  parse(args) {
    const { values, positionals } = parseFlags(this.usage, () =>
      parseArgs({ args, strict: true, allowPositionals: true, options: { languages: { type: 'string' } } }),
    );
    const account = positionals[0]?.trim();
    if (positionals.length !== 1 || !account) throw new AdminCommandError(`give exactly one account name or id\nusage: ${this.usage}`);
    const languages = values.languages?.trim().toLowerCase() === 'none' ? [] : parseLanguages(this.usage, values.languages);
    return { account, languages };
  },
  async run(context, { account: name, languages }) {
    const account = await existingAccount(context, name);
    await context.get(ReviewRouting).setPoolLanguages(account.id, languages);
    const shown = languages.length > 0 ? [...languages].sort().join(', ') : 'no language';
    return [`account "${account.name}": the platform's reviewers review ${shown} besides the account's own reviewers, for jobs submitted from now on`, JSON.stringify([...languages].sort())];
  },
};

const reviewerRevoke: AdminCommand<{ id: string }> = {
  usage: 'admin reviewer:revoke ID',
  parse(args) {
    const { positionals } = parseFlags(this.usage, () => parseArgs({ args, strict: true, allowPositionals: true }));
    const id = positionals[0]?.trim();
    if (positionals.length !== 1 || !id) throw new AdminCommandError(`give exactly one reviewer id (printed by reviewer:create)\nusage: ${this.usage}`);
    return { id };
  },
  async run(context, { id }) {
    const reviewer = await context.get(ReviewerService).revoke(id);
    if (!reviewer) throw new AdminCommandError(`reviewer ${id} does not exist`);
    return [`reviewer ${reviewer.id}${reviewer.name ? ` "${reviewer.name}"` : ''} is revoked: the token is refused from now on; tasks it held return to the pool when their lease ends`, reviewer.revokedAt!.toISOString()];
  },
};

export const ADMIN_COMMANDS: AdminCommands = {
  'account:create': accountCreate,
  'account:limits': accountLimits,
  'account:review-pool': accountReviewPool,
  'catalog:build': catalogBuild,
  'key:create': keyCreate,
  'reviewer:create': reviewerCreate,
  'reviewer:revoke': reviewerRevoke,
};
