import { AccountService, ApiKeyService } from '@platform/auth';
import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { ReviewerService } from '@platform/review';
import { AdminCommandError, parseFlags, type AdminCommand, type AdminCommands } from '@platform/service-kit';
import { parseArgs } from 'node:util';

const accountCreate: AdminCommand<{ name: string }> = {
  usage: 'admin account:create NAME',
  parse(args) {
    const { positionals } = parseFlags(this.usage, () => parseArgs({ args, strict: true, allowPositionals: true }));
    const name = positionals[0]?.trim();
    if (positionals.length !== 1 || !name || name.length > 200) {
      throw new AdminCommandError(`give exactly one account name (1 to 200 characters)\nusage: ${this.usage}`);
    }
    return { name };
  },
  async run(context, { name }) {
    const accounts = context.get(AccountService);
    if (await accounts.findByName(name)) throw new AdminCommandError(`account "${name}" already exists`);
    const account = await accounts.create(name);
    return [`created account "${account.name}"`, account.id];
  },
};

interface KeyCreateOptions {
  account: string;
  sandbox: boolean;
  manage: boolean;
  monthlyWordLimit: number | null;
  name: string | null;
}

function parseWordLimit(value: string | undefined): number | null {
  if (value === undefined) return null;
  const words = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(words)) throw new AdminCommandError(`--word-limit must be a whole number of words, got "${value}"`);
  return words;
}

const keyCreate: AdminCommand<KeyCreateOptions> = {
  usage: 'admin key:create --account NAME [--sandbox] [--manage] [--word-limit N] [--name LABEL]',
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
          name: { type: 'string' },
        },
      }),
    );
    const account = values.account?.trim();
    if (!account) throw new AdminCommandError(`--account is required\nusage: ${this.usage}`);
    const monthlyWordLimit = parseWordLimit(values['word-limit']);
    const name = values.name?.trim() || null;
    if (name && name.length > 100) throw new AdminCommandError('--name must be at most 100 characters');
    return { account, sandbox: values.sandbox, manage: values.manage, monthlyWordLimit, name };
  },
  async run(context, options) {
    // Bootstrapping is one command: a key for a new account name creates the account too.
    const { account, created } = await context.get(AccountService).findOrCreate(options.account);
    const { key, secret } = await context.get(ApiKeyService).create(account.id, {
      sandbox: options.sandbox,
      scopes: options.manage ? ['manage'] : ['translate'],
      monthlyWordLimit: options.monthlyWordLimit,
      name: options.name,
    });
    const kind = key.sandbox ? 'sandbox' : 'live';
    return [
      ...(created ? [`created account "${account.name}" (${account.id})`] : []),
      `created ${kind} key ${key.id} for account "${account.name}" (scopes: ${key.scopes.join(', ')}); it is shown only now:`,
      secret,
    ];
  },
};

const reviewerCreate: AdminCommand<{ languages: string[]; name: string | null }> = {
  usage: 'admin reviewer:create --languages de,fr [--name NAME]',
  parse(args) {
    const { values } = parseFlags(this.usage, () => parseArgs({ args, strict: true, options: { languages: { type: 'string' }, name: { type: 'string' } } }));
    const languages = [...new Set((values.languages ?? '').split(',').map((code) => code.trim().toLowerCase()).filter(Boolean))];
    if (languages.length === 0) throw new AdminCommandError(`--languages is required\nusage: ${this.usage}`);
    const unknown = languages.filter((code) => !isEuLanguage(code));
    if (unknown.length > 0) throw new AdminCommandError(`--languages: ${unknown.join(', ')} is not an EU language code (${EU_LANGUAGES.join(', ')})`);
    const name = values.name?.trim() || null;
    if (name && name.length > 100) throw new AdminCommandError('--name must be at most 100 characters');
    return { languages, name };
  },
  async run(context, { languages, name }) {
    const { reviewer, token } = await context.get(ReviewerService).create(languages, name);
    return [`created reviewer ${reviewer.id}${name ? ` "${name}"` : ''} for ${languages.join(', ')}; the token is shown only now:`, token];
  },
};

export const ADMIN_COMMANDS: AdminCommands = {
  'account:create': accountCreate,
  'key:create': keyCreate,
  'reviewer:create': reviewerCreate,
};
